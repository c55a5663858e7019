/// libFuzzer target: the decoders that read arena types off the network (client-server input packets, full
/// snapshots, a desync report's serialized State, rollback input bits); what decodes must re-encode
/// identically.
#include <arena/arena_game.hpp>

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>
#include <rewind/session/rollback/game_traits.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

using arena::ArenaGame;
namespace cs = rwd::client_server;
namespace rb = rwd::rollback;

/// Decodes `data` as Msg; whatever decodes must encode to the very same bytes (one encoding per value).
template <class Msg>
void round_trip(std::span<const std::uint8_t> data, Msg& m) {
    if (!cs::decode_message(data, m).ok()) return;
    std::vector<std::uint8_t> again;
    if (!cs::encode_message(m, again).ok()) std::abort();
    if (again.size() != data.size() || !std::equal(again.begin(), again.end(), data.begin())) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    {
        // What the server reads from every client, many times a second.
        cs::InputPacket<arena::Input> p;
        round_trip(bytes, p);
        if (cs::decode_message(bytes, p).ok()) {
            for (int i = 0; i < p.count; ++i) {
                std::uint32_t violations = 0;
                const arena::Input clean =
                    ArenaGame::sanitize(p.inputs[static_cast<std::size_t>(i)], violations);
                // Everything the wire can carry is already in range: sanitize has nothing to change.
                if (violations != 0 || !(clean == p.inputs[static_cast<std::size_t>(i)])) std::abort();
            }
        }
    }
    {
        // A snapshot against the empty baseline (the client holds no other list here: a baseline age fails).
        // With the arena's trained table, as its clients decode (a range-coded list may use it).
        static cs::RangeSectionScratch range = [] {
            cs::RangeSectionScratch r;
            r.model = &ArenaGame::snapshot_model();
            return r;
        }();
        cs::SnapshotPacket<ArenaGame::EntityRecord> s;
        const auto none = [](std::uint16_t) -> const std::vector<ArenaGame::EntityRecord>* {
            return nullptr;
        };
        if (cs::decode_snapshot(bytes, s, none, cs::NoPrediction{}, &range).ok()) {
            arena::State st = arena::new_match(1);
            ArenaGame::restore(st, s.entities);  // untrusted entities: restore clamps, must not misbehave
            (void)ArenaGame::checksum(st);
        }
    }
    {
        // A peer's State in a desync report; restored states must serialize back to the same bytes.
        arena::State st{};
        if (rb::state_from_bytes<ArenaGame>(bytes, st)) {
            bool serialized = false;
            const auto again = rb::state_to_bytes<ArenaGame>(st, serialized);
            if (!serialized || again.size() > size + 8) std::abort();
        }
    }
    if (size <= rb::kMaxInputBytes) {
        // One rollback input as carried in an input stream.
        rb::InputBits b;
        b.size = static_cast<std::uint8_t>(size);
        std::copy(bytes.begin(), bytes.end(), b.bytes.begin());
        arena::Input in;
        if (rb::bits_to_input<ArenaGame>(b, in)) {
            std::uint32_t violations = 0;
            (void)ArenaGame::sanitize(in, violations);
            if (violations != 0) std::abort();
        }
    }
    return 0;
}
