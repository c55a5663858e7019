// rewind-server: the headless dedicated arena server over real UDP (ENet) and, for browsers, WebSocket.
#include "server/server_app.hpp"

#include <arena/constants.hpp>

#include "common/command_line.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    apps::ServerOptions o;
    CLI::App app{
        "rewind-server: the authoritative arena server. Clients connect with rewind-client --connect "
        "HOST:PORT. Logs are key=value lines on stdout; the first one names the port."};
    app.add_option("--host", o.host, "IPv4 address to bind")->capture_default_str();
    app.add_option("--port", o.port, "UDP port (0 = one the OS picks)")->capture_default_str();
    app.add_option("--max-players", o.max_players, "Seats")->check(CLI::Range(1, 64))->capture_default_str();
    app.add_option("--tick-rate", o.tick_rate_hz, "Simulation ticks per second (the arena supports only 60)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_option("--snapshot-rate", o.snapshot_rate_hz,
                   "Snapshots per second per client (10..60, <= tick rate)")
        ->check(CLI::Range(10, 60))
        ->capture_default_str();
    app.add_option(
           "--snapshot-codec", o.snapshot_codec,
           "How entity lists are coded (docs/PROTOCOL.md): range (predicted deltas, range-coded from the "
           "arena's trained table), range-untrained, predicted (bit-packed) or plain (bit-packed "
           "against the baseline value)")
        ->check(CLI::IsMember({"range", "range-untrained", "predicted", "plain"}))
        ->capture_default_str();
    app.add_option("--bots", o.bots, "Bots filling empty seats (one seat always stays free for a human)")
        ->check(CLI::Range(0, 64))
        ->capture_default_str();
    app.add_option("--duration", o.duration_s, "Stop after this many seconds (0 = until SIGINT/SIGTERM)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option("--status-interval", o.status_interval_s, "Seconds between status lines (0 = none)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option("--seed", o.seed, "Seed of the match and the bots")->capture_default_str();
    app.add_flag("--debug", o.debug, "Log the library's debug messages too");
    app.add_option(
        "--public-key", o.public_key_file,
        "Backend public key file (hex, from rewind-token keygen): only clients with a valid connect "
        "token (rewind-client --token) get in");
    app.add_option("--sealing-key", o.sealing_key_file,
                   "The servers' sealing key file (hex, from rewind-token keygen), with --public-key: opens "
                   "each token's connection keys, so every packet after the hello is encrypted");
    app.add_option("--public-address", o.public_address,
                   "HOST:PORT the tokens must name (default 127.0.0.1:PORT, or --host:PORT)");
    app.add_option("--bot-secret-key", o.bot_secret_key_file,
                   "Backend secret key file to mint the bots' tokens with --public-key (local testing only)");
    app.add_option("--metrics-port,--http-port", o.metrics_port,
                   "The HTTP port: Prometheus metrics at http://HOST:PORT/metrics, and --web-root's files "
                   "(0 = a port the OS picks; default: none)")
        ->check(CLI::Range(0, 65535));
    app.add_option("--metrics-host,--http-host", o.metrics_host, "IPv4 address the HTTP port binds")
        ->capture_default_str();
    app.add_option(
           "--ws-port", o.ws_port,
           "Also take WebSocket clients (browsers) at ws://HOST:PORT/rewind, in the same match as the "
           "UDP ones (0 = a port the OS picks; default: none)")
        ->check(CLI::Range(0, 65535));
    app.add_option("--web-root", o.web_root,
                   "Serve this directory (the browser client, `make web`) on the HTTP port, with "
                   "/web-config.json naming the WebSocket port")
        ->check(CLI::ExistingDirectory);
    app.add_flag("--agones", o.agones,
                 "Tell the Agones SDK sidecar (127.0.0.1:$AGONES_SDK_HTTP_PORT, default 9358) Ready, Health "
                 "every 2 s, the human players, and Shutdown at the end (docs/DEPLOY.md)");
    app.add_option(
           "--seat-grace", o.seat_grace_s,
           "Seconds a seated client's seat is held after its link is lost: its player stays, and the "
           "client (rewind-client reconnects on its own, or after a restart with --resume-file) comes "
           "back to it with its score and the messages it missed; 0 frees it at once")
        ->check(CLI::Range(0.0, 3600.0))
        ->capture_default_str();
    app.add_option("--record", o.record_path,
                   "Record the match (every entity of every tick, every message sent) and write it to this "
                   "file when the server stops; play it with rewind-client --replay (docs/REPLAY.md). The "
                   "recording is kept in memory until then (about 95 MB an hour with 8 players)");
    app.add_option(
        "--record-net", o.record_net,
        "Record everything the server's session took from and gave to the network, and every update, "
        "with their times, to this file when it stops; rewind-lab --replay-net re-runs it offline "
        "(not with --public-key: a sealed session's keys would be in the file)");
    app.add_option("--record-max-mb", o.record_max_mb,
                   "With --record: stop recording beyond this many MB (what was recorded is still written)")
        ->check(CLI::Range(1, 1000))  // players read files of up to 1 GiB
        ->capture_default_str();
    if (auto code = apps::parse_command_line(app, argc, argv, "rewind-server")) return *code;
    if (o.tick_rate_hz !=
        arena::kTickRate) {  // the arena's speeds are per tick: another rate changes the game
        std::fprintf(stderr,
                     "rewind-server: --tick-rate %d: the arena runs only at %d Hz (arena::kTickRate)\n",
                     o.tick_rate_hz, arena::kTickRate);
        return 2;
    }

    // Signals are blocked before anything else starts, so SIGINT/SIGTERM are only ever taken by the main
    // loop.
    apps::SignalWaiter signals;
    apps::RealClock clock;
    apps::KvLog log(stdout, "server", clock);
    auto created = apps::ServerApp::create(o, clock, log);
    if (!created.ok()) {
        std::fprintf(stderr, "rewind-server: cannot start on %s:%u: %s (%.*s)\n", o.host.c_str(), o.port,
                     rwd::error_name(created.code()).data(), static_cast<int>(created.error().detail.size()),
                     created.error().detail.data());
        return 1;
    }
    apps::ServerApp& server = *created.value();
    log.kvf(rwd::LogLevel::info,
            "event=listening port=%u host=%s max_players=%d tick_rate=%d snapshot_rate=%d snapshot_codec=%s "
            "bots=%d "
            "seed=%llu encryption=%s",
            server.port(), o.host.c_str(), o.max_players, o.tick_rate_hz, o.snapshot_rate_hz,
            o.snapshot_codec.c_str(), o.bots, static_cast<unsigned long long>(o.seed),
            server.encrypted() ? "chacha20poly1305"
                               : "off_development_mode(no_tokens:packets_are_plain_and_unauthenticated)");
    if (server.metrics_port() != 0)
        log.kvf(rwd::LogLevel::info, "event=metrics_listening port=%u host=%s path=/metrics",
                server.metrics_port(), o.metrics_host.c_str());
    if (server.ws_port() != 0)
        log.kvf(rwd::LogLevel::info, "event=websocket_listening port=%u host=%s path=/rewind",
                server.ws_port(), o.host.c_str());
    if (!o.web_root.empty())
        log.kvf(rwd::LogLevel::info, "event=web_root_served port=%u dir=%s", server.metrics_port(),
                o.web_root.c_str());
    if (!server.token_address().empty())
        log.kvf(rwd::LogLevel::info, "event=tokens_required address=%s", server.token_address().c_str());
    return server.run(signals);
}
