/// libFuzzer target: the world recording parser on arbitrary bytes (once as given, once with its file
/// checksum repaired so that mutations reach the records); whatever parses is rebuilt tick by tick, written
/// again and must parse to the same worlds and messages, and plays in the arena's WorldPlayer (steps and
/// seeks).
#include "file_fuzzing.hpp"

#include <arena/arena_game.hpp>

#include <rewind/session/client_server/world_player.hpp>
#include <rewind/session/client_server/world_recording.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <span>
#include <vector>

namespace cs = rwd::client_server;

namespace {

using World = std::map<std::uint32_t, std::vector<std::uint8_t>>;

/// Every tick's whole world, applying the records as a player does.
std::vector<World> rebuild(const cs::WorldRecordingData& d) {
    std::vector<World> out;
    World w;
    for (const auto& t : d.ticks()) {
        if (t.keyframe) w.clear();
        for (const auto& e : d.entries(t)) {
            if (e.removed) {
                w.erase(e.id);
            } else {
                const auto b = d.bytes(e);
                w[e.id].assign(b.begin(), b.end());
            }
        }
        out.push_back(w);
    }
    return out;
}

void exercise(const cs::WorldRecordingData& d) {
    const std::vector<World> worlds = rebuild(d);
    for (const World& w : worlds)
        if (w.size() > 65535) return;  // a world the writer cannot put in one keyframe (the parser allows it)
    auto w = cs::WorldWriter::create(d.header(), 7);
    if (!w.ok()) std::abort();  // a parsed header is a writable one
    for (std::size_t i = 0; i < worlds.size(); ++i) {
        std::vector<cs::WorldEntityBytes> list;
        for (const auto& [id, bytes] : worlds[i]) list.push_back(cs::WorldEntityBytes{id, bytes});
        if (!w->add_tick(d.ticks()[i].tick, list).ok()) std::abort();
    }
    for (const auto& m : d.messages())
        if (!w->add_message(m.tick, m.message).ok()) std::abort();
    const auto again = cs::parse_world_recording(w->bytes());
    if (!again.ok() || rebuild(again.value()) != worlds || again->messages() != d.messages()) std::abort();
    if (d.header().game_id != arena::kGameId) return;
    auto player = cs::WorldPlayer<arena::ArenaGame>::create(d);
    if (!player.ok()) return;
    const cs::WorldVerdict v = cs::verify_world(player.value(), 4, d.ticks().size());
    if (v.seek_mismatches != 0) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzzing::parse_given_and_repaired(
        std::span<const std::uint8_t>(data, size),
        [](std::span<const std::uint8_t> b) { return cs::parse_world_recording(b); },
        [](const auto& parsed) { exercise(parsed); });
    return 0;
}
