/// VisualSmoother: turns small prediction corrections into a decaying visual offset, and snaps large ones.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>

#include <cstdint>

namespace rwd::sync {

/// A displacement in metres (2D games leave z at 0).
struct Offset3 {
    double x = 0.0;  ///< metres
    double y = 0.0;  ///< metres
    double z = 0.0;  ///< metres
};

/// Settings for VisualSmoother.
struct VisualSmootherConfig {
    Micros time_constant = Micros{100'000};  ///< the offset shrinks by e every this long, > 0
    double snap_distance_m = 2.0;   ///< corrections (or accumulated offsets) longer than this snap, > 0
    double rest_distance_m = 1e-4;  ///< offsets shorter than this become exactly 0, >= 0

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// Counters of the corrections seen.
struct VisualSmootherStats {
    std::uint64_t smoothed = 0;  ///< corrections turned into a decaying offset
    std::uint64_t snapped = 0;   ///< corrections too large to hide: the view jumped
};

/// The simulation stays exact; only the drawn position lags behind a correction and catches up. Draw the
/// predicted player at position + offset(). Time is passed in (advance()); nothing reads a clock.
class VisualSmoother {
public:
    /// A smoother at rest. An invalid config is a programmer error (asserts; use validate() first).
    explicit VisualSmoother(VisualSmootherConfig config = {});

    /// A correction moved the predicted position by -`error_m` (error = old position - new position): the
    /// view keeps showing the old position (offset += error) and decays toward the new one, unless the result
    /// is longer than snap_distance_m, in which case the offset is cleared (snap). Non-finite errors snap.
    void on_correction(Offset3 error_m);
    /// Lets `elapsed` time pass: offset *= exp(-elapsed / time_constant). Negative elapsed counts as zero.
    void advance(Micros elapsed);
    /// Clears the offset (e.g. after a respawn or teleport).
    void reset() { offset_ = {}; }

    /// The offset to add to the drawn position, in metres.
    [[nodiscard]] Offset3 offset() const { return offset_; }
    /// The offset's length in metres.
    [[nodiscard]] double magnitude() const;
    /// Everything counted so far.
    [[nodiscard]] const VisualSmootherStats& stats() const { return stats_; }

private:
    VisualSmootherConfig config_;
    Offset3 offset_{};
    VisualSmootherStats stats_{};
};

}  // namespace rwd::sync
