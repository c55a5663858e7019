// RateWindow: send/receive rates of one peer averaged over a sliding window of `now` samples.
#pragma once

#include <rewind/core/time.hpp>

#include <cstdint>
#include <deque>

namespace rwd::transport {

/// Cumulative byte counts sampled at update() times; the rate is the growth across the window.
class RateWindow {
public:
    /// Records the cumulative counts at `now` (at most 16 samples per window are kept).
    void sample(Micros now, std::uint64_t sent, std::uint64_t received, Micros window) {
        if (samples_.empty() || now - samples_.back().at >= window / 16)
            samples_.push_back({now, sent, received});
        while (samples_.size() > 2 && samples_[1].at <= now - window) samples_.pop_front();
        latest_ = {now, sent, received};
    }
    /// Kilobits per second sent over the window (0 until two samples exist).
    [[nodiscard]] double kbps_sent() const { return rate(latest_.sent - oldest().sent); }
    /// Kilobits per second received over the window.
    [[nodiscard]] double kbps_received() const { return rate(latest_.received - oldest().received); }

private:
    struct Sample {
        Micros at;
        std::uint64_t sent = 0;
        std::uint64_t received = 0;
    };
    [[nodiscard]] const Sample& oldest() const { return samples_.empty() ? latest_ : samples_.front(); }
    [[nodiscard]] double rate(std::uint64_t bytes) const {
        const double seconds = (latest_.at - oldest().at).seconds();
        return seconds > 0.0 ? static_cast<double>(bytes) * 8.0 / 1000.0 / seconds : 0.0;
    }
    std::deque<Sample> samples_;
    Sample latest_{};
};

}  // namespace rwd::transport
