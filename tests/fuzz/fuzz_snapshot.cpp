/// libFuzzer target: the entity-list delta decoder (arena entities) against three baselines (chosen by the
/// first byte); a rejected list changes nothing and is counted, an accepted one is well-formed and survives a
/// re-encode.
#include <rewind/sync/entity_delta.hpp>

#include "arena/arena_game.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

using arena::ArenaGame;
using Rec = ArenaGame::EntityRecord;

/// Baselines: empty, 8 players after a few seconds (with projectiles), 64 players.
const std::vector<std::vector<Rec>>& baselines() {
    static const std::vector<std::vector<Rec>> b = [] {
        std::vector<std::vector<Rec>> out(3);
        for (int v = 1; v <= 2; ++v) {
            ArenaGame::State s = arena::new_match(99);
            const int players = v == 1 ? 8 : 64;
            for (int i = 0; i < players; ++i) ArenaGame::add_player(s, i);
            std::array<arena::Input, arena::kMaxPlayers> in{};
            for (int t = 0; t < 200; ++t) {
                for (int i = 0; i < players; ++i) {
                    in[static_cast<std::size_t>(i)].move_x =
                        static_cast<std::int8_t>((t * (i + 3)) % 255 - 127);
                    in[static_cast<std::size_t>(i)].buttons = static_cast<std::uint8_t>(t % 7 == 0 ? 2 : 0);
                }
                ArenaGame::step(s, in, nullptr);
            }
            ArenaGame::capture(s, out[static_cast<std::size_t>(v)]);
        }
        return out;
    }();
    return b;
}

bool same_records(const std::vector<Rec>& a, const std::vector<Rec>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].id != b[i].id || !(a[i].snap == b[i].snap)) return false;
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const auto& base = baselines()[data[0] % 3];
    const std::span<const std::uint8_t> bytes(data + 1, size - 1);
    const std::vector<Rec> sentinel{Rec{12345, {}}};
    std::vector<Rec> view = sentinel;
    std::vector<std::uint32_t> stale{7};
    rwd::sync::EntityDeltaStats stats;
    const auto st = rwd::sync::decode_entity_delta(bytes, std::span<const Rec>(base), view, stale, stats);
    if (!st.ok()) {
        // The client keeps its last good state: nothing was touched, and the rejection was counted.
        if (!same_records(view, sentinel) || stale != std::vector<std::uint32_t>{7} || stats.rejected != 1)
            std::abort();
        return 0;
    }
    for (std::size_t i = 1; i < view.size(); ++i)
        if (view[i - 1].id >= view[i].id) std::abort();
    if (view.size() > rwd::sync::kDefaultMaxEntities) std::abort();
    std::vector<std::uint8_t> again;
    if (!rwd::sync::encode_entity_delta(std::span<const Rec>(base), view, stale, again).ok()) std::abort();
    std::vector<Rec> view2;
    std::vector<std::uint32_t> stale2;
    if (!rwd::sync::decode_entity_delta(std::span<const std::uint8_t>(again), std::span<const Rec>(base),
                                        view2, stale2, stats)
             .ok())
        std::abort();
    if (!same_records(view, view2) || stale != stale2) std::abort();
    return 0;
}
