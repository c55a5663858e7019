// Autoplay: bot_view_of() as in apps/client/net_player.cpp, and one bot decision per client tick.
#include "autoplay.hpp"

namespace web {

using rwd::Micros;

arena::BotView bot_view_of(ArenaClient& client, Micros now) {
    arena::BotView v;
    const int slot = client.slot();
    if (slot < 0 || slot >= arena::kMaxPlayers) return v;
    v.self_slot = slot;
    v.self = client.predicted_state().players[static_cast<std::size_t>(slot)];
    for (const auto& e : client.render_entities(now)) {
        if (e.snap.kind != arena::EntityKind::kPlayer ||
            e.id >= static_cast<std::uint32_t>(arena::kMaxPlayers))
            continue;
        auto& o = v.others[e.id];
        o.visible = true;
        o.alive = (e.snap.flags & arena::kAlive) != 0;
        o.x = e.snap.x;
        o.y = e.snap.y;
    }
    return v;
}

arena::Input Autoplay::input(ArenaClient& client, Micros now) {
    if (client.phase() != rwd::client_server::ClientPhase::playing) return input_;
    if (!started_) {
        started_ = true;
        start_ = now;
    }
    const rwd::Tick t = client.tick();
    if (last_tick_ && *last_tick_ == t) return input_;
    last_tick_ = t;
    input_ = bot_.think(bot_view_of(client, now));
    return input_;
}

}  // namespace web
