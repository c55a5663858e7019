/// TimeSync: frame-advantage bookkeeping per peer and the recommended speed change that keeps peers in step.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace rwd::rollback {

/// Averages the two views of the frame advantage between us and one peer (ours and the one it reports) over a
/// sliding window. All arithmetic is 64-bit or double: peers any number of frames apart (beyond the range of
/// 8- or 16-bit integers, where other libraries overflowed) still give the right sign and size.
class TimeSync {
public:
    /// Samples in the sliding window.
    static constexpr std::size_t kWindow = 32;

    /// Records our advantage over the peer: (its estimated current frame) - (our frame). Negative = we are
    /// ahead.
    void add_local(std::int64_t advantage);
    /// Records the advantage the peer reports over us (its view of the same quantity).
    void add_remote(std::int64_t advantage);
    /// How many frames we are ahead of the peer: (remote_avg - local_avg) / 2. Positive = we should slow
    /// down.
    [[nodiscard]] double frames_ahead() const;
    /// Whether both views have at least one sample.
    [[nodiscard]] bool has_samples() const { return local_count_ > 0 && remote_count_ > 0; }
    /// Forgets all samples.
    void reset();

private:
    std::array<std::int64_t, kWindow> local_{};
    std::array<std::int64_t, kWindow> remote_{};
    std::size_t local_count_ = 0;
    std::size_t remote_count_ = 0;
    std::size_t local_next_ = 0;
    std::size_t remote_next_ = 0;
};

/// The recommended speed for a session `frames_ahead` frames ahead of its slowest peer: 1 - gain * ahead,
/// clamped to [1 - max_adjust, 1 + max_adjust], exactly 1 inside +-deadband. Slower when ahead, faster when
/// behind.
[[nodiscard]] double recommend_time_scale(double frames_ahead, double gain, double max_adjust,
                                          double deadband);

/// Clamps a 64-bit frame difference into int32 for the wire (saturating, never wrapping).
[[nodiscard]] std::int32_t saturate_advantage(std::int64_t advantage);

}  // namespace rwd::rollback
