// InputBufferTuner: centered-median spread, time-bucketed spread histogram, and the raise/hold/lower rule.
#include <rewind/sync/input_buffer_tuner.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace rwd::sync {
namespace {

/// The standard normal quantile Phi^-1(p) for p in (0, 1) (Acklam's rational approximation, |rel err| <
/// 1.2e-9): enough to turn a tail share into a number of standard deviations.
double normal_quantile(double p) {
    constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                            1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                            6.680131188771972e+01, -1.328068155288572e+01};
    constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                            -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                            3.754408661907416e+00};
    constexpr double lo = 0.02425;
    p = std::clamp(p, 1e-12, 1.0 - 1e-12);
    if (p < lo) {
        const double q = std::sqrt(-2.0 * std::log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    }
    if (p > 1.0 - lo) return -normal_quantile(1.0 - p);
    const double q = p - 0.5;
    const double r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
}

/// The share of spreads at or above a bin that the normal tail fit uses: deep enough to describe the tail,
/// common enough (1 in 20) to be measured in a few seconds even when jitter is correlated.
constexpr double kFitShare = 0.05;

/// Lowering is judged at this fraction of max_late_share: a hysteresis band, so that the noise of a few
/// seconds of samples does not move the target down and back up.
constexpr double kLowerShareFactor = 0.1;

/// A change of the recent spread's target by this many ticks is a change of link, not estimation noise.
constexpr int kJumpTicks = 3;

}  // namespace

Status InputBufferTunerConfig::validate() const {
    if (min_ticks < 0 || min_ticks > InputBufferTuner::kMaxTicks)
        return Error{Errc::invalid_config, "min_ticks not in 0..32"};
    if (max_ticks < min_ticks || max_ticks > InputBufferTuner::kMaxTicks)
        return Error{Errc::invalid_config, "max_ticks not in min_ticks..32"};
    if (!(max_late_share > 0.0 && max_late_share <= 0.1))
        return Error{Errc::invalid_config, "max_late_share not in (0, 0.1]"};
    if (window.count < 1'000'000 || window.count > 60'000'000)
        return Error{Errc::invalid_config, "window not in 1..60 s"};
    if (lower_hold.count < 0 || lower_hold > window)
        return Error{Errc::invalid_config, "lower_hold not in 0..window"};
    if (center_half_window < 4 || center_half_window > 120)
        return Error{Errc::invalid_config, "center_half_window not in 4..120"};
    if (min_samples < 1 || min_samples > 4096)
        return Error{Errc::invalid_config, "min_samples not in 1..4096"};
    return {};
}

InputBufferTuner::InputBufferTuner(InputBufferTunerConfig config) : config_(config) {
    assert(config_.validate().ok());
    config_.min_ticks = std::clamp(config_.min_ticks, 0, kMaxTicks);
    config_.max_ticks = std::clamp(config_.max_ticks, config_.min_ticks, kMaxTicks);
    config_.center_half_window = std::clamp(config_.center_half_window, 4, 120);
    bucket_len_ = Micros{std::max<std::int64_t>(1, config_.window.count / kBuckets)};
    reset();
}

void InputBufferTuner::reset() {
    center_ring_ = {};
    center_hist_ = {};
    center_count_ = 0;
    center_next_ = 0;
    buckets_ = {};
    first_ = 0;
    used_ = 0;
    window_bins_ = {};
    window_count_ = 0;
    target_ = config_.min_ticks;
    window_target_ = config_.min_ticks;
    p95_ = 0.0;
    p999_ = 0.0;
    lowering_ = false;
    measured_ = false;
    from_link_ = false;
}

void InputBufferTuner::on_link(Micros rtt_deviation, Micros tick_length) {
    if (measured_ || tick_length.count <= 0) return;
    // A normal RTT's standard deviation is sqrt(pi / 2) times its mean deviation; each direction carries half
    // its variance. Whole-tick spreads count as late from half a tick on, as in estimate().
    const double rtt_sd =
        1.2533141373155003 * static_cast<double>(std::max<std::int64_t>(rtt_deviation.count, 0));
    const double one_way_ticks = rtt_sd / std::sqrt(2.0) / static_cast<double>(tick_length.count);
    const double depth = -normal_quantile(config_.max_late_share) * one_way_ticks - 0.5;
    const int wanted = std::clamp(static_cast<int>(std::ceil(std::min(depth, double{kMaxTicks}) - 1e-9)),
                                  config_.min_ticks, config_.max_ticks);
    // The transport's estimate starts wide (a first RTT sample's deviation is taken as half of it) and
    // narrows with every sample: follow it both ways until the spread is measured.
    from_link_ = true;
    if (wanted == target_) return;
    ++stats_.link_changes;
    target_ = wanted;
    lowering_ = false;
}

void InputBufferTuner::on_arrival(std::int32_t early_ticks, Micros now) {
    ++stats_.arrivals;
    // `now` is the caller's, the offset is derived from an untrusted tick: neither may break the window.
    if (has_time_ && now < last_now_) {
        ++stats_.time_reversals;
        now = last_now_;
    }
    last_now_ = now;
    has_time_ = true;
    if (early_ticks > kMaxOffset || early_ticks < -kMaxOffset) ++stats_.clamped_offsets;
    const int v = std::clamp<std::int32_t>(early_ticks, -kMaxOffset, kMaxOffset);

    const int n = 2 * config_.center_half_window + 1;
    if (center_count_ == n) --center_hist_[static_cast<std::size_t>(center_ring_[center_next_] + kMaxOffset)];
    center_ring_[static_cast<std::size_t>(center_next_)] = static_cast<std::int8_t>(v);
    ++center_hist_[static_cast<std::size_t>(v + kMaxOffset)];
    center_next_ = (center_next_ + 1) % n;
    center_count_ = std::min(center_count_ + 1, n);
    const bool bucket_closed = advance_buckets(now);
    if (center_count_ == n) {
        // The middle arrival has K neighbours on each side: its spread is measured against their median.
        const int mid = (center_next_ + config_.center_half_window) % n;
        add_spread(center_median() - static_cast<double>(center_ring_[static_cast<std::size_t>(mid)]));
    }
    evaluate(now, bucket_closed);
}

double InputBufferTuner::center_median() const {
    // Grouped median: offsets are whole ticks, so treat each value k as spread over [k - 0.5, k + 0.5). This
    // gives a fractional centre from integer samples without the 1-tick jumps of the plain median.
    const double half = static_cast<double>(center_count_) / 2.0;
    double below = 0.0;
    for (int i = 0; i < kOffsetValues; ++i) {
        const double f = center_hist_[static_cast<std::size_t>(i)];
        if (f > 0.0 && below + f >= half)
            return static_cast<double>(i - kMaxOffset) - 0.5 + (half - below) / f;
        below += f;
    }
    return 0.0;
}

bool InputBufferTuner::advance_buckets(Micros now) {
    while (used_ > 0 &&
           buckets_[static_cast<std::size_t>(first_)].start + bucket_len_ + config_.window <= now)
        drop_bucket(first_);
    if (used_ > 0) {
        const Bucket& last = buckets_[static_cast<std::size_t>((first_ + used_ - 1) % kBuckets)];
        if (now < last.start + bucket_len_) return false;
    }
    const bool closed = used_ > 0;
    if (used_ == kBuckets) drop_bucket(first_);
    Bucket& b = buckets_[static_cast<std::size_t>((first_ + used_) % kBuckets)];
    b = Bucket{};
    b.start = now;
    ++used_;
    return closed;
}

void InputBufferTuner::drop_bucket(int index) {
    // Only the oldest bucket is ever dropped.
    assert(index == first_);
    Bucket& b = buckets_[static_cast<std::size_t>(index)];
    for (std::size_t i = 0; i < b.bins.size(); ++i) window_bins_[i] -= b.bins[i];
    window_count_ -= b.count;
    b = Bucket{};
    first_ = (first_ + 1) % kBuckets;
    --used_;
}

void InputBufferTuner::add_spread(double spread) {
    ++stats_.spread_samples;
    // Bin k holds spreads that round to k: an arrival whose spread rounds to t + 1 is late at depth t.
    const double r = std::floor(spread + 0.5);
    const auto bin = static_cast<std::size_t>(std::clamp(r, 0.0, static_cast<double>(kSpreadBins - 1)));
    Bucket& b = buckets_[static_cast<std::size_t>((first_ + used_ - 1) % kBuckets)];
    ++b.bins[bin];
    ++b.count;
    ++window_bins_[bin];
    ++window_count_;
    if (window_count_ >= static_cast<std::uint32_t>(config_.min_samples)) measured_ = true;
}

InputBufferTuner::Estimate InputBufferTuner::estimate(const std::array<std::uint32_t, kSpreadBins>& bins,
                                                      std::uint32_t n, std::uint32_t min_n,
                                                      double late_share) const {
    Estimate e;
    e.n = n;
    if (n == 0 || n < min_n) return e;
    e.valid = true;
    const double total = static_cast<double>(n);
    // above[k]: spreads in bins >= k.
    std::array<double, kSpreadBins + 1> above{};
    for (int k = kSpreadBins - 1; k >= 0; --k)
        above[static_cast<std::size_t>(k)] =
            above[static_cast<std::size_t>(k + 1)] + static_cast<double>(bins[static_cast<std::size_t>(k)]);
    // Grouped quantile (bin k spread over [k - 0.5, k + 0.5)); spreads below 0.5 count as 0.
    auto quantile = [&](double p) {
        const double want = p * total;
        double below = 0.0;
        for (int k = 0; k < kSpreadBins; ++k) {
            const double f = static_cast<double>(bins[static_cast<std::size_t>(k)]);
            if (f > 0.0 && below + f >= want)
                return k == 0 ? 0.0 : static_cast<double>(k) - 0.5 + (want - below) / f;
            below += f;
        }
        return static_cast<double>(kSpreadBins - 1);
    };
    e.p95 = quantile(0.95);
    e.p999 = quantile(0.999);
    // Measured: the smallest depth t at which spreads of t + 1 or more are few enough.
    const double allowed = late_share * total;
    int measured = 0;
    while (measured < kSpreadBins - 1 && above[static_cast<std::size_t>(measured + 1)] > allowed) ++measured;
    // Extrapolated: a normal tail through the deepest threshold k + 0.5 that at least kFitShare of the
    // spreads reach (or the shallowest one, if fewer reach even that), then the depth where it leaves
    // max_late_share.
    int fit = 0;
    for (int k = 1; k < kSpreadBins - 1; ++k)
        if (above[static_cast<std::size_t>(k + 1)] >= kFitShare * total) fit = k;
    const double share = above[static_cast<std::size_t>(fit + 1)] / total;
    int extrapolated = 0;
    if (share > 0.0 && share < 0.5) {
        const double sigma = (static_cast<double>(fit) + 0.5) / -normal_quantile(share);
        extrapolated = static_cast<int>(std::ceil(-normal_quantile(late_share) * sigma - 0.5 - 1e-9));
    } else if (share >= 0.5) {
        extrapolated = kSpreadBins - 1;  // most arrivals beyond the median by a tick: no normal tail fits
    }
    // Never deeper than the measured p99.9 spread + 1 tick: the bin holding the p99.9 spread, plus one.
    const int p999_bin = static_cast<int>(std::floor(e.p999 + 0.5));
    e.target = std::min(std::max(measured, extrapolated), p999_bin + 1);
    return e;
}

std::array<std::uint32_t, InputBufferTuner::kSpreadBins> InputBufferTuner::recent_bins(
    Micros now, std::uint32_t& n) const {
    std::array<std::uint32_t, kSpreadBins> recent{};
    n = 0;
    for (int i = 0; i < used_; ++i) {
        const Bucket& b = buckets_[static_cast<std::size_t>((first_ + i) % kBuckets)];
        if (b.start + config_.lower_hold < now) continue;
        for (std::size_t k = 0; k < recent.size(); ++k) recent[k] += b.bins[k];
        n += b.count;
    }
    return recent;
}

void InputBufferTuner::evaluate(Micros now, bool bucket_closed) {
    const auto min_n = static_cast<std::uint32_t>(config_.min_samples);
    const Estimate w = estimate(window_bins_, window_count_, min_n, config_.max_late_share);
    if (!w.valid) return;
    p95_ = w.p95;
    p999_ = w.p999;
    window_target_ = w.target;
    int wanted = std::clamp(w.target, config_.min_ticks, config_.max_ticks);
    if (from_link_) {
        // The first estimate judges the link's guess. One far above it is a transport's wide first deviation
        // (half the first RTT), not jitter: drop it now rather than after holds. Otherwise the rules below.
        from_link_ = false;
        if (wanted <= target_ - kJumpTicks) {
            target_ = wanted;
            lowering_ = false;
            ++stats_.lowers;
            return;
        }
    }
    // Once per bucket, the recent spread alone: after a jump in jitter it sees the new tail first, before the
    // new samples are a large part of the window. It is noisier, so it only raises on a jump of 2 ticks or
    // more.
    std::uint32_t recent_n = 0;
    std::array<std::uint32_t, kSpreadBins> recent{};
    if (bucket_closed) {
        recent = recent_bins(now, recent_n);
        const Estimate r = estimate(recent, recent_n, min_n, config_.max_late_share);
        const int jump = std::min(std::clamp(r.target, config_.min_ticks, config_.max_ticks),
                                  static_cast<int>(std::floor(w.p999 + 0.5)) + 1);
        if (r.valid && jump >= target_ + kJumpTicks) wanted = std::max(wanted, jump);
    }
    if (wanted > target_) {
        // Jitter grew: deepen at once, every late input costs the player a correction.
        target_ = wanted;
        lowering_ = false;
        ++stats_.raises;
        return;
    }
    if (!bucket_closed || target_ == config_.min_ticks) return;
    // Lowering is judged on the recent buckets alone (the window still remembers the old spread), against a
    // stricter late share so that estimation noise cannot walk the target up and down, and only after they
    // have asked for less for the whole hold.
    const Estimate r = estimate(recent, recent_n, min_n, config_.max_late_share * kLowerShareFactor);
    const int recent_wanted = r.valid ? std::clamp(r.target, config_.min_ticks, config_.max_ticks) : target_;
    if (recent_wanted >= target_) {
        lowering_ = false;
        return;
    }
    if (!lowering_) {
        lowering_ = true;
        low_since_ = now;
        return;
    }
    if (now - low_since_ < config_.lower_hold) return;
    // A drop of kJumpTicks or more is a change of link: take it. A smaller one may be noise: one tick a hold.
    target_ = recent_wanted <= target_ - kJumpTicks ? recent_wanted : target_ - 1;
    lowering_ = false;
    ++stats_.lowers;
    // Forget the spread from before the hold, so the window does not ask for the old depth again.
    while (used_ > 1 && buckets_[static_cast<std::size_t>(first_)].start + config_.lower_hold < now)
        drop_bucket(first_);
}

}  // namespace rwd::sync
