// LinkConditioner: MTU, bandwidth queue, burst and random loss, delay with jitter, reordering, duplication.
#include <rewind/transport/link_conditioner.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace rwd::transport {

namespace {

// splitmix64: spreads one seed into independent-looking seeds for the per-impairment streams.
std::uint64_t mix_seed(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30u)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27u)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31u);
}

Rng make_stream(std::uint64_t seed, std::uint64_t stream) { return Rng(mix_seed(seed + stream), stream); }

bool draw(Rng& rng, double p) {
    if (p <= 0.0) return false;
    if (p >= 1.0) return true;
    return rng.next_double() < p;
}

constexpr double kTwoPi = 6.283185307179586476925286766559;
constexpr double kJitterClip = 4.0;  // normal samples are clipped to ±4 sigma

}  // namespace

LinkConditioner::LinkConditioner(const LinkConfig& config, std::uint64_t seed)
    : config_(config.validate().ok() ? config : LinkConfig{}),
      rng_burst_(make_stream(seed, 1)),
      rng_loss_(make_stream(seed, 2)),
      rng_delay_(make_stream(seed, 3)),
      rng_dup_(make_stream(seed, 4)),
      rng_reorder_(make_stream(seed, 5)) {}

Status LinkConditioner::set_config(const LinkConfig& config) {
    if (Status s = config.validate(); !s.ok()) return s;
    config_ = config;
    return {};
}

std::size_t LinkConditioner::queued_bytes(Micros now) const {
    if (config_.bandwidth_kbps == 0 || bottleneck_free_at_ <= now) return 0;
    const std::int64_t backlog_us = (bottleneck_free_at_ - now).count;
    return static_cast<std::size_t>(backlog_us * static_cast<std::int64_t>(config_.bandwidth_kbps) / 8000);
}

Micros LinkConditioner::sample_delay(Micros now) {
    if (config_.jitter.count == 0) return config_.latency;
    const double u1 = 1.0 - rng_delay_.next_double();  // (0, 1]
    const double u2 = rng_delay_.next_double();
    const double normal = std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
    double z = normal;
    if (config_.jitter_correlation.count > 0) {
        // Exact Ornstein–Uhlenbeck step over the time since the last packet: stationary N(0, 1) at any
        // spacing.
        if (jitter_started_) {
            const double rho = std::exp(-static_cast<double>((now - jitter_time_).count) /
                                        static_cast<double>(config_.jitter_correlation.count));
            z = rho * jitter_state_ + std::sqrt(1.0 - rho * rho) * normal;
        }
        jitter_started_ = true;
        jitter_state_ = z;
        jitter_time_ = now;
    }
    z = std::clamp(z, -kJitterClip, kJitterClip);
    const auto offset =
        static_cast<std::int64_t>(std::llround(z * static_cast<double>(config_.jitter.count)));
    return Micros{std::max<std::int64_t>(0, config_.latency.count + offset)};
}

void LinkConditioner::schedule(Micros at, std::vector<std::uint8_t> data) {
    scheduled_.push_back(Scheduled{at, next_order_++, std::move(data)});
    std::push_heap(scheduled_.begin(), scheduled_.end(), Later{});
}

void LinkConditioner::submit(Micros now, std::vector<std::uint8_t> packet) {
    const std::size_t size = packet.size();
    submit(now, std::move(packet), size);
}

void LinkConditioner::submit(Micros now, std::vector<std::uint8_t> packet, std::size_t wire_bytes) {
    ++counters_.submitted;
    counters_.bytes_submitted += wire_bytes;
    if (wire_bytes > config_.mtu) {
        ++counters_.dropped_mtu;
        return;
    }

    // The bottleneck: a byte-capped queue drained at bandwidth_kbps.
    Micros leaves = now;
    if (config_.bandwidth_kbps > 0) {
        if (queued_bytes(now) + wire_bytes + config_.packet_overhead > config_.queue_bytes) {
            ++counters_.dropped_queue;
            return;
        }
        const auto bits = static_cast<std::int64_t>((wire_bytes + config_.packet_overhead) * 8);
        const std::int64_t kbps = config_.bandwidth_kbps;
        const Micros tx{(bits * 1000 + kbps - 1) / kbps};
        bottleneck_free_at_ = std::max(now, bottleneck_free_at_) + tx;
        leaves = bottleneck_free_at_;
    }

    // Loss after the bottleneck: the chain steps once per packet that reaches it.
    if (config_.burst.enabled()) {
        burst_bad_ = burst_bad_ ? !draw(rng_burst_, config_.burst.p_bad_to_good)
                                : draw(rng_burst_, config_.burst.p_good_to_bad);
        if (draw(rng_burst_, burst_bad_ ? config_.burst.loss_in_bad : config_.burst.loss_in_good)) {
            ++counters_.dropped_burst;
            return;
        }
    }
    if (draw(rng_loss_, config_.loss)) {
        ++counters_.dropped_random;
        return;
    }

    // Delay: ordinary packets keep their order, a held-back packet leaves it and arrives late.
    const Micros at = leaves + sample_delay(leaves);
    const bool dup = draw(rng_dup_, config_.duplicate);
    if (dup) {
        ++counters_.duplicated;
        const std::int64_t spread =
            std::min<std::int64_t>(std::max<std::int64_t>(config_.jitter.count, 1000), 0x7FFFFFFF);
        schedule(at + Micros{static_cast<std::int64_t>(rng_dup_.uniform(static_cast<std::uint32_t>(spread)))},
                 packet);
    }
    if (draw(rng_reorder_, config_.reorder)) {
        ++counters_.reordered;
        // Held back from where the ordered stream would have put it, so later packets really overtake it.
        const Micros ordered = fifo_times_.empty() ? at : std::max(at, fifo_max_);
        schedule(ordered + config_.reorder_delay, std::move(packet));
        return;
    }
    fifo_packets_.push_back(std::move(packet));
    fifo_times_.push_back(at);
    std::push_heap(fifo_times_.begin(), fifo_times_.end(), std::greater<>{});
    fifo_max_ = fifo_times_.size() == 1 ? at : std::max(fifo_max_, at);
}

bool LinkConditioner::pop_ready(Micros now, std::vector<std::uint8_t>& out) {
    const bool fifo_due = !fifo_times_.empty() && fifo_times_.front() <= now;
    const bool other_due = !scheduled_.empty() && scheduled_.front().at <= now;
    if (!fifo_due && !other_due) return false;
    if (fifo_due && (!other_due || fifo_times_.front() <= scheduled_.front().at)) {
        std::pop_heap(fifo_times_.begin(), fifo_times_.end(), std::greater<>{});
        fifo_times_.pop_back();
        out = std::move(fifo_packets_.front());
        fifo_packets_.pop_front();
    } else {
        std::pop_heap(scheduled_.begin(), scheduled_.end(), Later{});
        out = std::move(scheduled_.back().data);
        scheduled_.pop_back();
    }
    ++counters_.delivered;
    counters_.bytes_delivered += out.size();
    return true;
}

std::optional<Micros> LinkConditioner::next_ready_time() const {
    std::optional<Micros> t;
    if (!fifo_times_.empty()) t = fifo_times_.front();
    if (!scheduled_.empty() && (!t || scheduled_.front().at < *t)) t = scheduled_.front().at;
    return t;
}

}  // namespace rwd::transport
