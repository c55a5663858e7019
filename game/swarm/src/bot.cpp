// Swarm's bots: wander to random points, throw at the nearest other player, all from a seeded generator.
#include "swarm/swarm_game.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace swarm {
namespace {

// The input step toward `to` from `from`: 0 when there, larger (up to 7) the farther it is.
std::int8_t toward(std::int32_t from, std::int32_t to) {
    const std::int32_t d = to - from;
    if (std::abs(d) < 24) return 0;
    const std::int32_t step = std::clamp(d / 64, -7, 7);
    return static_cast<std::int8_t>(step != 0 ? step : (d > 0 ? 1 : -1));
}

}  // namespace

Bot::Bot(std::uint64_t seed) : rng_(seed, 0x5377) {}

Input Bot::think(const State& s, int slot) {
    const auto me =
        std::find_if(s.players.begin(), s.players.end(), [&](const Player& p) { return p.slot == slot; });
    if (me == s.players.end()) return Input{};
    if (--retarget_in_ <= 0 || (std::abs(me->x - goal_x_) < 48 && std::abs(me->y - goal_y_) < 48)) {
        goal_x_ = rng_.range(0, kField);
        goal_y_ = rng_.range(0, kField);
        retarget_in_ = rng_.range(30, 120);
    }
    Input in{toward(me->x, goal_x_), toward(me->y, goal_y_), 0, 0};
    const Player* nearest = nullptr;
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    for (const Player& p : s.players) {
        if (p.slot == slot) continue;
        const std::int64_t dx = p.x - me->x, dy = p.y - me->y, d = dx * dx + dy * dy;
        if (d < best) best = d, nearest = &p;
    }
    if (nearest != nullptr && me->cooldown == 0 && rng_.chance(1, 3)) {
        in.aim = aim_toward(nearest->x - me->x, nearest->y - me->y);
        in.throws = 1;
    }
    return in;
}

}  // namespace swarm
