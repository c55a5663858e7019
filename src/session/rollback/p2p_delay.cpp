/// P2PCore: the input delay sized to the links: what the measured round trips call for, and following it.
#include "session/rollback/p2p_core_impl.hpp"

#include <rewind/core/log.hpp>

#include <algorithm>
#include <cmath>

namespace rwd::rollback::detail {

namespace {
/// Checks of room for a shorter delay in a row before it shortens by one frame (3 x 200 ms).
constexpr int kRoomChecksToShorten = 3;
/// A call for this many frames more lengthens the delay at the first check.
constexpr int kJumpFrames = 3;
}  // namespace

int P2PCore::Impl::wanted_input_delay() const {
    // An input for frame f leaves when we are at f - delay; a player's session may run max_prediction frames
    // past the inputs it has, so our input must reach it within delay + max_prediction frames: half a round
    // trip, plus the round trip's mean deviation for the jitter, plus one frame for a packet lost (the next
    // one, a frame later, repeats every unacknowledged input), plus one frame to spare.
    const double frame_us = static_cast<double>(cfg_.frame_duration.count);
    double worst = 0.0;
    bool any = false;
    for (const PeerLink& l : links_) {
        if (l.remote_role() != Role::player || l.state() == PeerLink::State::disconnected || !l.has_ping())
            continue;
        const double one_way =
            static_cast<double>(l.ping().count) / 2.0 + 1.5 * static_cast<double>(l.ping_deviation().count);
        worst = std::max(worst, one_way);
        any = true;
    }
    if (!any) return delay_;
    const int frames = static_cast<int>(std::ceil(worst / frame_us)) + 2;
    return std::clamp(frames - cfg_.max_prediction, cfg_.input_delay, cfg_.max_input_delay);
}

int P2PCore::Impl::jitter_frames() const {
    std::int64_t dev = 0;
    for (const PeerLink& l : links_)
        if (l.remote_role() == Role::player && l.state() != PeerLink::State::disconnected && l.has_ping())
            dev = std::max(dev, l.ping_deviation().count);
    return static_cast<int>(dev / std::max<std::int64_t>(1, cfg_.frame_duration.count));
}

void P2PCore::Impl::adapt_input_delay(Micros now, bool at_start) {
    if (!adapt_delay_) return;
    if (!at_start && now < next_delay_check_) return;
    next_delay_check_ = now + cfg_.quality_interval;
    const int want = wanted_input_delay();
    // Two streaks: checks in a row that called for a longer delay, and for a shorter one.
    delay_long_checks_ = want > delay_ ? delay_long_checks_ + 1 : 0;
    delay_room_checks_ = want < delay_ ? delay_room_checks_ + 1 : 0;
    if (at_start) {
        set_delay(want, true);
    } else if (want > delay_ && (want >= delay_ + kJumpFrames || delay_long_checks_ >= 2)) {
        // Late inputs stall everyone: lengthen at once when the links call for much more, else when two
        // checks in a row call for more (one late round-trip sample alone would make the delay jump and fall
        // back).
        set_delay(want, true);
    } else if (delay_room_checks_ >= kRoomChecksToShorten) {
        // Shorter only after a quiet spell, a frame at a time: a delay that swings with every noisy sample
        // would swing every player's predictions with it.
        set_delay(delay_ - 1, true);
    } else {
        return;
    }
    delay_long_checks_ = delay_room_checks_ = 0;
}

void P2PCore::Impl::set_delay(int frames, bool adapted) {
    if (frames == delay_) return;
    delay_ = frames;
    stats_.input_delay = frames;
    if (running_) {
        stats_.input_delay_min = std::min(stats_.input_delay_min, frames);
        stats_.input_delay_max = std::max(stats_.input_delay_max, frames);
    } else {
        stats_.input_delay_min = stats_.input_delay_max = frames;  // before frame 0: the starting choice
    }
    if (!adapted) return;
    ++stats_.input_delay_changes;
    SessionEvent e{SessionEvent::Type::input_delay};
    e.count = frames;
    e.frame = frame_;
    push_event(e);
    logf(cfg_.logger, LogLevel::info, "input delay %d frames (frame %lld)", frames,
         static_cast<long long>(frame_));
}

}  // namespace rwd::rollback::detail
