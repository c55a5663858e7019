/// HeapDotsGame: a client-server game whose world lives on the heap (a std::vector of dots that grows and
/// shrinks with the seats), neither trivially copyable nor comparable, to check that the sessions need only
/// a copyable State.
#pragma once

#include "dots_game.hpp"

#include <rewind/session/game.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace heap_dots {

/// Dots that move by their players' inputs, one per seated player, kept sorted by slot.
struct HeapDotsGame {
    static constexpr int kMaxPlayers = 8;
    struct Dot {
        std::int32_t slot = 0, x = 0, y = 0;
    };
    struct State {
        std::vector<Dot> dots;  // sorted by slot
    };
    // The input and the replicated entity are the flat game's (dots_game.hpp): only the world differs.
    using Input = dots::DotsGame::Input;
    using EntitySnapshot = dots::DotsGame::EntitySnapshot;
    using EntityRecord = dots::DotsGame::EntityRecord;
    /// A rollback save (every game that is not trivially copyable gives one; the client-server sessions copy
    /// the State itself).
    using SavedState = std::vector<Dot>;
    static void save_state(const State& s, SavedState& out) { out = s.dots; }
    static void load_state(const SavedState& in, State& s) { s.dots = in; }

    static void step(State& s, std::span<const Input> in) {
        for (Dot& d : s.dots) {
            d.x += in[static_cast<std::size_t>(d.slot)].dx;
            d.y += in[static_cast<std::size_t>(d.slot)].dy;
        }
    }
    static std::uint64_t checksum(const State& s) {
        std::uint64_t h = 1469598103934665603ull;
        for (const Dot& d : s.dots)
            for (std::int64_t v : {std::int64_t{d.slot}, std::int64_t{d.x}, std::int64_t{d.y}})
                h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
        return h;
    }
    static void add_player(State& s, int slot) {
        remove_player(s, slot);
        const auto at =
            std::find_if(s.dots.begin(), s.dots.end(), [&](const Dot& d) { return d.slot > slot; });
        s.dots.insert(at, Dot{slot, 0, 0});
    }
    static void remove_player(State& s, int slot) {
        std::erase_if(s.dots, [&](const Dot& d) { return d.slot == slot; });
    }
    static std::uint32_t player_entity(int slot) { return static_cast<std::uint32_t>(slot); }
    static void capture(const State& s, std::vector<EntityRecord>& out) {
        out.clear();
        for (const Dot& d : s.dots)
            out.push_back(EntityRecord{static_cast<std::uint32_t>(d.slot), {d.x, d.y}});
    }
    static void restore(State& s, std::span<const EntityRecord> records) {
        s.dots.clear();
        for (const EntityRecord& r : records)
            if (r.id < kMaxPlayers)
                s.dots.push_back(Dot{static_cast<std::int32_t>(r.id), r.snap.x, r.snap.y});
        std::sort(s.dots.begin(), s.dots.end(), [](const Dot& a, const Dot& b) { return a.slot < b.slot; });
    }
};

static_assert(!std::is_trivially_copyable_v<HeapDotsGame::State>, "the point of this game");

}  // namespace heap_dots
