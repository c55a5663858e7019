/// ClockSync: the client's estimate of RTT and the server tick, and the time scale that keeps its tick on
/// target.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/sync/frac_tick.hpp>

#include <array>
#include <cstdint>

namespace rwd::sync {

/// Settings for ClockSync; every number is a default a game may tune (see docs/TUNING.md).
struct ClockSyncConfig {
    int tick_rate_hz = 60;                      ///< simulation ticks per second, 1..1000
    int rtt_window = 10;                        ///< RTT samples in the median, 1..kMaxRttWindow
    Micros max_rtt = Micros{5'000'000};         ///< RTT samples above this (or negative) are rejected
    double safety_margin_ticks = 2.0;           ///< lead beyond RTT/2 so inputs arrive early, 0..16
    double server_estimate_gain = 0.1;          ///< share of each server-tick sample's error applied, (0, 1]
    double server_estimate_reset_ticks = 30.0;  ///< a server-tick sample this far off re-anchors at once, > 0
    double gain_per_tick = 0.01;                ///< time scale change per tick of error (0.01 = 1 %), > 0
    double max_adjust = 0.05;                   ///< cap on |time_scale - 1|, 0..0.05
    double hard_resync_ticks = 16.0;            ///< a client-tick error beyond this jumps instead, > 1
    double target_input_offset_ticks =
        2.0;                          ///< how early the server should see inputs (its jitter buffer), 0..16
    double input_offset_gain = 0.02;  ///< share of the input-offset error added per report, 0..1
    double max_input_offset_correction_ticks = 8.0;  ///< cap on the accumulated offset correction, >= 0
    double settled_ticks = 1.0;  ///< offset reports are used only while |error| < this, > 0

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// What the client should do with its FixedStep after ClockSync::update().
struct ClockAdjust {
    double time_scale = 1.0;   ///< pass to FixedStep::set_time_scale(), in [1 - max_adjust, 1 + max_adjust]
    bool resync = false;       ///< true: jump the client tick to `resync_to` (first sync or a large error)
    FracTick resync_to{};      ///< where to jump when `resync` is set
    double error_ticks = 0.0;  ///< target - client tick before this adjustment (positive: client is behind)
};

/// Counters of everything ClockSync sees and does.
struct ClockSyncStats {
    std::uint64_t rtt_samples = 0;             ///< accepted RTT samples
    std::uint64_t rejected_rtt_samples = 0;    ///< negative or above max_rtt (untrusted echo times)
    std::uint64_t server_tick_samples = 0;     ///< accepted server tick stamps
    std::uint64_t stale_server_ticks = 0;      ///< stamps older than one already seen (reordered), ignored
    std::uint64_t server_estimate_resets = 0;  ///< re-anchors of the server-tick estimate after a large error
    std::uint64_t input_offset_reports = 0;    ///< server-reported input arrival offsets used
    std::uint64_t ignored_offset_reports =
        0;                            ///< reports received while not settled (or non-finite), not used
    std::uint64_t initial_syncs = 0;  ///< first jumps onto the target
    std::uint64_t hard_resyncs = 0;   ///< later jumps for errors beyond hard_resync_ticks
};

/// The client's clock: RTT (median of the last samples) and jitter from ping/pong times, a smoothed estimate
/// of the server's current (fractional) tick from the tick stamps on snapshots plus RTT/2, and the client
/// tick target = estimated server tick + RTT/2 + safety margin + a slow correction from the server-reported
/// input arrival offset. update() turns the error against the target into a small time scale (proportional,
/// at most max_adjust) or, for large errors only, a hard resync. Nothing here reads a clock: `now` is passed
/// in.
class ClockSync {
public:
    /// Largest accepted rtt_window.
    static constexpr int kMaxRttWindow = 32;

    /// A clock with no samples. An invalid config is a programmer error (asserts; use validate() first).
    explicit ClockSync(ClockSyncConfig config = {});

    /// A pong arrived at `now` for a ping sent at `sent_at`; the server held it `server_hold` before
    /// replying.
    void on_pong(Micros sent_at, Micros now, Micros server_hold = Micros{0});
    /// A message stamped with server tick `server_tick` arrived at `now`.
    void on_server_tick(Tick server_tick, Micros now);
    /// The server reports this client's inputs arrive `early_ticks` early (negative: late), smoothed.
    void on_input_offset(double early_ticks);
    /// The server said how early it wants inputs (its jitter buffer target): aim there from now on. The lead
    /// changes by the change of target, released by update() only as fast as the time scale can follow
    /// (never a resync). Values outside 0..16 (or non-finite) are ignored and false is returned.
    bool set_target_input_offset(double ticks);

    /// The error of `client_now` (the client's tick plus its FixedStep alpha) against the target at `now`,
    /// turned into a time scale, or a resync for the first sync and for errors beyond hard_resync_ticks.
    /// Until ready(), returns time scale 1 and no resync.
    ClockAdjust update(Micros now, FracTick client_now);

    /// True once at least one RTT sample and one server tick stamp have arrived.
    [[nodiscard]] bool ready() const { return rtt_count_ > 0 && has_estimate_; }
    /// Median of the last rtt_window RTT samples (0 before any).
    [[nodiscard]] Micros rtt() const { return rtt_median_; }
    /// Mean absolute deviation of the RTT samples in the window from their median.
    [[nodiscard]] Micros jitter() const { return jitter_; }
    /// The estimated current server tick at `now` (meaningful once ready()).
    [[nodiscard]] FracTick estimated_server_tick(Micros now) const;
    /// The tick the client should be at, at `now` (meaningful once ready()).
    [[nodiscard]] FracTick target_tick(Micros now) const;
    /// RTT/2 + safety margin + offset correction + the target changes released so far, in ticks: how far the
    /// client leads the server.
    [[nodiscard]] double lead_ticks() const;
    /// The part of a target change not yet added to the lead, in ticks.
    [[nodiscard]] double pending_target_shift() const { return pending_shift_; }
    /// The accumulated correction from the server-reported input offsets, in ticks.
    [[nodiscard]] double input_offset_correction() const { return offset_correction_; }
    /// The last reported input arrival offset (ticks early).
    [[nodiscard]] double last_input_offset() const { return last_offset_; }
    /// The time scale last returned by update().
    [[nodiscard]] double time_scale() const { return last_scale_; }
    /// The error last measured by update(), in ticks (target - client).
    [[nodiscard]] double last_error_ticks() const { return last_error_; }
    /// Everything counted so far.
    [[nodiscard]] const ClockSyncStats& stats() const { return stats_; }
    /// The configuration in use.
    [[nodiscard]] const ClockSyncConfig& config() const { return config_; }

private:
    [[nodiscard]] double micros_to_ticks(Micros m) const;
    void recompute_rtt();
    /// Moves as much of a pending target change into the lead as the time scale can chase; returns it.
    double release_shift(Micros now, FracTick client_now);

    ClockSyncConfig config_;
    std::array<std::int64_t, kMaxRttWindow> rtt_ring_{};  ///< microseconds
    int rtt_count_ = 0;
    int rtt_next_ = 0;
    Micros rtt_median_{};
    Micros jitter_{};
    bool has_estimate_ = false;
    FracTick anchor_{};  ///< the estimated server tick at anchor_time_
    Micros anchor_time_{};
    Tick newest_stamp_{};
    bool synced_ = false;
    bool settled_ = false;
    double offset_correction_ = 0.0;
    double target_shift_ = 0.0;   ///< target changes released into the lead
    double pending_shift_ = 0.0;  ///< target changes still to release
    double last_offset_ = 0.0;
    double last_scale_ = 1.0;
    double last_error_ = 0.0;
    ClockSyncStats stats_{};
};

}  // namespace rwd::sync
