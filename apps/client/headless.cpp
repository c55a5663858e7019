// The headless bot client loop: real clock, 2 ms sleeps, status lines, final JSON line.
#include "client/headless.hpp"

#include "client/client_report.hpp"
#include "client/net_player.hpp"
#include "common/app_support.hpp"

#include <cstdio>

namespace apps {

using rwd::Micros;
namespace cs = rwd::client_server;

rwd::transport::ConditionedLinks links_from(const ClientOptions& o) {
    rwd::transport::ConditionedLinks l;
    l.up.latency = Micros::from_seconds(o.latency_ms / 1000.0);
    l.up.jitter = Micros::from_seconds(o.jitter_ms / 1000.0);
    l.up.loss = o.loss_pct / 100.0;
    l.down = l.up;
    return l;
}

int run_headless(const ClientOptions& o) {
    SignalWaiter signals;
    RealClock clock;
    KvLog log(stdout, "client", clock);
    NetPlayerConfig pc = player_config(o, log.logger());
    pc.bot = true;
    auto started = NetPlayer::start(pc, clock.now());
    if (!started.ok()) {
        std::fprintf(stderr, "rewind-client: cannot start: %s (%.*s)\n",
                     rwd::error_name(started.code()).data(), static_cast<int>(started.error().detail.size()),
                     started.error().detail.data());
        return 1;
    }
    NetPlayer& player = *started.value();
    if (auto s = player.link().set_links(links_from(o)); !s.ok()) {
        std::fprintf(stderr, "rewind-client: bad conditioner settings: %.*s\n",
                     static_cast<int>(s.error().detail.size()), s.error().detail.data());
        return 2;
    }
    log.kvf(rwd::LogLevel::info, "event=connecting server=%s:%u seed=%llu", o.server.host.c_str(),
            o.server.port, static_cast<unsigned long long>(o.seed));

    const Micros end = Micros::from_seconds(o.duration_s);
    const Micros stats_every = Micros::from_seconds(o.stats_interval_s);
    Micros next_stats = stats_every;
    Micros play_start{};
    bool played = false;
    const char* why = "duration";
    for (;;) {
        const Micros now = clock.now();
        player.update(now);
        player.log_link_changes(log);
        if (!played && player.playing()) {
            played = true;
            play_start = now;
            log.kvf(rwd::LogLevel::info, "event=playing slot=%d resumed=%llu", player.client().slot(),
                    static_cast<unsigned long long>(player.client().stats().resumes));
        }
        if (player.ended()) {
            why = "ended";
            break;
        }
        if (o.duration_s > 0.0 && now >= end) break;
        if (stats_every.count > 0 && now >= next_stats) {
            log.kv(rwd::LogLevel::info, client_status_kv(player));
            next_stats = now + stats_every;
        }
        if (signals.sleep(Micros{2000})) {
            why = signals.name();
            break;
        }
    }
    const Micros now = clock.now();
    const double played_s = played ? (now - play_start).seconds() : 0.0;
    const bool was_playing = player.playing();
    if (!player.ended()) player.quit(now);
    // Give ENet a moment to deliver the goodbye before the socket closes.
    for (int i = 0; i < 10; ++i) {
        player.udp().update(clock.now());
        signals.sleep(Micros{5000});
    }
    const auto code = player.client().stats().disconnect_code;
    log.kvf(rwd::LogLevel::info, "event=exit reason=%s disconnect=%s token_error=%s", why,
            cs::disconnect_code_name(code).data(),
            rwd::auth::token_error_name(player.client().stats().token_error).data());
    save_net_recording(player, log);
    std::printf("final %s\n", client_report_json(player, played_s).c_str());
    std::fflush(stdout);
    // Clean: played and left on our terms, or the server closed the match in an orderly way.
    const bool clean = played && (was_playing || code == cs::DisconnectCode::server_shutdown ||
                                  code == cs::DisconnectCode::client_quit);
    return clean ? 0 : 1;
}

}  // namespace apps
