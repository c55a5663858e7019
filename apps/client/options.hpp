// ClientOptions: rewind-client's command line (CLI11), validated into one struct.
#pragma once

#include <rewind/core/log.hpp>
#include <rewind/core/result.hpp>
#include <rewind/session/auth/secure_channel.hpp>
#include <rewind/transport/transport.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace apps {

/// Everything rewind-client can be told on its command line.
struct ClientOptions {
    std::string model = "cs";                ///< "cs" (client-server) or "rollback"
    std::string connect = "127.0.0.1:7777";  ///< server HOST:PORT (client-server)
    std::string peer;                        ///< the other player's HOST:PORT (rollback)
    std::uint16_t listen_port = 7000;        ///< local UDP port (rollback)
    int slot = -1;                           ///< rollback: our slot, 0 or 1 (-1: the lower port is slot 0)
    bool headless = false;                   ///< no window
    bool bot = false;                        ///< a bot plays instead of the keyboard and mouse
    double duration_s = 0.0;                 ///< leave after this long (0 = until closed or signalled)
    std::uint64_t seed = 1;                  ///< seeds the bot and the client-side conditioner
    int tick_rate_hz = 60;                   ///< must match the server
    double stats_interval_s = 0.0;           ///< headless: seconds between status lines (0 = none)
    std::string screenshot;                  ///< save the frame after --frames frames as PNG, then quit
    int frames = 120;                        ///< frames before the screenshot
    std::string screenshot_when =
        "frames";                   ///< ... or the first after them that shows: dead, interrupted, ended
    int width = 1280;               ///< window width
    int height = 800;               ///< window height
    bool overlay = true;            ///< show the debug overlay
    bool ghosts = false;            ///< draw server-authoritative positions as ghosts
    double latency_ms = 0.0;        ///< client-side conditioner: one-way latency, each direction
    double jitter_ms = 0.0;         ///< client-side conditioner: jitter, each direction
    double loss_pct = 0.0;          ///< client-side conditioner: loss in percent, each direction
    std::string token;              ///< connect token from the backend: hex, or @FILE holding hex
    std::string replay;             ///< play this replay file instead of connecting (docs/REPLAY.md)
    std::string save_replay;        ///< rollback: write the match to this replay file when it ends
    std::string record_net;         ///< client-server: record the session for rewind-lab --replay-net
    double reconnect_for_s = 60.0;  ///< client-server: how long to try to get the seat back after a lost link
    std::string resume_file;  ///< client-server: keep the seat's resume ticket here (and use it at start)

    /// The token of the decoded --token credentials (empty: none) and its keys.
    std::vector<std::uint8_t> connect_token;
    rwd::auth::SessionKeys session_keys{};

    /// The parsed --connect.
    rwd::transport::Address server{};
    /// The parsed --peer.
    rwd::transport::Address peer_address{};
};

struct NetPlayerConfig;
/// The NetPlayer a client-server rewind-client runs, from its options (logging to `logger`).
[[nodiscard]] NetPlayerConfig player_config(const ClientOptions& o, rwd::Logger logger);

/// Parses argv into `out`. Sets `stop` when the program should exit at once with the returned code (0 for
/// --help).
[[nodiscard]] int parse_client_options(int argc, char** argv, ClientOptions& out, bool& stop);

}  // namespace apps
