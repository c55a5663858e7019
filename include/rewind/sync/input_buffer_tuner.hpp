/// InputBufferTuner: the server's per-client input buffer target, derived from the measured arrival spread.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>

#include <array>
#include <cstdint>

namespace rwd::sync {

/// Settings for InputBufferTuner; every number is a default a game may tune (see docs/TUNING.md).
struct InputBufferTunerConfig {
    int min_ticks = 1;              ///< smallest target (a 0 ms link stays here), 0..kMaxTicks
    int max_ticks = 8;              ///< largest target, min_ticks..kMaxTicks
    double max_late_share = 0.002;  ///< share of inputs allowed to arrive after their tick, (0, 0.1]
    Micros window{10'000'000};      ///< arrivals the spread is measured over, 1..60 s
    Micros lower_hold{3'000'000};   ///< the spread must stay low this long before the target drops, 0..window
    int center_half_window = 30;  ///< arrivals on each side of the median the spread is measured from, 4..120
    int min_samples = 60;         ///< spreads in the window before it may rise or on_link() stops, 1..4096

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// Counters of everything InputBufferTuner sees and does.
struct InputBufferTunerStats {
    std::uint64_t arrivals = 0;         ///< arrival offsets offered
    std::uint64_t clamped_offsets = 0;  ///< offsets beyond ±kMaxOffset (garbage or pre-sync), clamped
    std::uint64_t time_reversals = 0;   ///< calls whose `now` went backwards (treated as the last `now`)
    std::uint64_t spread_samples = 0;   ///< deviations from the running median recorded
    std::uint64_t raises = 0;           ///< target increases
    std::uint64_t lowers = 0;           ///< target decreases
    std::uint64_t link_changes = 0;     ///< target changes by on_link() before the spread was measured
};

/// One client's input buffer target on the server. Feed it the arrival offset of every accepted input packet
/// (InputJitterBuffer::last_first_arrival_offset_ticks(): the oldest input it brought first - next tick to
/// play, so 0 = just in time and negative = late; a packet after lost ones shows the ticks they cost). The
/// client's clock sync steers the mean offset onto the target, so what decides lateness
/// is the spread: how far one arrival lands below the typical one. Each arrival's spread is measured against
/// the median of the arrivals around it (centered, so a lead that is moving toward a new target adds no bias
/// and a step in latency adds none either), binned over a sliding time window. The target is the smallest
/// depth at which at most max_late_share of arrivals would be late; because a few seconds of correlated
/// jitter hold too few independent samples to measure a 0.2 % tail, the tail is also extrapolated by a normal
/// tail fitted at the deepest well-measured spread, and the result never exceeds the measured p99.9 spread +
/// 1 tick. A larger target is taken at once; a smaller one only after the spread measured over the last
/// lower_hold alone has asked for less for lower_hold (the old samples are then forgotten). Nothing here
/// reads a clock.
class InputBufferTuner {
public:
    /// Largest configurable target.
    static constexpr int kMaxTicks = 32;
    /// Arrival offsets are clamped to ±kMaxOffset ticks.
    static constexpr int kMaxOffset = 64;
    /// Time buckets in the window.
    static constexpr int kBuckets = 16;
    /// Spread histogram bins: bin k holds spreads rounding to k ticks (0: below 0.5, the last: all beyond).
    static constexpr int kSpreadBins = kMaxTicks + 2;

    /// A tuner at min_ticks with no samples. An invalid config is a programmer error (asserts; use
    /// validate()).
    explicit InputBufferTuner(InputBufferTunerConfig config = {});

    /// Forgets every sample and drops the target to min_ticks (a new client, or a resynced one).
    void reset();
    /// One accepted input packet that brought a new input arrived at `now`, its oldest new input
    /// `early_ticks` before the tick that needs it.
    void on_arrival(std::int32_t early_ticks, Micros now);

    /// The link as the transport measures it: the mean deviation of the round-trip time, and the tick length.
    /// Until the tuner has measured min_samples spreads of its own (about two seconds of inputs), the target
    /// is the depth at which a normal one-way spread of that size would leave max_late_share of arrivals
    /// late (within the config range), following the transport's estimate up and down as it narrows, so that
    /// a client's first seconds on a jittery link are not played on the minimum. From the first measured
    /// estimate on the tuner goes its own way (a deeper estimate at once, a shallower one after the hold; a
    /// guess 3 or more ticks above that estimate, as a transport's wide first deviation on a long quiet link
    /// gives, is dropped at once), and this is ignored.
    void on_link(Micros rtt_deviation, Micros tick_length);
    /// True once min_samples spreads have been measured since the last reset (the link estimate is done).
    [[nodiscard]] bool measured() const { return measured_; }
    /// The buffer depth the client should aim for, in ticks (send it with the arrival offset).
    [[nodiscard]] int target_ticks() const { return target_; }
    /// The target the whole window asks for right now, before the hold and the config range.
    [[nodiscard]] int window_target_ticks() const { return window_target_; }
    /// Measured p95 spread over the window, in ticks (0 before any sample).
    [[nodiscard]] double spread_p95_ticks() const { return p95_; }
    /// Measured p99.9 spread over the window, in ticks (0 before any sample).
    [[nodiscard]] double spread_p999_ticks() const { return p999_; }
    /// Spread samples in the window.
    [[nodiscard]] std::uint32_t window_samples() const { return window_count_; }
    /// Everything counted so far.
    [[nodiscard]] const InputBufferTunerStats& stats() const { return stats_; }
    /// The configuration in use.
    [[nodiscard]] const InputBufferTunerConfig& config() const { return config_; }

private:
    static constexpr int kCenterCapacity = 2 * 120 + 1;
    static constexpr int kOffsetValues = 2 * kMaxOffset + 1;

    struct Bucket {
        Micros start{};
        std::uint32_t count = 0;
        std::array<std::uint32_t, kSpreadBins> bins{};
    };
    struct Estimate {
        int target = 0;
        double p95 = 0.0;
        double p999 = 0.0;
        std::uint32_t n = 0;
        bool valid = false;
    };

    void add_spread(double spread);
    /// Expires old buckets and opens a new one when due; true if one was closed by that.
    bool advance_buckets(Micros now);
    void drop_bucket(int index);
    void evaluate(Micros now, bool bucket_closed);
    /// The spread histogram of the buckets that started within lower_hold of `now`, and its count in `n`.
    [[nodiscard]] std::array<std::uint32_t, kSpreadBins> recent_bins(Micros now, std::uint32_t& n) const;
    [[nodiscard]] double center_median() const;
    [[nodiscard]] Estimate estimate(const std::array<std::uint32_t, kSpreadBins>& bins, std::uint32_t n,
                                    std::uint32_t min_n, double late_share) const;

    InputBufferTunerConfig config_;
    Micros bucket_len_{};
    // The centered median: the last 2K+1 offsets in arrival order and their histogram.
    std::array<std::int8_t, kCenterCapacity> center_ring_{};
    std::array<std::uint16_t, kOffsetValues> center_hist_{};
    int center_count_ = 0;
    int center_next_ = 0;
    // The window: kBuckets time buckets (a ring, oldest at first_) and their sum.
    std::array<Bucket, kBuckets> buckets_{};
    int first_ = 0;
    int used_ = 0;
    std::array<std::uint32_t, kSpreadBins> window_bins_{};
    std::uint32_t window_count_ = 0;
    Micros last_now_{};
    bool has_time_ = false;
    int target_ = 0;
    int window_target_ = 0;
    double p95_ = 0.0;
    double p999_ = 0.0;
    bool measured_ = false;   ///< min_samples spreads seen since reset: on_link() no longer counts
    bool from_link_ = false;  ///< the target is still on_link()'s guess (no estimate has judged it yet)
    bool lowering_ = false;   ///< the recent spread has asked for less since low_since_
    Micros low_since_{};
    InputBufferTunerStats stats_{};
};

}  // namespace rwd::sync
