// FramePacer: wall-clock time at the session's speed, counted out in frames.
#include <rewind/session/rollback/frame_pacer.hpp>

#include <algorithm>
#include <cmath>

namespace rwd::rollback {

FramePacer::FramePacer(Micros frame, int max_backlog)
    : frame_(Micros{std::max<std::int64_t>(frame.count, 1)}),
      cap_(Micros{frame_.count * std::clamp(max_backlog, 1, 60)}) {}

int FramePacer::due(Micros now, double speed) {
    if (!started_) {
        started_ = true;
        last_ = now;
        return 0;
    }
    const std::int64_t elapsed = std::max<std::int64_t>(now.count - last_.count, 0);
    last_ = now;
    const double rate = std::isfinite(speed) ? std::clamp(speed, 0.5, 2.0) : 1.0;
    const double scaled = std::min(static_cast<double>(elapsed) * rate, static_cast<double>(cap_.count));
    carry_ = Micros{std::clamp<std::int64_t>(carry_.count + std::llround(scaled), 0, cap_.count)};
    return static_cast<int>(carry_.count / frame_.count);
}

void FramePacer::ran() { carry_ = Micros{std::max<std::int64_t>(carry_.count - frame_.count, 0)}; }

}  // namespace rwd::rollback
