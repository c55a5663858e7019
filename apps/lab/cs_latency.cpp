// Input-to-apply latency and view age, from the tick timestamps of the clients and the server.
#include "cs_latency.hpp"

namespace lab {

void LatencyTracker::on_client_ticks(std::size_t seat, rwd::Tick from, rwd::Tick to, rwd::Micros now) {
    Seat& s = seats_[seat];
    for (rwd::Tick t = from; t < to; t = t + 1) {
        s.ran_tick[t.value % kRing] = t.value;
        s.ran_at[t.value % kRing] = now;
    }
}

void LatencyTracker::on_server_tick(rwd::Tick tick, rwd::Micros now) {
    has_server_tick_ = true;
    last_tick_ = tick;
    last_tick_at_ = now;
}

void LatencyTracker::on_server_input(std::size_t seat, rwd::Tick tick, rwd::Micros now, bool repeated,
                                     bool measure) {
    Seat& s = seats_[seat];
    s.repeated[tick.value % kRing] = repeated ? tick.value + 1 : 0;
    if (repeated || !measure || s.ran_tick[tick.value % kRing] != tick.value) return;
    apply_ms_.push_back(static_cast<double>((now - s.ran_at[tick.value % kRing]).count) / 1000.0);
}

void LatencyTracker::on_view(rwd::sync::FracTick view, rwd::Micros now) {
    if (!has_server_tick_) return;
    // The state after tick L existed from last_tick_at_; the one drawn is (L - view) ticks older than that.
    const double behind_ticks = rwd::sync::FracTick{last_tick_, 0.0} - view;
    const double age_us = static_cast<double>((now - last_tick_at_).count) + behind_ticks * tick_us_;
    view_age_ms_.push_back(age_us / 1000.0);
}

bool LatencyTracker::repeated_near(std::size_t seat, rwd::Tick tick, int window) const {
    const Seat& s = seats_[seat];
    for (int k = 0; k < window; ++k) {
        const std::uint32_t t = tick.value - static_cast<std::uint32_t>(k);
        if (s.repeated[t % kRing] == t + 1) return true;
    }
    return false;
}

void LatencyTracker::finish(LatencyFigures& out) const {
    out.input_to_apply_ms = distribution(apply_ms_);
    out.view_age_ms = distribution(view_age_ms_);
}

}  // namespace lab
