// Launcher projectiles: spawning into the owner's slot ring, sub-stepped flight, wall/edge/player hits,
// expiry.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "arena/constants.hpp"
#include "arena/fixed_math.hpp"
#include "arena/map.hpp"
#include "sim.hpp"

namespace arena::sim {
namespace {

/// A player a projectile may hit this tick: alive, where it stands (nothing moves a player while projectiles
/// fly, and nobody dies or revives before process_deaths).
struct Target {
    std::int32_t x, y;
    int slot;
};

/// The alive players in slot order, the first `count` of `all` (the rest is never read, so never cleared).
struct Targets {
    std::array<Target, kMaxPlayers> all;
    int count = 0;
};

/// Those of `alive` but `owner` whose centre lies within reach of the segment (x0, y0)-(x1, y1)'s bounding
/// box, in slot order: no other can be within reach of a point on the segment.
int near_path(const Targets& alive, int owner, std::int64_t x0, std::int64_t y0, std::int64_t x1,
              std::int64_t y1, std::array<Target, kMaxPlayers>& out) {
    constexpr std::int64_t kReach = std::int64_t{kPlayerRadius} + kRocketRadius;
    const std::int64_t lx = std::min(x0, x1) - kReach, hx = std::max(x0, x1) + kReach;
    const std::int64_t ly = std::min(y0, y1) - kReach, hy = std::max(y0, y1) + kReach;
    int n = 0;
    for (int i = 0; i < alive.count; ++i) {
        const Target& t = alive.all[static_cast<std::size_t>(i)];
        if (t.slot == owner || t.x < lx || t.x > hx || t.y < ly || t.y > hy) continue;
        out[static_cast<std::size_t>(n++)] = t;
    }
    return n;
}

// True if the projectile at its current position hits something; deals damage for a player hit. `near`:
// the players it can reach on this tick's path, in slot order.
bool collides(State& s, int owner, const Projectile& pr, std::span<const Target> near, TickScratch& scratch) {
    if (pr.x < 0 || pr.x > kArenaSize || pr.y < 0 || pr.y > kArenaSize) return true;  // left the arena
    if (circle_hits_wall(pr.x, pr.y, kRocketRadius)) return true;
    constexpr std::int64_t kReach = std::int64_t{kPlayerRadius} + kRocketRadius;
    for (const Target& t : near) {
        const std::int64_t dx = std::int64_t{t.x} - pr.x;
        const std::int64_t dy = std::int64_t{t.y} - pr.y;
        if (dx * dx + dy * dy < kReach * kReach) {
            apply_damage(s, t.slot, owner, kRocketDamage, kHitLauncher, scratch);
            return true;
        }
    }
    return false;
}

}  // namespace

void update_projectiles(State& s, TickScratch& scratch) {
    Targets alive;
    for (int i = 0; i < kMaxPlayers; ++i)
        if (s.players[i].alive())
            alive.all[static_cast<std::size_t>(alive.count++)] = Target{s.players[i].x, s.players[i].y, i};
    std::array<Target, kMaxPlayers> near;  // filled by near_path() before each read
    for (int owner = 0; owner < kMaxPlayers; ++owner) {
        for (Projectile& pr : s.projectiles[owner]) {
            if (!pr.active()) continue;
            const std::int64_t ax = pr.vx < 0 ? -std::int64_t{pr.vx} : pr.vx;
            const std::int64_t ay = pr.vy < 0 ? -std::int64_t{pr.vy} : pr.vy;
            const std::int64_t longest = ax > ay ? ax : ay;
            const std::int64_t n = longest == 0 ? 1 : (longest + kMaxSubstep - 1) / kMaxSubstep;
            bool hit = false;
            const std::int32_t x0 = pr.x;
            const std::int32_t y0 = pr.y;
            const int reachable =
                near_path(alive, owner, x0, y0, std::int64_t{x0} + pr.vx, std::int64_t{y0} + pr.vy, near);
            const std::span<const Target> in_reach(near.data(), static_cast<std::size_t>(reachable));
            for (std::int64_t k = 1; k <= n && !hit; ++k) {
                pr.x = static_cast<std::int32_t>(x0 + std::int64_t{pr.vx} * k / n);
                pr.y = static_cast<std::int32_t>(y0 + std::int64_t{pr.vy} * k / n);
                hit = collides(s, owner, pr, in_reach, scratch);
            }
            pr.ttl = static_cast<std::uint16_t>(pr.ttl - 1);
            if (hit)
                pr = Projectile{};
            else if (pr.ttl == 0)
                pr = Projectile{};  // expired: the slot is free again
        }
    }
}

void spawn_projectile(State& s, int owner) {
    Player& p = s.players[owner];
    const std::uint16_t serial = p.shots;
    p.shots = static_cast<std::uint16_t>(p.shots + 1);
    Projectile& pr = s.projectiles[owner][serial % kProjectilesPerPlayer];
    pr.x = p.x;
    pr.y = p.y;
    pr.vx = static_cast<std::int32_t>(std::int64_t{cos_q14(p.aim)} * kRocketSpeed / kTrigOne);
    pr.vy = static_cast<std::int32_t>(std::int64_t{sin_q14(p.aim)} * kRocketSpeed / kTrigOne);
    pr.ttl = kRocketTtl;
    pr.serial = serial;
}

}  // namespace arena::sim
