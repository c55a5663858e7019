// One client-server lab pass: a server, bot-driven clients (and optionally the probe) on SimNetwork, virtual
// time.
#pragma once

#include "cs_figures.hpp"
#include "options.hpp"

#include <rewind/session/client_server/snapshot_config.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstdint>
#include <string>

namespace lab {

/// How the clients' players are driven.
enum class BotMode {
    fight,   ///< arena bots that hunt and shoot each other
    wander,  ///< the same bots blind to other players: movement only
    script,  ///< a fixed seeded script of moves, dashes, shots and reloads (one player, own actions only)
};

/// Snapshots' worth of bytes the lab's burst allowance holds (SnapshotConfig::burst_bytes = this x budget).
inline constexpr int kBurstSnapshots = 8;
/// The snapshot settings the lab runs the arena with (bandwidth_grades.cpp).
rwd::client_server::SnapshotConfig lab_snapshot_config();

/// What one pass runs.
struct PassConfig {
    std::string name = "main";             ///< names the pass in the figures
    int players = 8;                       ///< bot clients
    double duration_s = 60;                ///< simulated seconds after the server starts
    std::uint64_t seed = 1;                ///< network, bots and frame timing
    int tick_rate = 60;                    ///< server and client tick rate
    int snapshot_rate = 30;                ///< server snapshot rate
    double fps = 144;                      ///< client render frames per second
    double frame_jitter = 0.25;            ///< frame time spread
    int max_rewind_ms = kPerClientRewind;  ///< a fixed server lag-compensation cap, or per client
    int late_input_replay_ticks = 8;       ///< ServerConfig::late_input_replay_ticks (0: repeats stand)
    int max_compensated_rtt_ms = 250;      ///< LagCompensationConfig::max_compensated_rtt
    bool predict_remote_inputs = true;     ///< ClientConfig::predict_remote_inputs
    bool judge_shots_as_seen = true;       ///< ServerConfig::judge_shots_as_seen
    rwd::transport::LinkConfig up;         ///< client -> server
    rwd::transport::LinkConfig down;       ///< server -> client
    bool stream = false;                   ///< clients on a TCP-like stream (websocket)
    BotMode bots = BotMode::fight;         ///< who drives the players
    bool probe = false;                    ///< add the adversarial probe client
    bool chat = true;                      ///< clients send chat lines (reliable events) every second
    bool series = false;                   ///< keep overlay samples and corrections for the charts
    bool compare_own = false;  ///< compare the predicted own entity with the server's tick by tick
    rwd::client_server::SnapshotConfig snapshots = lab_snapshot_config();  ///< area of interest, budget
    bool bandwidth_check = false;  ///< measure full snapshots and the area of interest (bandwidth_grades.hpp)
    bool sealed =
        false;  ///< connect tokens, every packet after the hello sealed (--encrypt), as in production
    std::string record_path;  ///< write a world recording of the server here, and check it (--save-replay)
};

/// Runs the pass and returns what it measured.
PassFigures run_pass(const PassConfig& config);

}  // namespace lab
