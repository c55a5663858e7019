// The session descriptions network recordings of the arena's client and server carry, and the configs they
// stand for: rewind-client and rewind-server write them, rewind-lab --replay-net builds the same session
// again.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/client_server/config.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace apps {

/// The snapshot entity codecs `--snapshot-codec` names (rewind-server, rewind-lab): range (predicted deltas,
/// range-coded from the game's trained table; the default), range-untrained (models from 1/2), predicted
/// (predicted deltas, bit-packed), plain (bit-packed against the baseline value).
inline constexpr std::array<std::string_view, 4> kSnapshotCodecs = {"range", "range-untrained", "predicted",
                                                                    "plain"};
/// Sets `snapshots` to the codec `name`; false (and nothing changed) for a name not in kSnapshotCodecs.
bool set_snapshot_codec(rwd::client_server::SnapshotConfig& snapshots, std::string_view name);
/// The kSnapshotCodecs name of the codec `snapshots` uses.
[[nodiscard]] std::string_view snapshot_codec_name(const rwd::client_server::SnapshotConfig& snapshots);

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
/// game_id=... seed=... seat_grace_ms=... resume_key=... snapshot_codec=...".
[[nodiscard]] std::string server_config_text(const rwd::client_server::ServerConfig& config,
                                             std::uint64_t seed);
/// The server config and seed of a server recording's text; invalid_config if it is not one.
[[nodiscard]] rwd::Result<RecordedServer> server_config_from_text(const std::string& text);

}  // namespace apps
