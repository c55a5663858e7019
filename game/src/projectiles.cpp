// Launcher projectiles: spawning into the owner's slot ring, sub-stepped flight, wall/edge/player hits,
// expiry.
#include <cstdint>

#include "arena/constants.hpp"
#include "arena/fixed_math.hpp"
#include "arena/map.hpp"
#include "sim.hpp"

namespace arena::sim {
namespace {

// True if the projectile at its current position hits something; deals damage for a player hit.
bool collides(State& s, int owner, const Projectile& pr, TickScratch& scratch) {
    if (pr.x < 0 || pr.x > kArenaSize || pr.y < 0 || pr.y > kArenaSize) return true;  // left the arena
    if (circle_hits_wall(pr.x, pr.y, kRocketRadius)) return true;
    constexpr std::int64_t kReach = std::int64_t{kPlayerRadius} + kRocketRadius;
    for (int t = 0; t < kMaxPlayers; ++t) {
        if (t == owner || !s.players[t].alive()) continue;
        const std::int64_t dx = std::int64_t{s.players[t].x} - pr.x;
        const std::int64_t dy = std::int64_t{s.players[t].y} - pr.y;
        if (dx * dx + dy * dy < kReach * kReach) {
            apply_damage(s, t, owner, kRocketDamage, kHitLauncher, scratch);
            return true;
        }
    }
    return false;
}

}  // namespace

void update_projectiles(State& s, TickScratch& scratch) {
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
            for (std::int64_t k = 1; k <= n && !hit; ++k) {
                pr.x = static_cast<std::int32_t>(x0 + std::int64_t{pr.vx} * k / n);
                pr.y = static_cast<std::int32_t>(y0 + std::int64_t{pr.vy} * k / n);
                hit = collides(s, owner, pr, scratch);
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
