// StreamLink: segments, their retransmission (RACK, then RTO with backoff), in-order delivery and the
// sender's unacknowledged bytes.
#include "transport/stream_link.hpp"

#include <algorithm>
#include <utility>

namespace rwd::transport::sim {

namespace {

// The IP path of a stream: the link's impairments, each segment billed with the TCP/IP header.
LinkConfig path_config(const LinkConfig& link, const SimStreamConfig& stream) {
    LinkConfig c = link;
    c.packet_overhead = stream.segment_overhead;
    return c;
}

// Frame bytes per segment: the MTU less the TCP/IP header (half the MTU should the header not fit in it).
std::size_t mss_of(const LinkConfig& link, const SimStreamConfig& stream) {
    return link.mtu > stream.segment_overhead ? link.mtu - stream.segment_overhead : link.mtu / 2;
}

}  // namespace

StreamLink::StreamLink(const LinkConfig& config, std::uint64_t seed, const SimStreamConfig& stream)
    : config_(config.validate().ok() ? config : LinkConfig{}),
      stream_(stream),
      path_(path_config(config_, stream), seed) {}

Status StreamLink::set_config(const LinkConfig& config) {
    if (Status s = config.validate(); !s.ok()) return s;
    config_ = config;
    return path_.set_config(path_config(config, stream_));
}

void StreamLink::set_return_path(Micros latency, Micros jitter) {
    return_latency_ = latency;
    return_jitter_ = jitter;
}

Micros StreamLink::rto(int backoff) const {
    const Micros deviation{4 * (config_.jitter.count + return_jitter_.count)};
    Micros r = rtt() + std::max(stream_.min_rto, deviation);
    for (int i = 0; i < backoff && r < stream_.max_rto; ++i) r = r + r;
    return std::min(r, stream_.max_rto);
}

StreamLink::Segment* StreamLink::find(std::uint64_t id) {
    if (segments_.empty() || id < segments_.front().id) return nullptr;
    const std::uint64_t i = id - segments_.front().id;
    return i < segments_.size() ? &segments_[static_cast<std::size_t>(i)] : nullptr;
}

void StreamLink::write(Micros now, std::vector<std::uint8_t> data, std::size_t stream_bytes) {
    advance(now);
    ++counters_.writes;
    counters_.stream_bytes += stream_bytes;
    const std::size_t mss = mss_of(config_, stream_);
    const std::size_t count = std::max<std::size_t>(1, (stream_bytes + mss - 1) / mss);
    std::size_t left = stream_bytes;
    for (std::size_t i = 0; i < count; ++i) {
        Segment s;
        s.id = next_id_++;
        s.bytes = std::min(mss, left);
        left -= s.bytes;
        s.last = i + 1 == count;
        if (s.last) s.data = std::move(data);
        segments_.push_back(std::move(s));
        ++counters_.segments;
        transmit(now, segments_.back().id, 0, false);
    }
}

void StreamLink::transmit(Micros at, std::uint64_t id, int backoff, bool resend) {
    Segment* s = find(id);
    if (s == nullptr) return;  // discarded by reset()
    const std::uint64_t xmit = next_xmit_++;
    ++counters_.transmissions;
    counters_.wire_bytes += s->bytes + stream_.segment_overhead;

    // The copy crosses the path as an 8-byte tag standing for its bytes; every copy that comes out is taken
    // at once with its arrival time (the stream, not the path, decides the order of delivery).
    const LinkCounters& c = path_.counters();
    const std::uint64_t dropped_before = c.dropped_mtu + c.dropped_queue + c.dropped_burst + c.dropped_random;
    tag_.assign(8, 0);
    for (std::size_t i = 0; i < 8; ++i) tag_[i] = static_cast<std::uint8_t>(id >> (8u * i));
    now_ = std::max(now_, at);
    path_.submit(now_, std::move(tag_), s->bytes);
    std::optional<Micros> arrival;
    while (const auto t = path_.next_ready_time()) {
        if (!path_.pop_ready(*t, tag_)) break;
        if (arrival)
            ++counters_.duplicates;
        else
            arrival = *t;
    }
    const bool lost = c.dropped_mtu + c.dropped_queue + c.dropped_burst + c.dropped_random != dropped_before;
    if (lost || !arrival) {
        losses_.push_back(Loss{id, xmit, now_, backoff, now_ + rto(backoff), std::nullopt});
        if (resend && backoff > 0) timeout_copy_lost_ = true;
        return;
    }
    s->arrival = arrival;
    if (resend && backoff > 0) {
        loss_state_until_ = std::max(loss_state_until_, *arrival + return_latency_);
        timeout_copy_lost_ =
            std::any_of(losses_.begin(), losses_.end(), [](const Loss& l) { return l.backoff > 0; });
    }
    // Its acknowledgment (a SACK when earlier data is missing) reaches the sender one reverse latency after
    // it arrived: every copy lost before it is then resent, no sooner than RACK's RTT + RTT / 4 after it
    // left.
    const Micros acked = *arrival + return_latency_;
    for (Loss& l : losses_) {
        if (l.xmit > xmit) continue;
        const Micros rack = std::max(acked, l.sent + rack_delay());
        if (!l.rack_at || rack < *l.rack_at) l.rack_at = rack;
    }
}

void StreamLink::advance(Micros now) {
    for (;;) {
        auto next = losses_.end();
        for (auto it = losses_.begin(); it != losses_.end(); ++it) {
            if (next == losses_.end() || it->due() < next->due() ||
                (it->due() == next->due() && it->xmit < next->xmit))
                next = it;
        }
        if (next == losses_.end() || next->due() > now) return;
        const Loss l = *next;
        losses_.erase(next);
        const bool timeout = l.due() == l.rto_at && (!l.rack_at || l.rto_at < *l.rack_at);
        ++counters_.retransmissions;
        if (timeout) ++counters_.rto_retransmissions;
        transmit(l.due(), l.id, timeout ? l.backoff + 1 : l.backoff, true);
    }
}

std::optional<Micros> StreamLink::next_ready_time() const {
    Micros t = last_delivered_;
    for (const Segment& s : segments_) {
        if (!s.arrival) return std::nullopt;
        t = std::max(t, *s.arrival);
        if (s.last) return t;
    }
    return std::nullopt;
}

bool StreamLink::pop_ready(Micros now, std::vector<std::uint8_t>& out) {
    const auto ready = next_ready_time();
    if (!ready || *ready > now) return false;
    while (!segments_.empty()) {
        Segment& s = segments_.front();
        const Micros delivered = std::max(last_delivered_, *s.arrival);
        if (delivered > *s.arrival) {
            ++counters_.held_back;
            counters_.max_held_back = std::max(counters_.max_held_back, delivered - *s.arrival);
        }
        acks_.push_back(Ack{delivered + return_latency_, s.bytes});
        last_delivered_ = delivered;
        const bool last = s.last;
        if (last) out = std::move(s.data);
        segments_.pop_front();
        if (last) {
            ++counters_.delivered;
            return true;
        }
    }
    return false;  // not reached: next_ready_time() found the write's last segment
}

bool StreamLink::in_loss_state(Micros now) {
    advance(now);
    return now < loss_state_until_ || timeout_copy_lost_;
}

std::size_t StreamLink::unacked_bytes(Micros now) {
    while (!acks_.empty() && acks_.front().at <= now) acks_.pop_front();
    std::size_t n = 0;
    for (const Ack& a : acks_)
        if (a.at > now) n += a.bytes;
    // Segments the receiver has not taken yet may be delivered and acknowledged already (it reads at its
    // own update); the first one missing holds back the cumulative ack of everything after it.
    Micros delivered = last_delivered_;
    bool in_order = true;
    for (const Segment& s : segments_) {
        if (in_order && s.arrival) {
            delivered = std::max(delivered, *s.arrival);
            if (delivered + return_latency_ <= now) continue;
        } else {
            in_order = false;
        }
        n += s.bytes;
    }
    return n;
}

void StreamLink::reset() {
    counters_.discarded += segments_.size();
    segments_.clear();
    losses_.clear();
    acks_.clear();
    loss_state_until_ = Micros{};  // a new connection starts out of the loss state
    timeout_copy_lost_ = false;
}

}  // namespace rwd::transport::sim
