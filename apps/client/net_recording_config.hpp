// The session descriptions network recordings of the arena's client and server carry, and the configs they
// stand for: rewind-client and rewind-server write them, rewind-lab --replay-net builds the same session
// again.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/client_server/config.hpp>

#include <cstdint>
#include <string>

namespace apps {

/// An arena client's recording: "game=arena tick_rate=... game_id=... correction_log=...".
[[nodiscard]] std::string client_config_text(const rwd::client_server::ClientConfig& config);
/// The ClientConfig of a client recording's text; invalid_config if it is not one.
[[nodiscard]] rwd::Result<rwd::client_server::ClientConfig> client_config_from_text(const std::string& text);

/// What an arena server's recording needs to build the same server: its config and its match seed.
struct RecordedServer {
    rwd::client_server::ServerConfig config;
    std::uint64_t seed = 1;
};
/// An arena server's recording: "game=arena-server tick_rate=... snapshot_rate=... max_players=...
/// game_id=... seed=...".
[[nodiscard]] std::string server_config_text(const rwd::client_server::ServerConfig& config,
                                             std::uint64_t seed);
/// The server config and seed of a server recording's text; invalid_config if it is not one.
[[nodiscard]] rwd::Result<RecordedServer> server_config_from_text(const std::string& text);

}  // namespace apps
