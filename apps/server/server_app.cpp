// ServerApp: binding, the real-time loop, bots filling seats, status lines and the orderly goodbye.
#include "server/server_app.hpp"

#include "client/net_recording_config.hpp"

#include <arena/state.hpp>

#include <rewind/core/metrics_text.hpp>
#include <rewind/core/recording_file.hpp>
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/client_server/net_replay.hpp>
#include <rewind/transport/enet_metrics.hpp>
#include <rewind/transport/websocket_metrics.hpp>

#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <numeric>
#include <sstream>

namespace apps {

using rwd::LogLevel;
using rwd::Micros;
namespace cs = rwd::client_server;
namespace tr = rwd::transport;
namespace auth = rwd::auth;

namespace {
rwd::Result<std::string> read_key_file(const std::string& path) {
    std::ifstream f(path);
    if (!f) return rwd::Error{rwd::Errc::io_error, "cannot open a key file"};
    std::stringstream text;
    text << f.rdbuf();
    return text.str();
}
}  // namespace

rwd::Result<std::unique_ptr<ServerApp>> ServerApp::create(const ServerOptions& o, const RealClock& clock,
                                                          const KvLog& log) {
    if (o.max_players < 1 || o.max_players > arena::kMaxPlayers)
        return rwd::Error{rwd::Errc::invalid_config, "--max-players must be 1..64"};
    if (o.bots < 0 || o.bots > arena::kMaxPlayers)
        return rwd::Error{rwd::Errc::invalid_config, "--bots must be 0..64"};
    std::unique_ptr<ServerApp> app(new ServerApp(o, clock, log));
    cs::ServerConfig sc;
    sc.tick_rate_hz = o.tick_rate_hz;
    sc.snapshot_rate_hz = o.snapshot_rate_hz;
    if (!set_snapshot_codec(sc.snapshots, o.snapshot_codec))
        return rwd::Error{rwd::Errc::invalid_config,
                          "--snapshot-codec must be range, range-untrained, predicted or plain"};
    sc.max_clients = o.max_players;
    sc.game_id = kArenaGameId;
    sc.seat_grace = Micros::from_seconds(o.seat_grace_s);
    sc.stats_clock = cs::StatsClock{&RealClock::read, const_cast<RealClock*>(&clock)};
    sc.logger = log.logger(o.debug ? LogLevel::debug : LogLevel::info);
    if (auto s = sc.validate(); !s.ok()) return s.error();

    tr::EnetConfig ec;
    ec.bind_host = o.host;
    ec.port = o.port;
    ec.max_peers = static_cast<std::size_t>(o.max_players) + 4;  // room to tell a latecomer "server_full"
    auto udp = tr::EnetTransport::create(ec);
    if (!udp.ok()) return udp.error();
    app->udp_ = std::move(udp.value());
    if (o.ws_port >= 0) {
        tr::WebSocketConfig wc;
        wc.bind_host = o.host;
        wc.port = static_cast<std::uint16_t>(o.ws_port);
        wc.max_peers = ec.max_peers;
        wc.max_message_size = app->udp_->max_message_size();  // both kinds of client get the same snapshots
        auto web = tr::WebSocketTransport::create(wc);
        if (!web.ok()) return web.error();
        app->web_ = std::move(web.value());
        app->mux_ =
            std::make_unique<tr::MuxTransport>(std::vector<tr::Transport*>{app->udp_.get(), app->web_.get()});
    }
    if (!o.web_root.empty() && o.metrics_port < 0)
        return rwd::Error{rwd::Errc::invalid_config,
                          "--web-root needs --http-port (the port it is served on)"};
    if (!o.public_key_file.empty()) {
        // Tokens carry Unix time; the session runs on clock's steady time, so the offset links the two.
        auto text = read_key_file(o.public_key_file);
        if (!text.ok()) return text.error();
        auto key = auth::public_key_from_hex(*text);
        if (!key.ok()) return key.error();
        const std::string host = o.host == "0.0.0.0" ? std::string("127.0.0.1") : o.host;
        app->public_address_ =
            o.public_address.empty() ? host + ":" + std::to_string(app->port()) : o.public_address;
        app->wall_offset_ = Micros{std::chrono::duration_cast<std::chrono::microseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count()} -
                            clock.now();
        if (o.sealing_key_file.empty())
            return rwd::Error{rwd::Errc::invalid_config,
                              "--public-key needs --sealing-key (rewind-token keygen writes both)"};
        auto sealing_text = read_key_file(o.sealing_key_file);
        if (!sealing_text.ok()) return sealing_text.error();
        auto sealing = auth::sealing_key_from_hex(*sealing_text);
        if (!sealing.ok()) return sealing.error();
        app->sealing_key_ = *sealing;
        auth::TokenRequirement req;
        req.public_key = *key;
        req.sealing_key = *sealing;
        randombytes_buf(req.process_salt.data(), req.process_salt.size());  // this process's connections' own
        req.server_address = app->public_address_;
        req.clock_offset = app->wall_offset_;
        sc.require_token = req;
        if (auto s = sc.validate(); !s.ok()) return s.error();
        if (!o.bot_secret_key_file.empty()) {
            auto secret_text = read_key_file(o.bot_secret_key_file);
            if (!secret_text.ok()) return secret_text.error();
            auto secret = auth::secret_key_from_hex(*secret_text);
            if (!secret.ok()) return secret.error();
            app->bot_key_ = *secret;
        } else if (o.bots > 0) {
            return rwd::Error{rwd::Errc::invalid_config, "--bots with --public-key needs --bot-secret-key"};
        }
    }
    if (!o.record_net.empty()) {
        if (sc.require_token)
            return rwd::Error{rwd::Errc::invalid_config,
                              "--record-net cannot record a sealed server (its keys would be in the file)"};
        // The resume secrets come from this key: the recording carries it so that a re-run gives the same.
        randombytes_buf(sc.resume_key.data(), sc.resume_key.size());
        app->netrec_ = std::make_unique<tr::RecordingTransport>(
            app->mux_ ? static_cast<tr::Transport&>(*app->mux_) : *app->udp_,
            tr::NetRecordingHeader{"rewind-server", server_config_text(sc, o.seed), 0, 0});
    }
    tr::Transport& wire = app->netrec_ ? static_cast<tr::Transport&>(*app->netrec_)
                          : app->mux_  ? static_cast<tr::Transport&>(*app->mux_)
                                       : *app->udp_;
    app->server_ = std::make_unique<cs::Server<arena::ArenaGame>>(wire, sc, arena::new_match(o.seed));
    app->server_->record_to(app->netrec_.get());
    if (!o.record_path.empty()) {
        std::FILE* f = std::fopen(o.record_path.c_str(), "ab");  // told now, not after the whole match
        if (!f) return rwd::Error{rwd::Errc::io_error, "--record: the file cannot be written"};
        std::fclose(f);
        auto rec = cs::WorldRecorder<arena::ArenaGame>::create(
            cs::WorldRecordingHeader{std::string(arena::kGameId), arena::kRulesVersion, o.tick_rate_hz},
            o.tick_rate_hz, sc.late_input_replay_ticks);
        if (!rec.ok()) return rec.error();
        app->recorder_ = std::move(rec.value());
        app->server_->set_recorder(app->recorder_.get());
    }
    if (o.metrics_port >= 0) {
        auto metrics = MetricsEndpoint::create(o.metrics_host, static_cast<std::uint16_t>(o.metrics_port),
                                               o.web_root, app->ws_port());
        if (!metrics.ok()) return metrics.error();
        app->metrics_ = std::move(metrics.value());
    }
    return app;
}

int ServerApp::seated_bots() const {
    int n = 0;
    for (const auto& b : bots_) {
        const int slot = b->client().slot();
        if (slot >= 0 && !b->ended() && server_->seated(slot)) ++n;
    }
    return n;
}

void ServerApp::manage_bots(Micros now) {
    // Bots that were dropped (kicked, timed out) leave the roster; a new one may take their place later.
    std::erase_if(bots_, [](const std::unique_ptr<NetPlayer>& b) { return b->ended(); });
    if (now < next_bot_change_) return;
    const int humans = server_->seated_count() - seated_bots();
    // Bots fill empty seats but always leave one free, so a human can join; when one does, a bot leaves.
    const int wanted =
        std::clamp(std::min(options_.bots, options_.max_players - 1 - humans), 0, options_.bots);
    const int have = static_cast<int>(bots_.size());
    if (have > wanted) {
        bots_.back()->quit(now);
        log_.kvf(LogLevel::info, "event=bot_leave slot=%d humans=%d bots=%d", bots_.back()->client().slot(),
                 humans, have - 1);
        // Its seat stays a bot's until the server unseats it (on a later update), so Agones never hears of a
        // human there.
        if (const int slot = bots_.back()->client().slot(); slot >= 0) departed_bot_slots_.push_back(slot);
        bots_.pop_back();
        next_bot_change_ = now + Micros{200'000};
    } else if (have < wanted) {
        NetPlayerConfig pc;
        const std::string& host = options_.host == "0.0.0.0" ? std::string("127.0.0.1") : options_.host;
        pc.server = tr::Address{host, port()};
        pc.tick_rate_hz = options_.tick_rate_hz;
        pc.bot = true;
        pc.bot_seed = options_.seed * 1000 + ++bots_started_;
        pc.link_seed = pc.bot_seed;
        if (bot_key_) {
            // Bots get tokens like anyone else, from client ids with the top bit set (kept apart from
            // accounts).
            auth::TokenFields f;
            f.game_id = kArenaGameId;
            f.client_id = (std::uint64_t{1} << 63) | bots_started_;
            f.server_address = public_address_;
            f.issued_at = now + wall_offset_;
            f.expires_at = f.issued_at + Micros{60'000'000};
            randombytes_buf(f.nonce.data(),
                            f.nonce.size());  // with the client id, the nonce of the sealed keys
            // Their keys are random like a backend's (libsodium's generator): a bot's traffic is sealed too.
            randombytes_buf(f.keys.client_to_server.data(), f.keys.client_to_server.size());
            randombytes_buf(f.keys.server_to_client.data(), f.keys.server_to_client.size());
            auto token = auth::mint_token(f, *bot_key_, *sealing_key_);
            if (token.ok()) {
                pc.connect_token = std::move(token.value());
                pc.session_keys = f.keys;
            }
        }
        auto b = NetPlayer::start(pc, now);
        if (!b.ok()) {
            log_.kvf(LogLevel::warn, "event=bot_failed error=%s", rwd::error_name(b.code()).data());
            next_bot_change_ = now + Micros{5'000'000};
            return;
        }
        bots_.push_back(std::move(b.value()));
        next_bot_change_ = now + Micros{200'000};
    }
}

namespace {
/// Sealed packets the server refused for `why`, for log lines.
unsigned long long rejected(const cs::ServerStats& st, auth::OpenError why) {
    return static_cast<unsigned long long>(st.packets_rejected[static_cast<std::size_t>(why)]);
}
}  // namespace

void ServerApp::status(Micros now) {
    const auto& st = server_->stats();
    const auto c = udp_->counters();
    const auto w = web_ ? web_->counters() : tr::WebSocketCounters{};
    const std::uint64_t bytes_out = c.bytes_sent + w.bytes_sent;
    const std::uint64_t bytes_in = c.bytes_received + w.bytes_received;
    const double span_s = std::max(1e-3, (now - last_status_).seconds());
    const std::uint64_t ticks = st.ticks - last_ticks_;
    const double tick_ms =
        ticks ? (st.total_tick_time - last_tick_time_).millis() / static_cast<double>(ticks) : 0.0;
    const int bots = seated_bots();
    log_.kvf(
        LogLevel::info,
        "event=status tick=%u players=%d humans=%d bots=%d tick_ms=%.3f tick_ms_max=%.3f kbps_out=%.1f "
        "kbps_in=%.1f snapshots=%llu malformed=%llu garbage_dropped=%llu refused=%llu ticks_dropped=%llu "
        "connects_unverified=%llu connects_half_open_limited=%llu rejected_forged=%llu "
        "rejected_replayed=%llu "
        "rejected_truncated=%llu rejected_stale=%llu",
        st.tick.value, server_->seated_count(), server_->seated_count() - bots, bots, tick_ms,
        st.max_tick_time.millis(), static_cast<double>(bytes_out - last_bytes_out_) * 8.0 / 1000.0 / span_s,
        static_cast<double>(bytes_in - last_bytes_in_) * 8.0 / 1000.0 / span_s,
        static_cast<unsigned long long>(st.snapshots_sent), static_cast<unsigned long long>(st.malformed),
        static_cast<unsigned long long>(c.datagrams_ignored), static_cast<unsigned long long>(st.refused),
        static_cast<unsigned long long>(st.ticks_dropped),
        static_cast<unsigned long long>(c.connects_unverified),
        static_cast<unsigned long long>(c.connects_half_open_limited), rejected(st, auth::OpenError::forged),
        rejected(st, auth::OpenError::replayed), rejected(st, auth::OpenError::truncated),
        rejected(st, auth::OpenError::stale));
    last_status_ = now;
    last_bytes_out_ = bytes_out;
    last_bytes_in_ = bytes_in;
    last_ticks_ = st.ticks;
    last_tick_time_ = st.total_tick_time;
}

std::string ServerApp::metrics_page() const {
    rwd::MetricsText page;
    const int bots = seated_bots();
    page.family("rewind_players", rwd::MetricType::gauge,
                "Seated players: humans and the server's own bots.");
    page.sample(server_->seated_count() - bots, {{"kind", "human"}});
    page.sample(bots, {{"kind", "bot"}});
    page.gauge("rewind_seats", "Seats of the match (--max-players).", server_->max_clients());
    server_->write_metrics(page);
    tr::write_metrics(page, udp_->counters());
    if (web_) tr::write_metrics(page, web_->counters());
    return page.text();
}

void ServerApp::tell_agones(Micros now) {
    // Humans only: bots fill seats but are not the fleet's players.
    std::vector<bool> bot(static_cast<std::size_t>(server_->max_clients()), false);
    for (const auto& b : bots_)
        if (const int slot = b->client().slot(); slot >= 0 && slot < server_->max_clients())
            bot[static_cast<std::size_t>(slot)] = true;
    std::erase_if(departed_bot_slots_, [&](int slot) { return !server_->seated(slot); });
    for (const int slot : departed_bot_slots_)
        if (slot < server_->max_clients()) bot[static_cast<std::size_t>(slot)] = true;
    agones_players_.resize(bot.size(), false);
    agones_seated_since_.resize(bot.size(), Micros{-1});
    for (int slot = 0; slot < server_->max_clients(); ++slot) {
        const auto i = static_cast<std::size_t>(slot);
        // A bot learns its slot from the server's welcome a moment after it is seated: a seat counts as a
        // human's once it has been held for a second.
        if (!server_->seated(slot))
            agones_seated_since_[i] = Micros{-1};
        else if (agones_seated_since_[i].count < 0)
            agones_seated_since_[i] = now;
        const bool human =
            server_->seated(slot) && !bot[i] && now - agones_seated_since_[i] >= Micros{1'000'000};
        if (human == agones_players_[i]) continue;
        agones_players_[i] = human;
        const std::string id = "slot-" + std::to_string(slot);
        human ? agones_->player_connect(id) : agones_->player_disconnect(id);
    }
    if (now < next_agones_health_) return;
    if (!agones_->ready_acknowledged()) agones_->ready();  // the sidecar may start after the server
    agones_->health();
    next_agones_health_ = now + Micros{2'000'000};
    if (!agones_failure_logged_ && agones_->failed() > 0) {
        agones_failure_logged_ = true;
        log_.kvf(LogLevel::warn, "event=agones_unreachable failed=%llu first=\"%s\"",
                 static_cast<unsigned long long>(agones_->failed()), agones_->first_failure().c_str());
    }
}

void ServerApp::shutdown(Micros now, SignalWaiter& signals) {
    // Bots leave first (they are our own), then every remaining client hears server_shutdown before the
    // socket closes: kick() sends the Disconnect reliably and closes the connection kick_linger (200 ms)
    // later.
    for (auto& b : bots_) b->quit(now);
    int told = 0;
    for (int slot = 0; slot < server_->max_clients(); ++slot) {
        if (!server_->seated(slot)) continue;
        server_->kick(slot, cs::DisconnectCode::server_shutdown, now);
        ++told;
    }
    log_.kvf(LogLevel::info, "event=shutdown clients_told=%d", told);
    const Micros until = now + server_->config().kick_linger + Micros{300'000};
    for (Micros t = clock_.now(); t < until; t = clock_.now()) {
        server_->update(t);
        for (auto& b : bots_) b->udp().update(t);
        if (metrics_) metrics_->serve([this] { return metrics_page(); });
        signals.pause(Micros{5000});  // a second signal changes nothing: the goodbye is already going out
    }
    bots_.clear();
}

void ServerApp::save_net_recording() {
    if (!netrec_) return;
    server_->record_to(nullptr);
    netrec_->note_result(cs::server_outcome_bytes(*server_));
    const std::vector<std::uint8_t> bytes = netrec_->bytes();
    if (auto s = rwd::write_recording_file(options_.record_net, bytes); !s.ok()) {
        log_.kvf(LogLevel::error, "event=net_recording_not_saved path=%s reason=\"%.*s\"",
                 options_.record_net.c_str(), static_cast<int>(s.error().detail.size()),
                 s.error().detail.data());
        return;
    }
    log_.kvf(LogLevel::info, "event=net_recording_saved path=%s records=%zu bytes=%zu",
             options_.record_net.c_str(), netrec_->records(), bytes.size());
}

void ServerApp::save_recording() {
    if (!recorder_) return;
    server_->set_recorder(nullptr);
    const std::size_t ticks = recorder_->ticks(), messages = recorder_->messages();
    const std::vector<std::uint8_t> bytes = recorder_->bytes();
    if (auto s = rwd::write_recording_file(options_.record_path, bytes); !s.ok()) {
        log_.kvf(LogLevel::error, "event=recording_not_saved path=%s reason=\"%.*s\"",
                 options_.record_path.c_str(), static_cast<int>(s.error().detail.size()),
                 s.error().detail.data());
        return;
    }
    log_.kvf(LogLevel::info, "event=recording_saved path=%s ticks=%zu messages=%zu bytes=%zu",
             options_.record_path.c_str(), ticks, messages, bytes.size());
}

int ServerApp::run(SignalWaiter& signals) {
    const Micros start = clock_.now();
    last_status_ = start;
    const Micros end = start + Micros::from_seconds(options_.duration_s);
    const Micros status_every = Micros::from_seconds(options_.status_interval_s);
    Micros next_status = start + status_every;
    const char* why = "duration";
    if (options_.agones) {
        agones_ = std::make_unique<AgonesSdk>(AgonesSdk::port_from_environment());
        agones_->ready();
        log_.kvf(LogLevel::info, "event=agones_ready sdk_port=%u", AgonesSdk::port_from_environment());
    }
    for (;;) {
        const Micros now = clock_.now();
        server_->update(now);
        for (auto& b : bots_) b->update(now);
        if (options_.bots > 0) manage_bots(now);
        if (metrics_) metrics_->serve([this] { return metrics_page(); });
        if (agones_) tell_agones(now);
        if (recorder_ && !recording_full_ &&
            recorder_->size_bytes() > static_cast<std::size_t>(options_.record_max_mb) << 20) {
            server_->set_recorder(nullptr);  // what is recorded is kept and written at the end
            recording_full_ = true;
            log_.kvf(LogLevel::warn, "event=recording_full path=%s max_mb=%d ticks=%zu",
                     options_.record_path.c_str(), options_.record_max_mb, recorder_->ticks());
        }
        if (status_every.count > 0 && now >= next_status) {
            status(now);
            next_status = now + status_every;
        }
        if (options_.duration_s > 0.0 && now >= end) break;
        if (signals.sleep(Micros{2000})) {
            why = signals.name();
            break;
        }
    }
    log_.kvf(LogLevel::info, "event=stopping reason=%s", why);
    shutdown(clock_.now(), signals);
    save_recording();
    save_net_recording();
    if (agones_) {
        agones_->shutdown();  // the match is over: Agones deletes this GameServer
        agones_->finish();    // sends what is queued before it returns
        const std::uint64_t sent = agones_->sent(), failed = agones_->failed();
        agones_.reset();
        log_.kvf(failed ? LogLevel::warn : LogLevel::info,
                 "event=agones_shutdown requests_sent=%llu failed=%llu",
                 static_cast<unsigned long long>(sent), static_cast<unsigned long long>(failed));
    }
    const auto& st = server_->stats();
    const auto c = udp_->counters();
    log_.kvf(LogLevel::info,
             "event=exit ticks=%llu connects=%llu disconnects=%llu timeouts=%llu malformed=%llu "
             "garbage_dropped=%llu "
             "datagrams_received=%llu kicked_garbage=%llu kicked_cheating=%llu snapshots=%llu "
             "rejected_forged=%llu "
             "rejected_replayed=%llu rejected_truncated=%llu rejected_stale=%llu messages_in=%llu "
             "messages_refused=%llu",
             static_cast<unsigned long long>(st.ticks), static_cast<unsigned long long>(st.connects),
             static_cast<unsigned long long>(st.disconnects), static_cast<unsigned long long>(st.timeouts),
             static_cast<unsigned long long>(st.malformed),
             static_cast<unsigned long long>(c.datagrams_ignored),
             static_cast<unsigned long long>(c.datagrams_received),
             static_cast<unsigned long long>(st.kicked_garbage),
             static_cast<unsigned long long>(st.kicked_cheating),
             static_cast<unsigned long long>(st.snapshots_sent), rejected(st, auth::OpenError::forged),
             rejected(st, auth::OpenError::replayed), rejected(st, auth::OpenError::truncated),
             rejected(st, auth::OpenError::stale), static_cast<unsigned long long>(st.messages_received),
             static_cast<unsigned long long>(
                 std::accumulate(st.messages_refused.begin(), st.messages_refused.end(), std::uint64_t{0})));
    return 0;
}

}  // namespace apps
