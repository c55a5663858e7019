// NetPlayer: transport stack, session and bot wiring for one arena client.
#include "client/net_player.hpp"

#include "client/credentials.hpp"
#include "client/net_recording_config.hpp"

#include <rewind/core/recording_file.hpp>
#include <rewind/session/client_server/net_replay.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace apps {

using rwd::Micros;
namespace cs = rwd::client_server;
namespace tr = rwd::transport;

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
    cc.reconnect_for = config.reconnect_for;
    if (auto s = cc.validate(); !s.ok()) return s.error();
    if (!config.record_net.empty()) {
        if (!config.connect_token.empty())
            return rwd::Error{rwd::Errc::invalid_config,
                              "a sealed session cannot be recorded (its keys would be "
                              "in the file)"};
        p->recording_ = std::make_unique<tr::RecordingTransport>(
            *p->conditioned_, tr::NetRecordingHeader{"rewind-client", client_config_text(cc), 0, 0});
    }
    p->client_ = std::make_unique<ArenaClient>(
        p->recording_ ? static_cast<tr::Transport&>(*p->recording_) : *p->conditioned_, cc);
    p->client_->record_to(p->recording_.get());
    if (config.bot) p->bot_.emplace(config.bot_seed);
    // A ticket left by an earlier run asks for that seat back (a seat of our own if it is no longer held).
    std::optional<cs::ResumeTicket> ticket;
    if (!config.resume_file.empty()) {
        std::ifstream f(config.resume_file);
        std::stringstream text;
        if (f) text << f.rdbuf();
        if (f && !text.str().empty()) {
            auto t = cs::parse_ticket_text(text.str());
            if (t.ok())
                ticket = t.value();
            else
                logf(config.logger, rwd::LogLevel::warn, "%s holds no resume ticket: connecting afresh",
                     config.resume_file.c_str());
        }
    }
    const rwd::Status connected =
        ticket ? p->client_->connect(config.server, now, *ticket) : p->client_->connect(config.server, now);
    if (!connected.ok()) return connected.error();
    return p;
}

void NetPlayer::keep_ticket() {
    if (config_.resume_file.empty()) return;
    const auto t = client_->resume_ticket();
    if (!t || (saved_ticket_ && saved_ticket_->slot == t->slot && saved_ticket_->secret == t->secret)) return;
    // Written beside and renamed over: a crash mid-write never leaves half a ticket.
    const std::string tmp = config_.resume_file + ".tmp";
    {
        std::ofstream f(tmp, std::ios::trunc);
        f << cs::ticket_text(*t);
        if (!f) return;
    }
    if (std::rename(tmp.c_str(), config_.resume_file.c_str()) == 0) saved_ticket_ = t;
}

void NetPlayer::refresh_credentials(Micros now) {
    if (!client_->needs_credentials() || config_.token_file.empty() || now < next_token_check_) return;
    next_token_check_ = now + Micros{1'000'000};
    auto c = load_credentials("@" + config_.token_file);
    if (!c.ok() || c->token == config_.connect_token) return;  // the same token would be refused again
    config_.connect_token = c->token;
    client_->set_credentials(c->token, c->keys);
}

void NetPlayer::log_link_changes(const KvLog& log) {
    const cs::ClientPhase now = client_->phase();
    const cs::ClientStats& st = client_->stats();
    if (now == cs::ClientPhase::reconnecting && logged_phase_ != cs::ClientPhase::reconnecting)
        log.kvf(rwd::LogLevel::warn, "event=link_lost slot=%d reconnect_for_s=%.0f", client_->slot(),
                config_.reconnect_for.seconds());
    if (logged_phase_ == cs::ClientPhase::reconnecting &&
        (now == cs::ClientPhase::syncing || now == cs::ClientPhase::playing))
        log.kvf(rwd::LogLevel::info, "event=reconnected slot=%d resumed=%d resyncs=%llu", client_->slot(),
                st.resumes > logged_resumes_ ? 1 : 0, static_cast<unsigned long long>(st.resume_resyncs));
    if (client_->needs_credentials() && !logged_waiting_)
        log.kvf(rwd::LogLevel::warn, "event=waiting_for_token token_error=%s",
                rwd::auth::token_error_name(st.token_error).data());
    logged_waiting_ = client_->needs_credentials();
    logged_phase_ = now;
    logged_resumes_ = st.resumes;
}

void NetPlayer::update(Micros now) {
    client_->update(now);
    keep_ticket();
    refresh_credentials(now);
    if (!playing()) return;
    const rwd::Tick t = client_->tick();
    if (has_tick_ && t == last_tick_) return;
    has_tick_ = true;
    last_tick_ = t;
    for (const auto& e : client_->newest_snapshot_entities())
        if (e.snap.kind == arena::EntityKind::kPlayer && e.id < 64u &&
            static_cast<int>(e.id) != client_->slot())
            players_seen_ |= std::uint64_t{1} << e.id;
    // The RTT once per update that moved the tick (a catch-up of several ticks counts once), once measured:
    // its mean over the whole match, not only the last few pings.
    if (client_->stats().rtt.count > 0) {
        rtt_sum_ms_ += client_->stats().rtt.millis();
        ++rtt_ticks_;
    }
    if (!bot_) return;
    // One decision per client tick: the bot reacts to what the client shows, as a player at a screen would.
    bot_input_ = bot_->think(arena::bot_view_of(*client_, now));
    client_->set_input(bot_input_);
}

rwd::Status NetPlayer::reconnect(Micros now) {
    has_tick_ = false;
    return client_->connect(config_.server, now);
}

rwd::Status NetPlayer::save_net_recording(std::string& what) {
    if (!recording_) return {};
    client_->record_to(nullptr);
    recording_->note_result(cs::correction_log_bytes(client_->corrections()));
    const std::vector<std::uint8_t> bytes = recording_->bytes();
    what = "path=" + config_.record_net + " records=" + std::to_string(recording_->records()) +
           " bytes=" + std::to_string(bytes.size()) +
           " corrections=" + std::to_string(client_->stats().corrections);
    return rwd::write_recording_file(config_.record_net, bytes);
}

void save_net_recording(NetPlayer& player, const KvLog& log) {
    std::string what;
    const rwd::Status s = player.save_net_recording(what);
    if (what.empty()) return;
    if (s.ok())
        log.kvf(rwd::LogLevel::info, "event=net_recording_saved %s", what.c_str());
    else
        log.kvf(rwd::LogLevel::error, "event=net_recording_not_saved %s reason=\"%.*s\"", what.c_str(),
                static_cast<int>(s.error().detail.size()), s.error().detail.data());
}

void NetPlayer::quit(Micros now) {
    client_->disconnect(now);
    conditioned_->update(now);  // hands the goodbye to ENet and flushes it
}

}  // namespace apps
