// What one rollback or lockstep lab pass measured: per-peer session figures, determinism checks, time series.
#pragma once

#include "stats_util.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace lab {

/// One peer's figures at the end of a pass.
struct RbPeerFigures {
    int index = 0;                              ///< the peer's slot
    std::int64_t final_frame = 0;               ///< next frame it would simulate
    std::int64_t confirmed_frame = -1;          ///< newest frame with every input final
    std::uint64_t frames_advanced = 0;          ///< frames simulated the first time
    std::uint64_t frames_resimulated = 0;       ///< frames simulated again by rollbacks
    std::uint64_t rollbacks = 0;                ///< rollbacks
    std::vector<std::uint64_t> rollback_depth;  ///< rollbacks by depth (index = frames re-simulated)
    int max_depth = 0;                          ///< deepest rollback
    double resimulated_per_s = 0;               ///< frames re-simulated per second of running
    double resim_us_per_frame = 0;  ///< rollback time (load + re-simulation + saves) per re-simulated frame
    double step_us = 0;             ///< mean time of one G::step
    double save_us = 0;             ///< mean time of one save
    double load_us = 0;             ///< mean time of one load
    double max_rollback_us = 0;     ///< the most expensive rollback
    std::uint64_t stalls_prediction = 0;  ///< advance() refused at the prediction threshold (lockstep: waits)
    std::uint64_t stalls_time_sync = 0;   ///< frames skipped by the time-sync backstop
    std::uint64_t time_sync_events = 0;   ///< changes of the recommended speed
    double time_scale_min = 1, time_scale_max = 1;  ///< range of the recommended speed followed
    Dist frames_ahead;                              ///< |frames ahead of the slowest peer|, sampled
    std::uint64_t checksums_compared = 0;           ///< checksums the session compared with its peers
    std::uint64_t desyncs = 0;                      ///< desync events raised by the session
    std::uint64_t malformed = 0;                    ///< packets dropped as malformed
    double kbps_sent = 0;           ///< mean send rate to all peers (payload + transport header)
    double kbps_received = 0;       ///< mean receive rate from all peers
    double ping_ms = 0;             ///< mean smoothed RTT to its peers at the end
    std::uint64_t disconnects = 0;  ///< players it saw disconnect (must be 0)
    int input_delay_start = 0;      ///< the input delay of its first frame (chosen from the handshake)
    int input_delay_min = 0;        ///< the least it used
    int input_delay_max = 0;        ///< the most it used
    int input_delay_final = 0;      ///< at the end
    std::uint64_t input_delay_changes = 0;  ///< changes the adaptation made
    double advanced_share = 0;              ///< frames advanced / wall-clock frames since it started running
};

/// The determinism check of a pass.
struct RbDeterminism {
    std::int64_t frames = 0;                  ///< confirmed frames every peer has (0..frames-1)
    std::uint64_t pair_comparisons = 0;       ///< (peer pair, frame) checksum comparisons
    std::uint64_t pair_mismatches = 0;        ///< of those, different
    std::int64_t first_pair_mismatch = -1;    ///< first frame two peers disagree on
    std::uint64_t replay_comparisons = 0;     ///< (peer, frame) comparisons against the single-process replay
    std::uint64_t replay_mismatches = 0;      ///< of those, different
    std::int64_t first_replay_mismatch = -1;  ///< first frame a peer disagrees with the replay
    std::uint64_t input_comparisons =
        0;  ///< (peer, slot, frame) confirmed inputs checked against what was sent
    std::uint64_t input_mismatches = 0;   ///< of those, different
    std::uint64_t missing_checksums = 0;  ///< confirmed frames whose checksum a peer could not report
    std::uint64_t desync_events = 0;      ///< desync_detected events, all peers
};

/// One sample of one peer over time.
struct RbSample {
    double t = 0;             ///< seconds since the pass started
    int peer = 0;             ///< which peer
    int max_depth = 0;        ///< deepest rollback since the previous sample
    double frames_ahead = 0;  ///< the session's frames_ahead()
    double time_scale = 1;    ///< the recommended speed
    double resim_per_s = 0;   ///< frames re-simulated per second since the previous sample
};

/// Everything a pass measured.
/// The replay file a pass wrote of its first peer's session (--save-replay).
struct RbReplayFigures {
    std::string path;                    ///< where it was written ("" when the pass wrote none)
    std::string error;                   ///< why it could not be recorded or written ("" when it was)
    std::int64_t frames = 0;             ///< confirmed frames recorded
    std::uint64_t checksums = 0;         ///< checksum records
    std::uint64_t checksums_missed = 0;  ///< checksum frames the session no longer held when recorded
    std::uint64_t bytes = 0;             ///< file size
    // The file read back and played by ReplayPlayer from the initial State its header describes:
    std::uint64_t played_checksums = 0;   ///< checksum frames verified
    std::uint64_t played_mismatches = 0;  ///< of those, different
    std::uint64_t frames_compared = 0;    ///< every played frame compared with the first peer's own hash
    std::uint64_t frames_differing = 0;   ///< of those, different
    std::uint64_t seeks = 0;              ///< seeks to seeded frames, each compared with the straight play
    std::uint64_t seek_mismatches = 0;    ///< of those, different
    double seek_frames_mean = 0;          ///< frames simulated per seek (saved states every 2 s)
};

struct RbFigures {
    std::string mode;                           ///< "rollback" or "lockstep"
    std::string game;                           ///< "arena" or "swarm"
    int players = 2;                            ///< peers
    int input_delay = 2;                        ///< frames of input delay
    int max_prediction = 8;                     ///< prediction window (0 = lockstep)
    double simulated_s = 0;                     ///< simulated seconds of the match (after the mesh connected)
    double running_s = 0;                       ///< of those, with every session running
    double wall_s = 0;                          ///< wall seconds the pass took
    double connect_s = 0;                       ///< simulated seconds the transport mesh took to connect
    std::vector<RbPeerFigures> peers;           ///< per peer
    std::vector<std::uint64_t> rollback_depth;  ///< rollbacks by depth, all peers
    std::uint64_t rollbacks = 0;                ///< all peers
    std::uint64_t frames_resimulated = 0;       ///< all peers
    double resimulated_per_s = 0;               ///< all peers, per peer-second of running
    double resim_us_per_frame = 0;              ///< all peers
    std::uint64_t stalls_prediction = 0;        ///< all peers
    std::uint64_t stalls_time_sync = 0;         ///< all peers
    std::uint64_t time_sync_events = 0;         ///< all peers
    Dist frames_ahead;                          ///< all peers' samples
    RbDeterminism determinism;                  ///< the graded check
    RbReplayFigures replay;                     ///< the replay file written, if asked for
    std::vector<RbSample> samples;              ///< time series for the charts
};

void to_json(nlohmann::json& j, const RbPeerFigures& p);
void to_json(nlohmann::json& j, const RbDeterminism& d);
void to_json(nlohmann::json& j, const RbReplayFigures& r);
void to_json(nlohmann::json& j, const RbFigures& f);

}  // namespace lab
