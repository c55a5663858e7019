/// RewindLimit: how far back the server judges one client's shots: its own latency, not a fixed cap.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>

#include <cstdint>

namespace rwd::sync {

/// Settings for per-client lag compensation; every number is a default a game may tune (docs/TUNING.md).
struct LagCompensationConfig {
    int tick_rate_hz = 60;                    ///< 1..1000
    Micros max_compensated_rtt{250'000};      ///< RTT compensated in full up to this (Overwatch: 250 ms);
                                              ///< a slower client gets this much and must lead its shots
    Micros max_interpolation_delay{150'000};  ///< the most interpolation delay a client may claim, 0..1 s
    double jitter_margin_factor = 4.0;        ///< margin = this x measured RTT jitter (mean absolute
                                        ///< deviation; 4 of them are ~3.2 sigma of normal jitter), 0..16
    Micros max_jitter_margin{100'000};        ///< cap on that margin, 0..1 s
    double quantization_ticks = 1.0;          ///< slack for whole-tick input and view stamps, 0..4
    double max_extra_input_lead_ticks = 4.0;  ///< inputs measured arriving earlier than the buffer target
                                              ///< are compensated up to this much more (a client easing a
                                              ///< resync surplus away), 0..16

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
    /// The longest limit this config can produce for input buffers up to `max_input_buffer_ticks`.
    [[nodiscard]] Micros longest_limit(int max_input_buffer_ticks) const;
};

/// What the server knows of one client's latency. All but the RTT come from or depend on the client.
struct ClientLatency {
    Micros rtt{};                   ///< the server's own RTT measurement of this client (median)
    Micros rtt_jitter{};            ///< its spread (mean absolute deviation from the median)
    Micros interpolation_delay{};   ///< what the client says it renders behind the server (untrusted)
    int input_buffer_ticks = 0;     ///< the input buffer target the server asked of this client
    double input_lead_ticks = 0.0;  ///< how early its inputs arrive, as the server measures it (smoothed)
};

/// The oldest view time the server accepts for one client's shots, and what it is made of.
struct RewindLimit {
    std::int64_t max_rewind_q16 = 0;  ///< a view may be at most this far before `now`, in 1/65536 ticks
    Micros total{};                   ///< the same as time: the sum of the parts below
    Micros compensated_rtt{};         ///< min(rtt, max_compensated_rtt)
    Micros interpolation_delay{};     ///< the claim, bounded to 0..max_interpolation_delay
    Micros input_buffer{};            ///< input_buffer_ticks, or the measured lead up to the extra, as time
    Micros jitter_margin{};           ///< jitter_margin_factor x rtt_jitter, capped
    Micros quantization{};            ///< quantization_ticks as time
    bool rtt_capped = false;          ///< the RTT was beyond max_compensated_rtt
    bool interpolation_clamped =
        false;  ///< the claimed interpolation delay was out of bounds (a lie or a bug)
};

/// The rewind limit for one client: its RTT capped at the compensated latency, plus the interpolation delay
/// it reports (bounded by the config), plus the input buffer the server asked for (or the lead its inputs
/// are measured arriving with, when larger, by at most max_extra_input_lead_ticks), plus a jitter margin from
/// its measured RTT jitter and one tick of stamp quantization. A view older than this is a lie about latency
/// (or latency beyond what is compensated): HitboxHistory::clamp(view, now, limit) clamps it and counts it.
/// Pure: negative or absurd inputs are clamped, never trusted. `config` must be valid.
[[nodiscard]] RewindLimit rewind_limit(const LagCompensationConfig& config, const ClientLatency& client);

/// Counters of LagCompensation::limit_for().
struct LagCompensationStats {
    std::uint64_t limits = 0;                 ///< limits computed
    std::uint64_t interpolation_clamped = 0;  ///< claims of interpolation delay out of bounds
    std::uint64_t rtt_capped = 0;             ///< clients beyond the compensated RTT
};

/// rewind_limit() with its config and counters: one per server.
class LagCompensation {
public:
    /// An invalid config is a programmer error (asserts; use validate() first).
    explicit LagCompensation(LagCompensationConfig config = {});
    /// The limit for one client (see rewind_limit()), counted.
    RewindLimit limit_for(const ClientLatency& client);
    /// Everything counted so far.
    [[nodiscard]] const LagCompensationStats& stats() const { return stats_; }
    /// The configuration in use.
    [[nodiscard]] const LagCompensationConfig& config() const { return config_; }

private:
    LagCompensationConfig config_;
    LagCompensationStats stats_{};
};

}  // namespace rwd::sync
