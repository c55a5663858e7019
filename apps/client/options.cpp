// rewind-client's command line.
#include "client/options.hpp"

#include "client/credentials.hpp"
#include "client/net_player.hpp"

#include <arena/constants.hpp>
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/transport/address_text.hpp>

#include "common/command_line.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace apps {

NetPlayerConfig player_config(const ClientOptions& o, rwd::Logger logger) {
    NetPlayerConfig pc;
    pc.server = o.server;
    pc.tick_rate_hz = o.tick_rate_hz;
    pc.bot = o.bot;
    pc.bot_seed = o.seed;
    pc.link_seed = o.seed;
    pc.connect_token = o.connect_token;
    pc.session_keys = o.session_keys;
    pc.logger = logger;
    pc.record_net = o.record_net;
    pc.reconnect_for = rwd::Micros::from_seconds(o.reconnect_for_s);
    pc.resume_file = o.resume_file;
    if (!o.token.empty() && o.token.front() == '@') pc.token_file = o.token.substr(1);
    return pc;
}

int parse_client_options(int argc, char** argv, ClientOptions& o, bool& stop) {
    stop = true;
    CLI::App app{
        "rewind-client: the arena over real UDP. Client-server (default): predicts the own player, "
        "interpolates the others, shows a debug overlay (F1), ghosts of the server's positions (F2) and a "
        "client-side link conditioner. WASD move, mouse aim, left click fire, right click alt-fire, "
        "R reload, space dash."};
    app.add_option("--model", o.model, "Sync model: cs (client-server) or rollback (2-player peer-to-peer)")
        ->check(CLI::IsMember({"cs", "rollback"}))
        ->capture_default_str();
    app.add_option("--connect", o.connect, "Server HOST:PORT (cs)")->capture_default_str();
    app.add_option("--peer", o.peer, "The other player's HOST:PORT (rollback)");
    app.add_option("--listen", o.listen_port, "Local UDP port (rollback)")->capture_default_str();
    app.add_option("--slot", o.slot, "Rollback: our slot 0 or 1 (default: the peer with the lower port is 0)")
        ->check(CLI::Range(0, 1));
    app.add_flag("--headless", o.headless, "No window (load tests); needs --bot");
    app.add_flag("--bot", o.bot, "An arena bot plays");
    app.add_option("--duration", o.duration_s, "Leave after this many seconds (0 = never)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option("--seed", o.seed, "Seed of the bot and the client-side conditioner")
        ->capture_default_str();
    app.add_option("--tick-rate", o.tick_rate_hz,
                   "Simulation ticks per second (must match the server; the arena supports only 60)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_option("--stats-interval", o.stats_interval_s,
                   "Headless: seconds between status lines (0 = none)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--screenshot", o.screenshot,
                   "Save frame number --frames as a PNG to this file, then quit");
    app.add_option(
           "--screenshot-when", o.screenshot_when,
           "With --screenshot: which frame after --frames to save: frames (that one), dead (the first "
           "showing the local player dead), interrupted (the first showing the connection interrupted), "
           "reconnecting (the first showing a reconnection under way), ended (the first showing the end "
           "screen); gives up after 90 s with exit code 1")
        ->check(CLI::IsMember({"frames", "dead", "interrupted", "reconnecting", "ended"}))
        ->capture_default_str();
    app.add_option("--frames", o.frames, "Frames to render before the screenshot")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--width", o.width, "Window width")->check(CLI::Range(320, 8192))->capture_default_str();
    app.add_option("--height", o.height, "Window height")
        ->check(CLI::Range(240, 8192))
        ->capture_default_str();
    bool no_overlay = false;  // a plain flag: CLI11's "!" form prints "--no-overlay{false}" in --help
    app.add_flag("--no-overlay", no_overlay, "Start with the debug overlay hidden");
    app.add_flag("--ghosts", o.ghosts, "Start with server-authoritative ghosts shown");
    app.add_option("--latency", o.latency_ms,
                   "Client-side conditioner: one-way latency in ms, each direction")
        ->check(CLI::Range(0.0, 5000.0));
    app.add_option("--jitter", o.jitter_ms, "Client-side conditioner: jitter in ms, each direction")
        ->check(CLI::Range(0.0, 5000.0));
    app.add_option("--loss", o.loss_pct, "Client-side conditioner: loss in percent, each direction")
        ->check(CLI::Range(0.0, 100.0));
    app.add_option(
        "--token", o.token,
        "Client credentials (hex, or @FILE): the connect token and its keys, for a server started with "
        "--public-key; rewind-token mint prints them");
    app.add_option("--replay", o.replay,
                   "Play this rollback or lockstep replay file (rewind-lab --save-replay, --save-replay "
                   "below) instead of connecting: Space pause, Left/Right a frame, Page Up/Down ten "
                   "seconds, +/- speed; with --headless, check it: play it through, verify every checksum "
                   "and seeks, print the result");
    app.add_option(
        "--record-net", o.record_net,
        "Client-server: record every datagram and event the session took and sent, and every input, "
        "with their times, to this file when the client exits; rewind-lab --replay-net re-runs it "
        "offline with the same corrections (docs/REPLAY.md)");
    app.add_option("--save-replay", o.save_replay,
                   "Rollback: write the match to this replay file when it ends");
    app.add_option("--reconnect-for", o.reconnect_for_s,
                   "Client-server: after a lost link, keep trying to get the seat back for this many "
                   "seconds (the server holds it for its --seat-grace; 0 = a lost link ends the session)")
        ->check(CLI::Range(0.0, 3600.0))
        ->capture_default_str();
    app.add_option("--resume-file", o.resume_file,
                   "Client-server: keep this seat's resume ticket in this file, and present it at start: a "
                   "client restarted within the server's grace gets its seat back (keep the file private)");
    if (auto code = apps::parse_command_line(app, argc, argv, "rewind-client")) return *code;
    o.overlay = !no_overlay;
    if (o.tick_rate_hz !=
        arena::kTickRate) {  // the arena's speeds are per tick: another rate changes the game
        std::fprintf(stderr,
                     "rewind-client: --tick-rate %d: the arena runs only at %d Hz (arena::kTickRate)\n",
                     o.tick_rate_hz, arena::kTickRate);
        return 2;
    }
    if (o.headless && !o.bot && o.replay.empty()) {
        std::fprintf(stderr, "rewind-client: --headless needs --bot (nobody would press the keys)\n");
        return 2;
    }
    if (o.headless && !o.screenshot.empty()) {
        std::fprintf(stderr, "rewind-client: --screenshot needs a window (drop --headless)\n");
        return 2;
    }
    auto server = rwd::transport::parse_address(o.connect);
    if (!server.ok()) {
        std::fprintf(stderr, "rewind-client: --connect '%s': %.*s\n", o.connect.c_str(),
                     static_cast<int>(server.error().detail.size()), server.error().detail.data());
        return 2;
    }
    o.server = server.value();
    if (!o.token.empty()) {
        auto credentials = load_credentials(o.token);
        if (!credentials.ok()) {
            std::fprintf(stderr, "rewind-client: --token: %.*s\n",
                         static_cast<int>(credentials.error().detail.size()),
                         credentials.error().detail.data());
            return 2;
        }
        o.connect_token = std::move(credentials->token);
        o.session_keys = credentials->keys;
    }
    if (!o.save_replay.empty() && o.model != "rollback") {
        std::fprintf(stderr,
                     "rewind-client: --save-replay records rollback matches (add --model rollback)\n");
        return 2;
    }
    if (!o.record_net.empty() && !o.resume_file.empty()) {
        std::fprintf(stderr,
                     "rewind-client: --record-net records a session from its first connect: drop "
                     "--resume-file\n");
        return 2;
    }
    if (!o.record_net.empty() && (o.model != "cs" || !o.replay.empty() || !o.token.empty())) {
        std::fprintf(stderr,
                     "rewind-client: --record-net records a client-server session without --token (a "
                     "sealed session's keys would be in the file)\n");
        return 2;
    }
    if (!o.replay.empty()) {
        stop = false;
        return 0;  // a replay needs no server or peer address
    }
    if (o.model == "rollback") {
        auto peer = rwd::transport::parse_address(o.peer);
        if (!peer.ok()) {
            std::fprintf(stderr, "rewind-client: --model rollback needs --peer HOST:PORT (got '%s')\n",
                         o.peer.c_str());
            return 2;
        }
        o.peer_address = peer.value();
    }
    stop = false;
    return 0;
}

}  // namespace apps
