// TimeSync: sliding averages of frame advantage and the recommended speed change.
#include <rewind/session/rollback/time_sync.hpp>

#include <algorithm>
#include <limits>

namespace rwd::rollback {
namespace {
double average(const std::array<std::int64_t, TimeSync::kWindow>& v, std::size_t count) {
    if (count == 0) return 0.0;
    double sum = 0.0;  // double: kWindow samples of any int64 size cannot overflow it
    for (std::size_t i = 0; i < count; ++i) sum += static_cast<double>(v[i]);
    return sum / static_cast<double>(count);
}
}  // namespace

void TimeSync::add_local(std::int64_t advantage) {
    local_[local_next_] = advantage;
    local_next_ = (local_next_ + 1) % kWindow;
    local_count_ = std::min(local_count_ + 1, kWindow);
}

void TimeSync::add_remote(std::int64_t advantage) {
    remote_[remote_next_] = advantage;
    remote_next_ = (remote_next_ + 1) % kWindow;
    remote_count_ = std::min(remote_count_ + 1, kWindow);
}

double TimeSync::frames_ahead() const {
    if (!has_samples()) return 0.0;
    return (average(remote_, remote_count_) - average(local_, local_count_)) / 2.0;
}

void TimeSync::reset() { *this = TimeSync{}; }

double recommend_time_scale(double frames_ahead, double gain, double max_adjust, double deadband) {
    if (frames_ahead > -deadband && frames_ahead < deadband) return 1.0;
    const double adjust = std::clamp(gain * frames_ahead, -max_adjust, max_adjust);
    return 1.0 - adjust;
}

std::int32_t saturate_advantage(std::int64_t advantage) {
    constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min();
    constexpr std::int64_t hi = std::numeric_limits<std::int32_t>::max();
    return static_cast<std::int32_t>(std::clamp(advantage, lo, hi));
}

}  // namespace rwd::rollback
