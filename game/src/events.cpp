// collect_messages: the hits, deaths and score changes of one step, read from the two states and the hit log.
#include <cstdint>

#include "arena/arena_game.hpp"

namespace arena {

void ArenaGame::collect_messages(const State& before, const State& after,
                                 rwd::client_server::MessageOutbox<ArenaGame>& out) {
    const std::size_t hits = after.hit_count < after.hits.size() ? after.hit_count : after.hits.size();
    for (std::size_t i = 0; i < hits; ++i) {
        const HitRecord& h = after.hits[i];
        // A hit is drawn where it happens: only the two players and those who can see one of them get it.
        out.nearby(h.shooter, h.target, HitMessage{h.shooter, h.target, h.damage});
    }
    for (int v = 0; v < kMaxPlayers; ++v) {
        const Player& was = before.players[v];
        const Player& now = after.players[v];
        if (!was.alive() || now.alive() || !now.present() || now.deaths == was.deaths) continue;
        // The killing blow is in the log (the last hit on this victim flagged kHitKilled).
        int killer = v;
        Weapon weapon = Weapon::rifle;
        for (std::size_t i = 0; i < hits; ++i) {
            const HitRecord& h = after.hits[i];
            if (h.target == v && (h.flags & kHitKilled) != 0) {
                killer = h.shooter;
                weapon = (h.flags & kHitLauncher) != 0 ? Weapon::launcher : Weapon::rifle;
            }
        }
        out.broadcast(DeathMessage{static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(killer), weapon});
    }
    for (int p = 0; p < kMaxPlayers; ++p) {
        const Player& now = after.players[p];
        if (now.present() && now.score != before.players[p].score)
            out.broadcast(ScoreMessage{static_cast<std::uint8_t>(p), now.score});
    }
}

}  // namespace arena
