// Helpers shared by the arena unit tests: staged states, stepping with fixed inputs, wall lookups.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "arena/arena_game.hpp"
#include "arena/fixed_math.hpp"
#include "arena/map.hpp"

namespace arena::test {

using Inputs = std::array<Input, kMaxPlayers>;

/// Metres to grid units.
constexpr std::int32_t meters(double m) { return static_cast<std::int32_t>(m * kUnitsPerMeter); }

/// A match with players seated in `slots`, each placed at the given point, standing still, aiming east.
inline State staged(std::initializer_list<std::pair<int, Point>> seats, std::uint64_t seed = 7) {
    State s = new_match(seed);
    for (const auto& [slot, at] : seats) {
        ArenaGame::add_player(s, slot);
        s.players[slot].x = at.x;
        s.players[slot].y = at.y;
    }
    return s;
}

/// Steps `s` once with `in` for every slot in `inputs` (others neutral).
inline void step(State& s, const Inputs& inputs, const rwd::RewoundTargets<ArenaGame>* rewound = nullptr) {
    ArenaGame::step(s, inputs, rewound);
}

/// Inputs with one slot set.
inline Inputs only(int slot, Input in) {
    Inputs a{};
    a[slot] = in;
    return a;
}

/// The first wall whose thickness on one axis is the thinnest wall's.
inline Box thin_wall(bool vertical) {
    for (const Box& b : walls()) {
        const bool v = b.max_x - b.min_x == kThinWallThickness;
        const bool h = b.max_y - b.min_y == kThinWallThickness;
        if ((vertical && v) || (!vertical && h)) return b;
    }
    return Box{};
}

/// Squared distance from (x, y) to the nearest point of box b.
inline std::int64_t dist2_to_box(std::int32_t x, std::int32_t y, const Box& b) {
    const std::int64_t cx = x < b.min_x ? b.min_x : (x > b.max_x ? b.max_x : x);
    const std::int64_t cy = y < b.min_y ? b.min_y : (y > b.max_y ? b.max_y : y);
    return (x - cx) * (x - cx) + (y - cy) * (y - cy);
}

/// Speed of a player in units per tick (rounded down).
inline std::int64_t speed_of(const Player& p) { return length_of(p.vx, p.vy); }

}  // namespace arena::test
