/// libFuzzer target: the replay parser on arbitrary bytes (once as given, once with its file checksum
/// repaired so that mutations reach the records), then an arena ReplayPlayer over whatever parses: play,
/// seek back and forth, and a rewrite that must parse to the same replay.
#include "file_fuzzing.hpp"

#include <arena/arena_game.hpp>

#include <rewind/session/rollback/replay.hpp>
#include <rewind/session/rollback/replay_player.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace rb = rwd::rollback;

namespace {

constexpr rb::Frame kMaxPlayedFrames = 600;  // longer replays are parsed and rewritten, not played
constexpr rb::Frame kMaxRewrittenFrames = 20000;

void same_or_abort(const rb::ReplayData& a, const rb::ReplayData& b) {
    if (!(a.header() == b.header()) || a.frames() != b.frames() || a.checksums() != b.checksums())
        std::abort();
    for (rb::Frame f = 0; f < a.frames(); ++f)
        for (int s = 0; s < static_cast<int>(a.header().players.size()); ++s)
            if (!(a.input(s, f) == b.input(s, f))) std::abort();
}

void exercise(const rb::ReplayData& d) {
    if (rwd::Status v = rb::validate_header(d.header()); !v.ok()) std::abort();  // parsed means writable
    if (d.frames() <= kMaxRewrittenFrames) {
        auto w = rb::ReplayWriter::create(d.header());
        if (!w.ok()) std::abort();
        std::vector<rb::InputBits> in(d.header().players.size());
        std::size_t next = 0;
        for (rb::Frame f = 0; f < d.frames(); ++f) {
            for (std::size_t s = 0; s < in.size(); ++s) in[s] = d.input(static_cast<int>(s), f);
            if (!w->add_frame(in).ok()) std::abort();
            for (; next < d.checksums().size() && d.checksums()[next].frame == f; ++next)
                if (!w->add_checksum(f, d.checksums()[next].checksum).ok()) std::abort();
        }
        const auto again = rb::parse_replay(w->bytes());
        if (!again.ok()) std::abort();
        same_or_abort(d, again.value());
    }
    if (d.frames() > kMaxPlayedFrames) return;
    if (!rb::check_replay_game(d.header(), "arena", arena::kRulesVersion, arena::kMaxPlayers).ok()) return;
    const arena::State initial =
        arena::new_seated_match(d.header().seed, static_cast<int>(d.header().players.size()));
    auto p = rb::ReplayPlayer<arena::ArenaGame>::create(d, initial, 16);
    if (!p.ok()) return;
    (void)p->play_to_end();
    const std::uint64_t end = p->checksum();
    p->seek(d.frames() / 3);
    p->seek(d.frames());
    if (p->checksum() != end || p->frame() != d.frames()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzzing::parse_given_and_repaired(
        std::span<const std::uint8_t>(data, size),
        [](std::span<const std::uint8_t> b) { return rb::parse_replay(b); },
        [](const auto& parsed) { exercise(parsed); });
    return 0;
}
