/// The arena's units and tuning: every number step() uses, in fixed-point grid units and ticks.
#pragma once

#include <cstdint>
#include <string_view>

namespace arena {

/// The game's name in replay files.
inline constexpr std::string_view kGameId = "arena";
/// The rules version replay files record: bump it whenever step() computes anything differently, so that an
/// older replay is refused instead of played into a desync.
inline constexpr std::uint32_t kRulesVersion = 1;

/// Simulation rate: step() advances the world by 1/60 s. The only tick rate the arena supports: its speeds,
/// timers and cooldowns are per tick, so a session at any other rate would change the game's speed. Programs
/// running the arena refuse any other rate.
inline constexpr int kTickRate = 60;
/// Player slots 0..kMaxPlayers-1.
inline constexpr int kMaxPlayers = 64;

/// Grid units per metre: positions are int32 multiples of 1/1024 m; this is also the wire quantization grid.
inline constexpr std::int32_t kUnitsPerMeter = 1024;
/// Side of the square arena in grid units (64 m); the playable area is [0, kArenaSize] on both axes.
inline constexpr std::int32_t kArenaSize = 64 * kUnitsPerMeter;
/// Player circle radius (0.5 m).
inline constexpr std::int32_t kPlayerRadius = kUnitsPerMeter / 2;

/// Top walking speed in units per tick (102 u/tick = 5.98 m/s).
inline constexpr std::int32_t kTopSpeed = 102;
/// Velocity change per tick while steering (reaches top speed in 9 ticks, 0.15 s).
inline constexpr std::int32_t kAcceleration = 12;
/// Velocity change per tick while braking or above top speed (stops from top speed in 7 ticks).
inline constexpr std::int32_t kFriction = 16;
/// Dash speed in units per tick (256 u/tick = 15 m/s), held for kDashTicks.
inline constexpr std::int32_t kDashSpeed = 256;
/// Ticks a dash lasts.
inline constexpr std::uint16_t kDashTicks = 8;
/// Ticks between two dashes (1.5 s).
inline constexpr std::uint16_t kDashCooldown = 90;
/// No velocity component ever exceeds this (units per tick); also the wire range of velocities.
inline constexpr std::int32_t kMaxSpeed = kDashSpeed;
/// Largest displacement per collision sub-step (0.125 m): far less than a player's radius, so the
/// push-out after each sub-step always resolves to the side the player came from, even for the thinnest wall.
inline constexpr std::int32_t kMaxSubstep = 128;
/// Largest push-apart displacement per tick between overlapping players (0.125 m).
inline constexpr std::int32_t kMaxPush = 128;

/// Hit points of a fresh player.
inline constexpr std::int16_t kMaxHp = 100;
/// Ticks between death and respawn (2 s).
inline constexpr std::uint16_t kRespawnTicks = 120;

/// Rifle (hitscan, primary fire): rounds per magazine.
inline constexpr std::uint8_t kRifleMagazine = 12;
/// Rifle: ticks between two shots (10 shots/s).
inline constexpr std::uint16_t kRifleInterval = 6;
/// Rifle: damage per hit.
inline constexpr std::int16_t kRifleDamage = 20;
/// Rifle: range in units (40 m).
inline constexpr std::int32_t kRifleRange = 40 * kUnitsPerMeter;
/// Rifle: ticks a reload takes (1.5 s).
inline constexpr std::uint16_t kReloadTicks = 90;

/// Launcher (slow projectile, alt fire): speed in units per tick (205 u/tick = 12 m/s).
inline constexpr std::int32_t kRocketSpeed = 205;
/// Launcher: ticks a projectile lives (1.5 s, so 18 m of flight).
inline constexpr std::uint16_t kRocketTtl = 90;
/// Launcher: ticks between two shots (0.75 s).
inline constexpr std::uint16_t kRocketCooldown = 45;
/// Launcher: damage of a direct hit.
inline constexpr std::int16_t kRocketDamage = 40;
/// Launcher: projectile radius (0.15 m).
inline constexpr std::int32_t kRocketRadius = 154;
/// Projectile slots per player. A player's n-th projectile lives in slot n % kProjectilesPerPlayer; it has
/// always expired before that slot is reused, since kProjectilesPerPlayer shots take longer than one
/// lifetime.
inline constexpr int kProjectilesPerPlayer = 4;
static_assert(kRocketTtl < kProjectilesPerPlayer * kRocketCooldown,
              "projectile slots would be reused while live");

/// Interpolation delay a client may claim for lag compensation, in ticks (about 1 s).
inline constexpr std::uint8_t kMaxViewDelay = 63;
/// Farthest a rifle shot may leave from the shooter's own position when the round leaves (after the tick's
/// movement), towards where its client predicted it stood (1 m, a player's diameter): a client pushed by
/// players it could not predict still fires from where its screen showed it; a lying one gains at most this
/// much, never through a wall. Beyond it the shot leaves from the shooter's own position.
inline constexpr std::int32_t kMaxShotOffset = kUnitsPerMeter;

}  // namespace arena
