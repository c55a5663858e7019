/// The whole simulated world: flat, trivially copyable, padding-free, so a rollback save is one copy.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include <rewind/core/rng.hpp>

#include "arena/constants.hpp"

namespace arena {

/// Bits of Player::flags.
enum PlayerFlag : std::uint8_t {
    kPresent = 1u << 0u,  ///< a client holds this seat
    kAlive = 1u << 1u,    ///< on the field (not waiting to respawn)
};
/// Every defined PlayerFlag bit.
inline constexpr std::uint8_t kAllPlayerFlags = kPresent | kAlive;

/// One player seat. All quantities are integers on the grid (positions, units/tick) or tick counters.
struct Player {
    rwd::Rng rng{0};                  ///< this player's own generator (respawn points), seeded by add_player
    std::int32_t x = 0;               ///< centre, grid units
    std::int32_t y = 0;               ///< centre, grid units
    std::int32_t vx = 0;              ///< velocity, units per tick
    std::int32_t vy = 0;              ///< velocity, units per tick
    std::int32_t score = 0;           ///< kills
    std::int32_t deaths = 0;          ///< times killed
    std::uint16_t aim = 0;            ///< facing, 65536 = full turn
    std::int16_t hp = 0;              ///< hit points, 0 when dead
    std::uint16_t fire_cooldown = 0;  ///< ticks until the rifle may fire again
    std::uint16_t alt_cooldown = 0;   ///< ticks until the launcher may fire again
    std::uint16_t reload_timer = 0;   ///< ticks left in the current reload (0 = not reloading)
    std::uint16_t dash_timer = 0;     ///< ticks left in the current dash
    std::uint16_t dash_cooldown = 0;  ///< ticks until the next dash is allowed
    std::uint16_t respawn_timer = 0;  ///< ticks until respawn while dead
    std::uint16_t shots = 0;          ///< projectiles fired so far (wraps); names the next projectile
    std::uint8_t ammo = 0;            ///< rifle rounds in the magazine
    std::uint8_t flags = 0;           ///< PlayerFlag bits
    std::uint32_t reserved = 0;       ///< always 0: makes the layout padding-free

    /// True if the seat is taken.
    [[nodiscard]] constexpr bool present() const { return (flags & kPresent) != 0; }
    /// True if the seat is taken and the player is on the field.
    [[nodiscard]] constexpr bool alive() const {
        return (flags & (kPresent | kAlive)) == (kPresent | kAlive);
    }
};

/// One launcher projectile; slot [owner][serial % kProjectilesPerPlayer] in State::projectiles.
struct Projectile {
    std::int32_t x = 0;        ///< centre, grid units
    std::int32_t y = 0;        ///< centre, grid units
    std::int32_t vx = 0;       ///< units per tick
    std::int32_t vy = 0;       ///< units per tick
    std::uint16_t ttl = 0;     ///< ticks left to live; 0 = this slot is free
    std::uint16_t serial = 0;  ///< the owner's Player::shots value when it was fired

    /// True if the slot holds a live projectile.
    [[nodiscard]] constexpr bool active() const { return ttl != 0; }
};

/// How a HitRecord's damage was dealt (HitRecord::flags bits).
enum HitFlag : std::uint8_t {
    kHitLauncher = 1u << 0u,  ///< by a launcher projectile (else the rifle)
    kHitKilled = 1u << 1u,    ///< this hit took the target to 0 hp: the killing blow
};

/// One damaging hit during the last step(), in the order step() applied them (rifle shots in shooter slot
/// order, then projectiles by owner and slot). Lets the server report hits and kills exactly.
struct HitRecord {
    std::uint8_t shooter = 0;  ///< slot that dealt it
    std::uint8_t target = 0;   ///< slot that took it
    std::uint8_t damage = 0;   ///< hit points actually removed (at most kMaxHp)
    std::uint8_t flags = 0;    ///< HitFlag bits
};

/// Most hits one step() can log: one rifle hit per shooter, one per projectile.
inline constexpr int kMaxHitsPerTick = kMaxPlayers * (1 + kProjectilesPerPlayer);

/// The whole match.
struct State {
    std::array<Player, kMaxPlayers> players{};  ///< indexed by slot
    /// Projectiles, [owner slot][serial % kProjectilesPerPlayer].
    std::array<std::array<Projectile, kProjectilesPerPlayer>, kMaxPlayers> projectiles{};
    rwd::Rng match_rng{0};        ///< seeds each joining player's generator
    std::uint32_t tick = 0;       ///< steps taken since the match began
    std::uint16_t hit_count = 0;  ///< hits logged in `hits` by the last step()
    std::uint16_t reserved = 0;   ///< always 0: makes the layout padding-free
    /// The last step()'s damaging hits, [0, hit_count) in order; the rest is zero.
    std::array<HitRecord, kMaxHitsPerTick> hits{};
};

static_assert(std::is_trivially_copyable_v<State>, "State must be a flat copy");
static_assert(std::has_unique_object_representations_v<Player>, "Player must have no padding");
static_assert(std::has_unique_object_representations_v<Projectile>, "Projectile must have no padding");
static_assert(std::has_unique_object_representations_v<HitRecord>, "HitRecord must have no padding");
static_assert(kMaxHitsPerTick <= 0xFFFF, "hit_count must hold every hit");
static_assert(std::has_unique_object_representations_v<State>, "State must have no padding");

/// A fresh match with no players, its generator seeded with `seed`.
State new_match(std::uint64_t seed);

}  // namespace arena
