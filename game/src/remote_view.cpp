// Replication: a player as the other clients receive it, without what only its owner's prediction needs.
#include "arena/arena_game.hpp"

namespace arena {

EntitySnapshot ArenaGame::remote_view(const EntitySnapshot& e) {
    if (e.kind != EntityKind::kPlayer) return e;
    EntitySnapshot r = e;
    // Nothing of this is drawn for another player, and the client predicts nobody else's weapons.
    r.ammo = 0;
    r.fire_cooldown = 0;
    r.alt_cooldown = 0;
    r.reload_timer = 0;
    r.dash_cooldown = 0;
    r.shots = 0;
    // The generator picks the respawn point: a client's prediction respawns a dead player where the server
    // will, so it travels while the player waits to respawn.
    const bool alive = (e.flags & (kPresent | kAlive)) == (kPresent | kAlive);
    if (alive) r.rng = {};
    return r;
}

}  // namespace arena
