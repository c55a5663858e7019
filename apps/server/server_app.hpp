// ServerApp: the dedicated arena server: an EnetTransport, a Server<ArenaGame>, in-process bot clients,
// status.
#pragma once

#include "client/net_player.hpp"
#include "common/app_support.hpp"
#include "server/agones_sdk.hpp"
#include "server/metrics_endpoint.hpp"

#include <arena/arena_game.hpp>

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/auth/keys.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/session/client_server/world_recorder.hpp>
#include <rewind/transport/enet_transport.hpp>
#include <rewind/transport/mux_transport.hpp>
#include <rewind/transport/websocket_transport.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace apps {

/// How rewind-server runs (its command line).
struct ServerOptions {
    std::string host = "0.0.0.0";    ///< address to bind
    std::uint16_t port = 7777;       ///< UDP port; 0 = one the OS picks (printed in the first log line)
    int max_players = 16;            ///< seats, 1..64
    int tick_rate_hz = 60;           ///< simulation rate
    int snapshot_rate_hz = 30;       ///< snapshots per second per client
    int bots = 0;                    ///< bots that fill empty seats (always leaving one free for a human)
    double duration_s = 0.0;         ///< stop after this long (0 = until SIGINT/SIGTERM)
    double status_interval_s = 5.0;  ///< seconds between status lines (0 = none)
    std::uint64_t seed = 1;          ///< seeds the match and the bots
    bool debug = false;              ///< log the library's debug messages too
    std::string public_key_file;     ///< backend public key (hex): set = clients need a connect token
    std::string sealing_key_file;    ///< the servers' sealing key (hex), required with public_key_file
    std::string public_address;  ///< HOST:PORT tokens must name (default: the bots' address, 127.0.0.1:port)
    std::string
        bot_secret_key_file;  ///< backend secret key (hex) to mint the bots' tokens (local testing only)
    int metrics_port = -1;    ///< TCP port of the HTTP endpoint: /metrics and --web-root (-1 = none, 0 = any)
    std::string metrics_host = "0.0.0.0";  ///< address the metrics page binds
    int ws_port = -1;         ///< TCP port of the WebSocket listener for browser clients (-1 = none, 0 = any)
    std::string web_root;     ///< a directory served on the HTTP port (the browser client's page)
    bool agones = false;      ///< tell the Agones SDK sidecar Ready, Health, Shutdown and the players
    std::string record_path;  ///< write a world recording of the match here when the server stops
    int record_max_mb = 256;  ///< stop recording (keeping what was recorded) beyond this many MB
    std::string record_net;   ///< record the server's network session here (rewind-lab --replay-net)
    double seat_grace_s = 30.0;  ///< hold a lost client's seat this long for it to come back (0: free it)
    /// How entity lists are coded (kSnapshotCodecs: range, range-untrained, predicted or plain).
    std::string snapshot_codec = "range";
};

/// The server program: owns the transport, the session and the bots, and runs the real-time loop.
class ServerApp {
public:
    /// Binds the port and builds the session; io_error (port in use, ...) or invalid_config with a reason.
    [[nodiscard]] static rwd::Result<std::unique_ptr<ServerApp>> create(const ServerOptions& options,
                                                                        const RealClock& clock,
                                                                        const KvLog& log);
    /// Runs until --duration or a signal, then says goodbye to every client. Returns the exit code.
    int run(SignalWaiter& signals);
    /// The port actually bound.
    [[nodiscard]] std::uint16_t port() const { return udp_->local_address().port; }
    /// The WebSocket port, 0 when there is none.
    [[nodiscard]] std::uint16_t ws_port() const { return web_ ? web_->local_address().port : 0; }
    /// The port of the /metrics page, 0 when there is none.
    [[nodiscard]] std::uint16_t metrics_port() const { return metrics_ ? metrics_->port() : 0; }
    /// The HOST:PORT connect tokens must name; empty when tokens are not required.
    [[nodiscard]] const std::string& token_address() const { return public_address_; }
    /// Whether packets after the handshake are sealed (tokens are required).
    [[nodiscard]] bool encrypted() const { return sealing_key_.has_value(); }

private:
    ServerApp(const ServerOptions& options, const RealClock& clock, const KvLog& log)
        : options_(options), clock_(clock), log_(log) {}
    void manage_bots(rwd::Micros now);
    [[nodiscard]] int seated_bots() const;
    void status(rwd::Micros now);
    void shutdown(rwd::Micros now, SignalWaiter& signals);
    [[nodiscard]] std::string metrics_page() const;
    void tell_agones(rwd::Micros now);
    void save_recording();
    void save_net_recording();

    ServerOptions options_;
    const RealClock& clock_;
    const KvLog& log_;
    std::unique_ptr<rwd::transport::EnetTransport> udp_;
    std::unique_ptr<rwd::transport::WebSocketTransport> web_;     // --ws-port
    std::unique_ptr<rwd::transport::MuxTransport> mux_;           // udp_ and web_ as one (with --ws-port)
    std::unique_ptr<rwd::transport::RecordingTransport> netrec_;  // --record-net, around udp_ (or mux_)
    std::unique_ptr<rwd::client_server::Server<arena::ArenaGame>> server_;
    std::vector<std::unique_ptr<NetPlayer>> bots_;
    std::unique_ptr<MetricsEndpoint> metrics_;  // set with --metrics-port
    std::unique_ptr<AgonesSdk> agones_;         // set with --agones
    std::unique_ptr<rwd::client_server::WorldRecorder<arena::ArenaGame>> recorder_;  // set with --record
    std::vector<bool> agones_players_;              // slots Agones was told hold a human player
    std::vector<rwd::Micros> agones_seated_since_;  // when each seat was taken (-1: empty)
    std::vector<int> departed_bot_slots_;           // seats of bots that quit and are not unseated yet
    rwd::Micros next_agones_health_{};
    bool agones_failure_logged_ = false;
    bool recording_full_ = false;  // --record-max-mb reached: the recorder was detached
    std::uint64_t bots_started_ = 0;
    std::optional<rwd::auth::SecretKey> bot_key_;  // mints the bots' connect tokens when tokens are required
    std::optional<rwd::auth::SealingKey> sealing_key_;  // seals their keys (tokens required)
    std::string public_address_;                        // what those tokens name
    rwd::Micros wall_offset_{};                         // Unix time minus clock_.now()
    rwd::Micros next_bot_change_{};
    // status interval bookkeeping
    rwd::Micros last_status_{};
    std::uint64_t last_bytes_out_ = 0;
    std::uint64_t last_bytes_in_ = 0;
    std::uint64_t last_ticks_ = 0;
    rwd::Micros last_tick_time_{};
};

}  // namespace apps
