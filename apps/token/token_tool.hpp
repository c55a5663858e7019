// The commands of rewind-token: keygen, mint and inspect, kept apart from the command-line parsing.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace token_tool {

/// The arena's game id (apps/client/net_player.hpp): the default, so tokens work with rewind-server as is.
inline constexpr std::uint32_t kDefaultGameId = 0x4152454Eu;

/// Options of `keygen`.
struct KeygenOptions {
    std::string secret_key_file = "backend.secret";    ///< where the secret key goes (hex, mode 0600)
    std::string public_key_file = "backend.public";    ///< where the public key goes (hex)
    std::string sealing_key_file = "servers.sealing";  ///< where the servers' sealing key goes (hex, 0600)
    std::string seed_hex;  ///< 64 hex digits for a reproducible pair; empty = random
    bool force = false;    ///< overwrite existing files
};

/// Options of `mint`.
struct MintOptions {
    std::string secret_key_file = "backend.secret";    ///< the backend's secret key (hex)
    std::string sealing_key_file = "servers.sealing";  ///< the servers' sealing key (hex)
    std::uint64_t client_id = 0;                       ///< who the token is for
    std::string server;                                ///< "host:port" exactly as the server is told
    std::string expires_in = "30s";                    ///< lifetime: 500ms, 30s, 5m, 2h
    std::string game_id = "0x4152454E";                ///< the game id (decimal or 0x hex)
    std::string user_data_hex;                         ///< application data, hex
    std::string out_file;                              ///< also write the hex credentials here
};

/// Options of `inspect`.
struct InspectOptions {
    std::string token;             ///< credentials or a bare token: hex, or @FILE holding hex
    std::string public_key_file;   ///< verify with this key (optional)
    std::string sealing_key_file;  ///< and open the keys with this one (needed with public_key_file)
    std::string server;            ///< the address to verify against (with the key)
    std::string game_id = "0x4152454E";
};

/// A lifetime like "30s", "500ms", "5m", "2h" or "1500us"; positive, at most a day.
[[nodiscard]] rwd::Result<rwd::Micros> parse_duration(std::string_view text);
/// A 32-bit id in decimal or 0x-prefixed hex.
[[nodiscard]] rwd::Result<std::uint32_t> parse_game_id(std::string_view text);
/// The system wall clock: microseconds since the Unix epoch (the clock tokens are stamped with).
[[nodiscard]] rwd::Micros wall_clock_now();
/// A whole text file, or io_error.
[[nodiscard]] rwd::Result<std::string> read_text_file(const std::string& path);

/// Writes a key pair; prints the public key. Returns the exit code.
int keygen(const KeygenOptions& o, std::FILE* out, std::FILE* err);
/// Mints a token with fresh random keys from the system clock; prints the client's credentials (the keys and
/// the token) as hex. Returns the exit code.
int mint(const MintOptions& o, std::FILE* out, std::FILE* err);
/// Prints a token's fields and, with a key, whether it verifies now. Returns the exit code (0 =
/// decodes/verifies).
int inspect(const InspectOptions& o, std::FILE* out, std::FILE* err);

}  // namespace token_tool
