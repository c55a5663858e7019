// The lab's command-line options: model, match size, rates, the network scenario and the outputs.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace lab {

/// --max-rewind-ms not given: the server bounds each client's rewind by its own latency, not a fixed cap.
inline constexpr int kPerClientRewind = -1;

/// Impairment knobs of one direction as given on the command line; unset ones leave the profile's value.
struct LinkKnobs {
    std::optional<double> latency_ms;             ///< mean one-way delay
    std::optional<double> jitter_ms;              ///< standard deviation of the one-way delay
    std::optional<double> loss_pct;               ///< independent random loss, percent
    std::optional<double> burst_pct;              ///< per-packet chance of entering a loss burst, percent
    std::optional<double> burst_len;              ///< mean burst length in packets (all lost)
    std::optional<double> dup_pct;                ///< duplication, percent
    std::optional<double> reorder_pct;            ///< reordering, percent
    std::optional<std::uint32_t> bandwidth_kbps;  ///< bottleneck rate, 0 = unlimited
};

/// Everything a lab run is told.
struct LabOptions {
    std::string model = "client-server";   ///< which sync model to measure
    std::string game = "arena";            ///< rollback/lockstep: arena, or swarm (a world on the heap)
    std::optional<int> players;            ///< bot-driven players (unset: the model's default)
    double duration_s = 60.0;              ///< simulated seconds of the main match
    std::uint64_t seed = 1;                ///< seeds the network, the bots and the frame timing
    int tick_rate = 60;                    ///< simulation ticks per second
    int snapshot_rate = 30;                ///< snapshots per second (client-server)
    double render_fps = 144.0;             ///< client frame rate (deliberately not the tick rate)
    double frame_jitter = 0.25;            ///< each frame lasts 1/fps times a uniform factor in [1-j, 1+j]
    int max_rewind_ms = kPerClientRewind;  ///< a fixed lag-compensation cap, or each client's own latency
    int late_input_replay_ticks = 8;       ///< how far back the server replays a late input (0: never)
    bool encrypt = false;                ///< client-server passes with connect tokens and every packet sealed
    int max_compensated_rtt_ms = 250;    ///< RTT compensated in full (LagCompensationConfig; 250 there)
    bool neutral_remote_inputs = false;  ///< clients predict remote players standing still (the old way)
    bool shots_hit_unseen =
        false;                 ///< lag compensation counts players the shooter was not sent (the old way)
    int snapshot_budget = -1;  ///< snapshot byte budget (-1: the lab's default; 0: none)
    std::string snapshot_codec =
        "range";  ///< entity coding: range, range-untrained, predicted (bit-packed) or plain (previous)
    std::string profile = "checklist";  ///< base link profile for both directions ("none": a perfect link)
    std::string transport = "udp";      ///< client-server: udp (datagrams) or websocket (a TCP-like stream)
    LinkKnobs both;                     ///< knobs for both directions
    LinkKnobs up;                       ///< client -> server overrides
    LinkKnobs down;                     ///< server -> client overrides
    std::string json_path;              ///< write every figure here (empty: no JSON)
    std::string train_model_path;       ///< train the arena's snapshot model and write it here instead
    std::string plot_dir;               ///< write PNG charts here (empty: no charts)
    bool plot_worst = false;            ///< charts also draw the worst client's line
    std::string html_path;              ///< write a one-page HTML summary here (empty: none)
    std::string replay_path;            ///< write the match's replay or world recording here
    std::string replay_net_path;        ///< re-run this rewind-client network recording instead of a model
    int jobs = 0;                       ///< passes run at once (0: one per core); the figures do not change
    bool quiet = false;                 ///< print only the verdict table
    bool verbose = false;               ///< print everything measured per item, and the wide tables

    /// Ok, or invalid_config naming the first bad value.
    [[nodiscard]] rwd::Status validate() const;
    /// --players, or the model's default (8 client-server, 2 peers) when it was not given.
    [[nodiscard]] int player_count() const;
    /// --transport websocket: every client (and the server's side of it) on a TCP-like stream.
    [[nodiscard]] bool stream() const { return transport == "websocket"; }
};

/// Registers every option of `opts` on `app`.
void add_options(CLI::App& app, LabOptions& opts);

/// The client -> server link: profile, then `both`, then `up`; invalid_config if it does not validate.
[[nodiscard]] rwd::Result<rwd::transport::LinkConfig> up_link(const LabOptions& opts);
/// The server -> client link: profile, then `both`, then `down`.
[[nodiscard]] rwd::Result<rwd::transport::LinkConfig> down_link(const LabOptions& opts);

/// One line describing a link ("100 ms ± 20 ms, 5 % loss, ...").
std::string describe_link(const rwd::transport::LinkConfig& link);

}  // namespace lab
