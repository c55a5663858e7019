// bot_view_of: a bot's view built from what its client predicts and renders (programs, the browser, tests).
#include <arena/bot_view.hpp>

namespace arena {

BotView bot_view_of(rwd::client_server::Client<ArenaGame>& client, rwd::Micros now) {
    BotView v;
    const int slot = client.slot();
    if (slot < 0 || slot >= kMaxPlayers) return v;
    v.self_slot = slot;
    v.self = client.predicted_state().players[static_cast<std::size_t>(slot)];
    for (const auto& e : client.render_entities(now)) {
        if (e.snap.kind != EntityKind::kPlayer || e.id >= static_cast<std::uint32_t>(kMaxPlayers)) continue;
        auto& o = v.others[e.id];
        o.visible = true;
        o.alive = (e.snap.flags & kAlive) != 0;
        o.x = e.snap.x;
        o.y = e.snap.y;
    }
    return v;
}

}  // namespace arena
