// ClockSync: RTT median and jitter, the server-tick estimate, and the time scale / resync decision.
#include <rewind/sync/clock_sync.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>

namespace rwd::sync {

Status ClockSyncConfig::validate() const {
    if (tick_rate_hz < 1 || tick_rate_hz > 1000)
        return Error{Errc::invalid_config, "tick_rate_hz not in 1..1000"};
    if (rtt_window < 1 || rtt_window > ClockSync::kMaxRttWindow)
        return Error{Errc::invalid_config, "rtt_window not in 1..32"};
    if (max_rtt.count <= 0) return Error{Errc::invalid_config, "max_rtt must be positive"};
    if (!(safety_margin_ticks >= 0.0 && safety_margin_ticks <= 16.0))
        return Error{Errc::invalid_config, "safety_margin_ticks not in 0..16"};
    if (!(server_estimate_gain > 0.0 && server_estimate_gain <= 1.0))
        return Error{Errc::invalid_config, "server_estimate_gain not in (0, 1]"};
    if (!(server_estimate_reset_ticks > 0.0))
        return Error{Errc::invalid_config, "server_estimate_reset_ticks must be positive"};
    if (!(gain_per_tick > 0.0 && gain_per_tick <= 1.0))
        return Error{Errc::invalid_config, "gain_per_tick not in (0, 1]"};
    if (!(max_adjust >= 0.0 && max_adjust <= 0.05))
        return Error{Errc::invalid_config, "max_adjust not in 0..0.05"};
    if (!(hard_resync_ticks > 1.0)) return Error{Errc::invalid_config, "hard_resync_ticks must exceed 1"};
    if (!(target_input_offset_ticks >= 0.0 && target_input_offset_ticks <= 16.0))
        return Error{Errc::invalid_config, "target_input_offset_ticks not in 0..16"};
    if (!(input_offset_gain >= 0.0 && input_offset_gain <= 1.0))
        return Error{Errc::invalid_config, "input_offset_gain not in 0..1"};
    if (!(max_input_offset_correction_ticks >= 0.0 && max_input_offset_correction_ticks <= 64.0))
        return Error{Errc::invalid_config, "max_input_offset_correction_ticks not in 0..64"};
    if (!(settled_ticks > 0.0)) return Error{Errc::invalid_config, "settled_ticks must be positive"};
    return {};
}

ClockSync::ClockSync(ClockSyncConfig config) : config_(config) {
    assert(config_.validate().ok());
    config_.tick_rate_hz = std::clamp(config_.tick_rate_hz, 1, 1000);
    config_.rtt_window = std::clamp(config_.rtt_window, 1, kMaxRttWindow);
}

double ClockSync::micros_to_ticks(Micros m) const {
    return static_cast<double>(m.count) * static_cast<double>(config_.tick_rate_hz) * 1e-6;
}

void ClockSync::on_pong(Micros sent_at, Micros now, Micros server_hold) {
    // The echoed time and the hold come off the wire: a forged or corrupted pair must not poison the median.
    const Micros rtt = now - sent_at - server_hold;
    if (server_hold.count < 0 || rtt.count < 0 || rtt > config_.max_rtt) {
        ++stats_.rejected_rtt_samples;
        return;
    }
    const bool first = rtt_count_ == 0;
    rtt_ring_[static_cast<std::size_t>(rtt_next_)] = rtt.count;
    rtt_next_ = (rtt_next_ + 1) % config_.rtt_window;
    rtt_count_ = std::min(rtt_count_ + 1, config_.rtt_window);
    ++stats_.rtt_samples;
    recompute_rtt();
    // Stamps that arrived before any RTT was known were taken as "now"; they were RTT/2 old.
    if (first && has_estimate_) anchor_ = anchor_.plus(micros_to_ticks(rtt_median_) / 2.0);
}

void ClockSync::recompute_rtt() {
    std::array<std::int64_t, kMaxRttWindow> sorted{};
    const auto n = static_cast<std::size_t>(rtt_count_);
    std::copy_n(rtt_ring_.begin(), n, sorted.begin());
    std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n));
    const std::int64_t median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    std::int64_t dev = 0;
    for (std::size_t i = 0; i < n; ++i) dev += std::llabs(sorted[i] - median);
    rtt_median_ = Micros{median};
    jitter_ = Micros{dev / static_cast<std::int64_t>(n)};
}

FracTick ClockSync::estimated_server_tick(Micros now) const {
    return anchor_.plus(micros_to_ticks(now - anchor_time_));
}

double ClockSync::lead_ticks() const {
    return micros_to_ticks(rtt_median_) / 2.0 + config_.safety_margin_ticks + offset_correction_ +
           target_shift_;
}

FracTick ClockSync::target_tick(Micros now) const { return estimated_server_tick(now).plus(lead_ticks()); }

void ClockSync::on_server_tick(Tick server_tick, Micros now) {
    // A reordered or duplicated message carries an older stamp and a longer delay: it would bias the estimate
    // low.
    if (has_estimate_ && server_tick <= newest_stamp_) {
        ++stats_.stale_server_ticks;
        return;
    }
    newest_stamp_ = server_tick;
    ++stats_.server_tick_samples;
    const FracTick sample = FracTick{server_tick, 0.0}.plus(micros_to_ticks(rtt_median_) / 2.0);
    if (!has_estimate_) {
        anchor_ = sample;
        anchor_time_ = now;
        has_estimate_ = true;
        return;
    }
    const FracTick current = estimated_server_tick(now);
    const double error = sample - current;
    if (std::abs(error) > config_.server_estimate_reset_ticks) {
        anchor_ = sample;
        ++stats_.server_estimate_resets;
    } else {
        anchor_ = current.plus(config_.server_estimate_gain * error);
    }
    anchor_time_ = now;
}

void ClockSync::on_input_offset(double early_ticks) {
    if (!std::isfinite(early_ticks)) {
        ++stats_.ignored_offset_reports;
        return;
    }
    last_offset_ = early_ticks;
    // While the client is still moving toward its target the reports describe an old lead: integrating them
    // then would wind the correction up and overshoot.
    if (!synced_ || !settled_) {
        ++stats_.ignored_offset_reports;
        return;
    }
    ++stats_.input_offset_reports;
    const double cap = config_.max_input_offset_correction_ticks;
    offset_correction_ = std::clamp(
        offset_correction_ + config_.input_offset_gain * (config_.target_input_offset_ticks - early_ticks),
        -cap, cap);
}

bool ClockSync::set_target_input_offset(double ticks) {
    if (!(ticks >= 0.0 && ticks <= 16.0)) return false;  // the same range validate() allows
    // The lead must change by exactly the change of target: no need to learn that from the reports (which
    // would take seconds per tick). update() releases it gradually so the client follows by time scale.
    pending_shift_ += ticks - config_.target_input_offset_ticks;
    config_.target_input_offset_ticks = ticks;
    return true;
}

double ClockSync::release_shift(Micros now, FracTick client_now) {
    if (pending_shift_ == 0.0) return 0.0;
    if (!synced_) {
        // The first sync jumps onto the target anyway.
        const double all = pending_shift_;
        target_shift_ += all;
        pending_shift_ = 0.0;
        return all;
    }
    // Move the target only as far ahead of (or behind) the client as the time scale can chase at full
    // strength: the error stays below the resync threshold, so a target change is never a jump.
    const double bound = std::max(config_.settled_ticks, std::min(config_.max_adjust / config_.gain_per_tick,
                                                                  config_.hard_resync_ticks / 2.0));
    const double error = target_tick(now) - client_now;
    double step = 0.0;
    if (pending_shift_ > 0.0) step = std::clamp(bound - error, 0.0, pending_shift_);
    if (pending_shift_ < 0.0) step = std::clamp(-bound - error, pending_shift_, 0.0);
    target_shift_ += step;
    pending_shift_ -= step;
    if (std::abs(pending_shift_) < 1e-9) pending_shift_ = 0.0;
    return step;
}

ClockAdjust ClockSync::update(Micros now, FracTick client_now) {
    ClockAdjust out;
    if (!ready()) return out;
    (void)release_shift(now, client_now);
    const FracTick target = target_tick(now);
    const double error = target - client_now;
    out.error_ticks = error;
    if (!synced_ || std::abs(error) > config_.hard_resync_ticks) {
        if (synced_) {
            ++stats_.hard_resyncs;
        } else {
            ++stats_.initial_syncs;
        }
        synced_ = true;
        out.resync = true;
        out.resync_to = target;
        settled_ = true;
    } else {
        out.time_scale =
            1.0 + std::clamp(config_.gain_per_tick * error, -config_.max_adjust, config_.max_adjust);
        settled_ = std::abs(error) < config_.settled_ticks;
    }
    last_scale_ = out.time_scale;
    last_error_ = error;
    return out;
}

}  // namespace rwd::sync
