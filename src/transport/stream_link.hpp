// StreamLink: one direction of a TCP-like connection in SimNetwork: an ordered, reliable stream of segments
// over a LinkConditioner, with retransmission after loss and head-of-line blocking.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/link_conditioner.hpp>
#include <rewind/transport/sim_network.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace rwd::transport::sim {

// The model, per direction:
// - A write (one datagram of the endpoint) becomes ceil(bytes / MSS) segments (at least one), MSS = the
//   link's MTU less the TCP/IP header. Each segment crosses the link's LinkConditioner on its own: the same
//   bandwidth queue, loss, bursts, jitter, reordering and duplication as a datagram.
// - The receiver hands writes out in order: a segment is delivered at max(its arrival, the previous
//   segment's delivery), so jitter never reorders and a late segment holds back everything behind it.
//   Duplicate copies are discarded.
// - A lost copy is sent again. Retransmission is RACK's (RFC 8985, Linux's default): once a segment sent
//   after the lost copy is acknowledged (it arrived, and its ack took the reverse one-way latency), the lost
//   one is resent when RTT + RTT / 4 (the reordering window) have passed since it was sent. A game stream
//   always has a later segment in flight (a snapshot or input every frame, a keepalive at least every
//   100 ms), so a loss costs about 1.25 RTT. If nothing later is acknowledged first, the retransmission
//   timeout fires: RTO = RTT + max(min_rto, 4 x RTT deviation), doubled for each timeout of that segment, as
//   during an outage. A retransmission can be lost too and is resent the same way.
// - RTT is this direction's latency plus the reverse one's (set_return_path); the deviation adds both
//   jitters. Congestion control is not modelled: a game's stream is far below any congestion window.
// - The sender's acknowledged point: a segment is acknowledged one reverse latency after its delivery
//   (cumulative acks); unacked_bytes() is the sender's SIOCOUTQ.
// Deterministic: the conditioner is seeded, and nothing else draws.
class StreamLink {
public:
    StreamLink(const LinkConfig& config, std::uint64_t seed, const SimStreamConfig& stream);

    // Changes the impairments from now on (segments in flight keep their times).
    [[nodiscard]] Status set_config(const LinkConfig& config);
    // The reverse direction's mean latency and jitter: acknowledgments travel it, and the round trip is
    // this direction's latency plus it.
    void set_return_path(Micros latency, Micros jitter);

    // Writes `data` at `now`; it occupies `stream_bytes` bytes of the stream (its frames: the segments'
    // sizes). Runs advance(now) first.
    void write(Micros now, std::vector<std::uint8_t> data, std::size_t stream_bytes);
    // Sends every retransmission due by `now`, in time order. Call before next_ready_time() / pop_ready().
    void advance(Micros now);
    // When the next write is delivered, if its segments have all arrived.
    [[nodiscard]] std::optional<Micros> next_ready_time() const;
    // Moves the next write delivered by `now` into `out`; false when none is.
    [[nodiscard]] bool pop_ready(Micros now, std::vector<std::uint8_t>& out);
    // Stream bytes written and not yet acknowledged at `now` (lost, in flight, waiting, or their ack on the
    // way back).
    [[nodiscard]] std::size_t unacked_bytes(Micros now);
    // The sender is in Linux's loss state at `now`: a segment was resent by the retransmission timeout (an
    // outage) and that copy is not acknowledged yet. With its congestion window collapsed to one segment a
    // real sender writes nothing new meanwhile: this model's sender still does, but the backlog rule treats
    // the stream as backed up. Fast recovery (a loss found by RACK) is not: what is written then is already
    // on its way and arrives the moment the hole is filled. Runs advance(now) first.
    [[nodiscard]] bool in_loss_state(Micros now);
    // The connection is gone (timed out): everything in flight is discarded.
    void reset();

    // A sender's unreliable message was replaced (counted here for the direction).
    void count_replaced() { ++counters_.unreliable_replaced; }
    [[nodiscard]] const StreamCounters& counters() const { return counters_; }
    // The round trip and its deviation the timers use.
    [[nodiscard]] Micros rtt() const { return config_.latency + return_latency_; }
    [[nodiscard]] Micros rto(int backoff) const;
    [[nodiscard]] Micros rack_delay() const { return rtt() + Micros{rtt().count / 4}; }

private:
    struct Segment {
        std::uint64_t id = 0;
        std::size_t bytes = 0;  // stream bytes it carries
        bool last = false;      // the write's last segment: it carries the datagram
        std::vector<std::uint8_t> data;
        std::optional<Micros> arrival;  // its first copy's arrival at the receiver
    };
    struct Loss {  // a lost copy waiting to be sent again
        std::uint64_t id = 0;
        std::uint64_t xmit = 0;  // transmission order of the lost copy
        Micros sent{};
        int backoff = 0;                // RTO timeouts of this segment so far
        Micros rto_at{};                // resend by timeout
        std::optional<Micros> rack_at;  // resend by RACK, once a later copy was acknowledged
        [[nodiscard]] Micros due() const { return rack_at && *rack_at < rto_at ? *rack_at : rto_at; }
    };
    struct Ack {  // a delivered segment whose acknowledgment is on its way back
        Micros at;
        std::size_t bytes;
    };

    void transmit(Micros at, std::uint64_t id, int backoff, bool resend);
    Segment* find(std::uint64_t id);

    LinkConfig config_;
    SimStreamConfig stream_;
    LinkConditioner path_;  // the IP path of this direction: impairments per segment
    Micros return_latency_{}, return_jitter_{};
    std::deque<Segment> segments_;  // undelivered, in stream order
    std::uint64_t next_id_ = 0;
    std::uint64_t next_xmit_ = 0;
    std::vector<Loss> losses_;
    std::deque<Ack> acks_;
    Micros last_delivered_{};
    Micros loss_state_until_{};  // when the acknowledgment of the latest timeout's copy reaches the sender
    bool timeout_copy_lost_ = false;  // a copy the timeout resent was lost: the state lasts till one arrives
    Micros now_{};                    // the latest time the path was given
    std::vector<std::uint8_t> tag_;
    StreamCounters counters_;
};

}  // namespace rwd::transport::sim
