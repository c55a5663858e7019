// Combat: rifle hitscan (optionally against lag-compensated targets), damage, death, kill credit, respawn.
#include <array>
#include <cstdint>

#include "arena/constants.hpp"
#include "arena/fixed_math.hpp"
#include "arena/map.hpp"
#include "sim.hpp"

namespace arena::sim {

namespace {

// Where a rifle shot of `p` fired with `in` leaves from (see resolve_hitscan).
Point shot_origin(const Player& p, const Input& in) {
    const Point own{p.x, p.y};
    if (!in.has_origin) return own;
    const Point claimed{in.origin_x, in.origin_y};
    const std::int64_t dx = std::int64_t{claimed.x} - own.x;
    const std::int64_t dy = std::int64_t{claimed.y} - own.y;
    constexpr std::int64_t kMax = kMaxShotOffset;
    if (dx * dx + dy * dy > kMax * kMax) return own;  // too far from the shooter: a lie or a lost client
    if (!line_of_sight(own, claimed)) return own;     // never through a wall
    return claimed;
}

}  // namespace

void resolve_hitscan(State& s, int shooter, const Input& in, const ShotView* rewound, TickScratch& scratch) {
    const Player& p = s.players[shooter];
    const Point from = shot_origin(p, in);
    Ray ray{from.x, from.y, cos_q14(p.aim), sin_q14(p.aim), kRifleRange};
    ray.length = ray_walls(ray);  // the shot stops at the first wall
    int hit = -1;
    std::int32_t best = 0;
    for (int t = 0; t < kMaxPlayers; ++t) {
        if (t == shooter || !s.players[t].alive()) continue;
        std::int32_t tx = s.players[t].x;
        std::int32_t ty = s.players[t].y;
        std::int32_t tr = kPlayerRadius;
        if (rewound != nullptr) {
            // Lag compensation: test the target where the shooter saw it, if it saw it at all.
            if (rewound->seen != nullptr && !(*rewound->seen)[static_cast<std::size_t>(t)]) continue;
            const Hitbox& hb = (*rewound->targets)[static_cast<std::size_t>(t)];
            if (!hb.alive) continue;
            tx = hb.x;
            ty = hb.y;
            tr = hb.r < 0 ? 0 : (hb.r > 4 * kPlayerRadius ? 4 * kPlayerRadius : hb.r);
        }
        const auto entry = ray_circle(ray, tx, ty, tr);
        if (entry && (hit < 0 || *entry < best)) {
            hit = t;
            best = *entry;
        }
    }
    if (hit >= 0) apply_damage(s, hit, shooter, kRifleDamage, 0, scratch);
}

void apply_damage(State& s, int target, int attacker, std::int16_t damage, std::uint8_t flags,
                  TickScratch& scratch) {
    Player& t = s.players[target];
    if (!t.alive() || t.hp <= 0) return;  // already dead, or already dealt a killing blow this tick
    const std::int16_t dealt = t.hp > damage ? damage : t.hp;
    t.hp = static_cast<std::int16_t>(t.hp - dealt);
    if (t.hp == 0) {
        scratch.killer[target] = static_cast<std::int8_t>(attacker);
        flags = static_cast<std::uint8_t>(flags | kHitKilled);
    }
    // At most one rifle hit per shooter and one per projectile: the log cannot overflow (kMaxHitsPerTick).
    if (s.hit_count < kMaxHitsPerTick) {
        s.hits[s.hit_count++] =
            HitRecord{static_cast<std::uint8_t>(attacker), static_cast<std::uint8_t>(target),
                      static_cast<std::uint8_t>(dealt), flags};
    }
}

void process_deaths(State& s, const TickScratch& scratch) {
    for (int i = 0; i < kMaxPlayers; ++i) {
        Player& p = s.players[i];
        if (!p.alive() || p.hp > 0) continue;
        p.flags = static_cast<std::uint8_t>(p.flags & ~kAlive);
        p.hp = 0;
        p.vx = 0;
        p.vy = 0;
        p.reload_timer = 0;
        p.dash_timer = 0;
        p.respawn_timer = kRespawnTicks;
        ++p.deaths;
        const int k = scratch.killer[i];
        if (k >= 0 && k < kMaxPlayers && k != i && s.players[k].present()) ++s.players[k].score;
    }
}

void respawn(Player& p) {
    const auto spawns = spawn_points();
    const Point at = spawns[p.rng.uniform(static_cast<std::uint32_t>(spawns.size()))];
    p.x = at.x;
    p.y = at.y;
    p.vx = 0;
    p.vy = 0;
    p.hp = kMaxHp;
    p.ammo = kRifleMagazine;
    p.fire_cooldown = 0;
    p.alt_cooldown = 0;
    p.reload_timer = 0;
    p.dash_timer = 0;
    p.dash_cooldown = 0;
    p.respawn_timer = 0;
    p.flags = static_cast<std::uint8_t>(p.flags | kPresent | kAlive);
}

}  // namespace arena::sim
