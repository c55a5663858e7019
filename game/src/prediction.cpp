// Replication: an entity advanced by ticks with no input, the reference snapshots are delta-coded against.
#include <cstdint>

#include "arena/arena_game.hpp"

namespace arena {
namespace {

std::int32_t advance(std::int32_t x, std::int32_t v, std::int32_t ticks, std::int32_t lo, std::int32_t hi) {
    const std::int64_t p = std::int64_t{x} + std::int64_t{v} * ticks;
    return static_cast<std::int32_t>(p < lo ? lo : (p > hi ? hi : p));
}

std::uint16_t count_down(std::uint16_t t, std::int32_t ticks) {
    return t > ticks ? static_cast<std::uint16_t>(t - ticks) : std::uint16_t{0};
}

}  // namespace

EntitySnapshot ArenaGame::predict_entity(const EntitySnapshot& e, std::int32_t ticks) {
    if (ticks <= 0) return e;
    EntitySnapshot p = e;
    if (e.kind == EntityKind::kProjectile) {
        // Straight flight until it hits something or its time runs out (then it leaves the list).
        p.x = advance(e.x, e.vx, ticks, 0, kArenaSize);
        p.y = advance(e.y, e.vy, ticks, 0, kArenaSize);
        p.ttl = count_down(e.ttl, ticks);
        return p;
    }
    const bool alive = (e.flags & (kPresent | kAlive)) == (kPresent | kAlive);
    if (!alive) {
        p.respawn_timer = count_down(e.respawn_timer, ticks);  // where it respawns is the residual
        return p;
    }
    // Running on at its velocity, every timer counting down as step() counts it.
    p.x = advance(e.x, e.vx, ticks, kPlayerRadius, kArenaSize - kPlayerRadius);
    p.y = advance(e.y, e.vy, ticks, kPlayerRadius, kArenaSize - kPlayerRadius);
    p.fire_cooldown = count_down(e.fire_cooldown, ticks);
    p.alt_cooldown = count_down(e.alt_cooldown, ticks);
    p.dash_cooldown = count_down(e.dash_cooldown, ticks);
    p.dash_timer = count_down(e.dash_timer, ticks);
    if (e.reload_timer > 0) {
        p.reload_timer = count_down(e.reload_timer, ticks);
        if (p.reload_timer == 0) p.ammo = kRifleMagazine;
    }
    return p;
}

}  // namespace arena
