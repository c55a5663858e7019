// NetPlayer: transport stack, session and bot wiring for one arena client.
#include "client/net_player.hpp"

namespace apps {

using rwd::Micros;
namespace cs = rwd::client_server;
namespace tr = rwd::transport;

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

rwd::Result<std::unique_ptr<NetPlayer>> NetPlayer::start(const NetPlayerConfig& config, Micros now) {
    std::unique_ptr<NetPlayer> p(new NetPlayer());
    p->config_ = config;
    tr::EnetConfig ec;
    ec.port = 0;
    ec.accept_incoming = false;
    ec.max_peers = 1;
    auto udp = tr::EnetTransport::create(ec);
    if (!udp.ok()) return udp.error();
    p->udp_ = std::move(udp.value());
    p->conditioned_ =
        std::make_unique<tr::ConditionedTransport>(*p->udp_, tr::ConditionedLinks{}, config.link_seed);
    cs::ClientConfig cc;
    cc.tick_rate_hz = config.tick_rate_hz;
    cc.game_id = kArenaGameId;
    cc.connect_token = config.connect_token;
    cc.session_keys = config.session_keys;
    cc.logger = config.logger;
    if (auto s = cc.validate(); !s.ok()) return s.error();
    p->client_ = std::make_unique<ArenaClient>(*p->conditioned_, cc);
    if (config.bot) p->bot_.emplace(config.bot_seed);
    if (auto s = p->client_->connect(config.server, now); !s.ok()) return s.error();
    return p;
}

void NetPlayer::update(Micros now) {
    client_->update(now);
    if (!playing()) return;
    const rwd::Tick t = client_->tick();
    if (has_tick_ && t == last_tick_) return;
    has_tick_ = true;
    last_tick_ = t;
    // The RTT once per update that moved the tick (a catch-up of several ticks counts once), once measured:
    // its mean over the whole match, not only the last few pings.
    if (client_->stats().rtt.count > 0) {
        rtt_sum_ms_ += client_->stats().rtt.millis();
        ++rtt_ticks_;
    }
    if (!bot_) return;
    // One decision per client tick: the bot reacts to what the client shows, as a player at a screen would.
    bot_input_ = bot_->think(bot_view_of(*client_, now));
    client_->set_input(bot_input_);
}

rwd::Status NetPlayer::reconnect(Micros now) {
    has_tick_ = false;
    return client_->connect(config_.server, now);
}

void NetPlayer::quit(Micros now) {
    client_->disconnect(now);
    conditioned_->update(now);  // hands the goodbye to ENet and flushes it
}

}  // namespace apps
