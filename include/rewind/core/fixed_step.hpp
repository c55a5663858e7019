/// FixedStep: turns elapsed real time into whole fixed simulation ticks plus the overstep fraction for
/// rendering.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>

#include <cstdint>

namespace rwd {

/// Settings for a FixedStep.
struct FixedStepConfig {
    int tick_rate_hz = 60;         ///< simulation ticks per second, 1..1000
    int max_ticks_per_update = 8;  ///< cap on ticks one advance() returns (spiral-of-death guard), 1..1000

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// An accumulator for a fixed-rate simulation. Time is kept as an exact rational (microseconds x tick rate x
/// time scale in parts per million), so 60 Hz never drifts: one simulated hour at 60 Hz is exactly 216000
/// ticks, however the hour is cut into frames. Nothing here reads a clock; the caller passes elapsed time in.
class FixedStep {
public:
    /// Slowest time scale accepted (0 pauses the simulation).
    static constexpr double kMinTimeScale = 0.0;
    /// Fastest time scale accepted.
    static constexpr double kMaxTimeScale = 4.0;

    /// A step with nothing accumulated. An invalid config is a programmer error (asserts; clamped in
    /// release).
    explicit FixedStep(FixedStepConfig config = {});

    /// Adds `elapsed` real time (scaled by time_scale()) and returns how many whole ticks to run now, at most
    /// max_ticks_per_update; whole ticks beyond the cap are dropped and counted in dropped_ticks(), the
    /// fraction is kept. Negative elapsed (a clock that stepped back) counts as zero.
    int advance(Micros elapsed);

    /// How far the simulation is into the next tick, in [0, 1): render at lerp(previous, current, alpha()).
    [[nodiscard]] double alpha() const;

    /// Runs the simulation `scale` times as fast as real time (e.g. 1.02 to catch up, 0.98 to fall back).
    /// Kept to a resolution of one part per million; clamped to [kMinTimeScale, kMaxTimeScale], NaN is
    /// ignored.
    void set_time_scale(double scale);
    /// The current time scale (as stored, i.e. rounded to one part per million).
    [[nodiscard]] double time_scale() const;

    /// The nominal length of one tick at time scale 1, rounded to the nearest microsecond (16667 us at 60
    /// Hz). For display and coarse conversions only; the accumulator itself never uses this rounded value.
    [[nodiscard]] Micros tick_duration() const;
    /// The configured tick rate in Hz.
    [[nodiscard]] int tick_rate_hz() const { return config_.tick_rate_hz; }
    /// Whole ticks discarded by the max_ticks_per_update cap since construction.
    [[nodiscard]] std::uint64_t dropped_ticks() const { return dropped_ticks_; }
    /// Ticks returned by advance() since construction.
    [[nodiscard]] std::uint64_t ticks_run() const { return ticks_run_; }
    /// Forgets the accumulated fraction (alpha becomes 0); counters and time scale stay.
    void reset_accumulator() { accumulator_ = 0; }

private:
    FixedStepConfig config_;
    std::int64_t scale_ppm_ = 1'000'000;  ///< time scale in parts per million
    std::int64_t accumulator_ = 0;        ///< in units of 1e-12 tick (us x Hz x ppm); always < kUnitsPerTick
    std::uint64_t dropped_ticks_ = 0;
    std::uint64_t ticks_run_ = 0;
};

}  // namespace rwd
