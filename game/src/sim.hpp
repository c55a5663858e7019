// Private pieces of step(): movement, combat and projectiles, each in its own source file.
#pragma once

#include <array>
#include <cstdint>

#include "arena/hitbox.hpp"
#include "arena/input.hpp"
#include "arena/state.hpp"

namespace arena::sim {

/// Per-tick bookkeeping that step() needs but the State does not keep.
struct TickScratch {
    std::array<bool, kMaxPlayers> fired_rifle{};    ///< shot the rifle this tick
    std::array<bool, kMaxPlayers> fired_rocket{};   ///< launched a projectile this tick
    std::array<std::int8_t, kMaxPlayers> killer{};  ///< who dealt the killing blow (-1 = nobody)
};

// movement.cpp
/// Applies aim, timers, reload, dash and acceleration/friction from one input; records shots in `scratch`.
void apply_input(Player& p, const Input& in, int slot, TickScratch& scratch);
/// Moves (x, y) by (dx, dy) in sub-steps no longer than kMaxSubstep, pushing out of walls after each and
/// removing the velocity component into a wall; ends clamped to the arena.
void move_with_walls(std::int32_t& x, std::int32_t& y, std::int32_t& vx, std::int32_t& vy, std::int32_t dx,
                     std::int32_t dy);
/// Moves every living player by its velocity.
void move_players(State& s);
/// Pushes overlapping living players apart (each by at most kMaxPush per tick), through the wall collision.
void separate_players(State& s);
/// Clamps a player centre into the arena.
void clamp_to_arena(std::int32_t& x, std::int32_t& y);

// combat.cpp
/// The targets of one lag-compensated shot: every player's hitbox as the shooter saw it, and whether the
/// shooter's screen showed that player at all (rwd::RewoundTargets::seen).
struct ShotView {
    const std::array<Hitbox, kMaxPlayers>* targets = nullptr;
    const std::array<bool, kMaxPlayers>* seen = nullptr;
};
/// Resolves one rifle shot of `shooter` fired with `in`; `rewound` (or nullptr: the present) holds the
/// targets as the shooter saw them, and a player it did not see neither takes nor blocks the shot. The shot
/// leaves from in's origin when it has one within kMaxShotOffset of the shooter with no wall between (where
/// the shooter's client predicted it stood), else from the shooter.
void resolve_hitscan(State& s, int shooter, const Input& in, const ShotView* rewound, TickScratch& scratch);
/// Damages a living target and logs the hit in State::hits (flags: HitFlag, kHitKilled added here);
/// remembers the attacker whose hit took it to 0.
void apply_damage(State& s, int target, int attacker, std::int16_t damage, std::uint8_t flags,
                  TickScratch& scratch);
/// Turns players at 0 hp into dead ones: death count, kill credit, respawn timer.
void process_deaths(State& s, const TickScratch& scratch);
/// Brings a dead player back at a spawn point chosen by its own generator.
void respawn(Player& p);

// projectiles.cpp
/// Moves every live projectile, colliding with walls, the arena edge and players; ages and expires them.
void update_projectiles(State& s, TickScratch& scratch);
/// Launches a projectile from `owner`'s centre along its aim.
void spawn_projectile(State& s, int owner);

}  // namespace arena::sim
