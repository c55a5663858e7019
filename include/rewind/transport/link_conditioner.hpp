/// LinkConditioner: a seeded impairment model for ONE direction of a link, usable by SimNetwork and a UDP
/// relay.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/rng.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace rwd::transport {

/// What a LinkConditioner did with the packets it was given.
struct LinkCounters {
    std::uint64_t submitted = 0;        ///< packets handed to submit()
    std::uint64_t dropped_mtu = 0;      ///< larger than the MTU
    std::uint64_t dropped_queue = 0;    ///< the bandwidth queue was full
    std::uint64_t dropped_burst = 0;    ///< lost by the Gilbert–Elliott model
    std::uint64_t dropped_random = 0;   ///< lost by independent random loss
    std::uint64_t duplicated = 0;       ///< extra copies scheduled
    std::uint64_t reordered = 0;        ///< packets held back by the reorder delay
    std::uint64_t delivered = 0;        ///< packets (copies included) handed out by pop_ready()
    std::uint64_t bytes_submitted = 0;  ///< payload bytes handed to submit()
    std::uint64_t bytes_delivered = 0;  ///< payload bytes handed out by pop_ready()
};

/// Decides, for each packet of one direction, whether and when it comes out. The order of impairments:
/// MTU check, bandwidth queue (the packet leaves the bottleneck after its serialization time), burst loss,
/// random loss, then delay (latency + jitter, FIFO unless held back for reordering) and duplication.
/// Deterministic: the same seed, config and calls give the same output. Each impairment draws from its own
/// random stream, so switching one knob on or off leaves the decisions of the others unchanged.
/// `now` must not go backwards between calls.
class LinkConditioner {
public:
    /// A conditioner with `config` (which must validate; an invalid one is replaced by a perfect link) and
    /// `seed`.
    explicit LinkConditioner(const LinkConfig& config = {}, std::uint64_t seed = 0);

    /// Changes the impairments from now on; packets already scheduled keep their delivery time.
    [[nodiscard]] Status set_config(const LinkConfig& config);
    /// The current impairments.
    [[nodiscard]] const LinkConfig& config() const { return config_; }

    /// Hands one packet to the link at time `now`; it is dropped or scheduled for delivery (maybe twice).
    void submit(Micros now, std::vector<std::uint8_t> packet);
    /// As submit(now, packet), but the MTU check, the bandwidth queue and the byte counters take the packet
    /// to be `wire_bytes` long (a stream's segment travels as a small tag standing for its bytes).
    void submit(Micros now, std::vector<std::uint8_t> packet, std::size_t wire_bytes);
    /// Moves the earliest packet due at or before `now` into `out`; false when none is due.
    [[nodiscard]] bool pop_ready(Micros now, std::vector<std::uint8_t>& out);
    /// When the earliest scheduled packet is due, if any.
    [[nodiscard]] std::optional<Micros> next_ready_time() const;
    /// Packets scheduled but not yet handed out.
    [[nodiscard]] std::size_t in_flight() const { return scheduled_.size() + fifo_packets_.size(); }
    /// Bytes waiting at the bandwidth bottleneck at `now` (0 when bandwidth is unlimited).
    [[nodiscard]] std::size_t queued_bytes(Micros now) const;
    /// What happened so far.
    [[nodiscard]] const LinkCounters& counters() const { return counters_; }

private:
    struct Scheduled {
        Micros at;
        std::uint64_t order;  // submission order, breaks ties so equal times keep FIFO order
        std::vector<std::uint8_t> data;
    };
    struct Later {
        bool operator()(const Scheduled& a, const Scheduled& b) const {
            return a.at != b.at ? a.at > b.at : a.order > b.order;
        }
    };

    Micros sample_delay(Micros now);
    void schedule(Micros at, std::vector<std::uint8_t> data);

    LinkConfig config_;
    Rng rng_burst_;
    Rng rng_loss_;
    Rng rng_delay_;
    Rng rng_dup_;
    Rng rng_reorder_;
    bool burst_bad_ = false;
    bool jitter_started_ = false;
    double jitter_state_ = 0.0;  // the correlated jitter, in standard deviations
    Micros jitter_time_{};
    Micros bottleneck_free_at_{};  // when the bottleneck finishes sending what it accepted
    std::uint64_t next_order_ = 0;
    std::vector<Scheduled> scheduled_;  // held-back packets and copies: a min-heap on (at, order)
    // Ordinary packets keep their order: the k-th earliest pending time goes to the k-th oldest pending
    // packet.
    std::deque<std::vector<std::uint8_t>> fifo_packets_;  // in submission order
    std::vector<Micros> fifo_times_;                      // a min-heap of their delivery times
    Micros fifo_max_{};                                   // the latest of fifo_times_
    LinkCounters counters_;
};

}  // namespace rwd::transport
