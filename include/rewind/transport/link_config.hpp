/// LinkConfig: the impairments of one direction of a network link (latency, jitter, loss, bursts, ...) and
/// named profiles.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace rwd::transport {

/// Gilbert–Elliott burst loss: a two-state Markov chain stepped once per packet. In the bad state packets are
/// lost with `loss_in_bad`, in the good state with `loss_in_good`. Off when p_good_to_bad and loss_in_good
/// are both 0.
struct BurstLoss {
    double p_good_to_bad = 0.0;  ///< per packet, probability of entering the bad state
    double p_bad_to_good = 1.0;  ///< per packet, probability of leaving it (mean burst length = 1 / this)
    double loss_in_bad = 1.0;    ///< loss probability while in the bad state
    double loss_in_good = 0.0;   ///< loss probability while in the good state

    /// True when this model can drop anything.
    [[nodiscard]] bool enabled() const { return p_good_to_bad > 0.0 || loss_in_good > 0.0; }
    /// The long-run fraction of packets this model drops (stationary distribution of the chain).
    [[nodiscard]] double stationary_loss() const;
};

/// Longest latency, jitter, jitter_correlation or reorder_delay accepted (one hour): delays are summed in
/// int64 microseconds, and this keeps every sum far from overflow.
inline constexpr Micros kMaxLinkDelay{3'600'000'000};
/// Largest queue_bytes accepted (1 GiB).
inline constexpr std::size_t kMaxLinkQueueBytes = std::size_t{1} << 30;
/// Largest packet_overhead accepted (bytes).
inline constexpr std::size_t kMaxLinkPacketOverhead = 65535;

/// One direction of a link. Every figure is per direction: a round trip pays `latency` twice.
///
/// Delay model: each packet's one-way delay is `latency` plus a normal sample with standard deviation
/// `jitter` (clipped to ±4 sigma and at zero). Jitter alone never reorders: the delivery times drawn for the
/// packets in flight are handed out in sending order (the earliest pending time goes to the oldest pending
/// packet). The arrival times are thus exactly those of independent jitter and the mean delay is exactly
/// `latency` at any send rate; only when packets are sent closer together than the jitter spread does each
/// packet's own delay spread a little less. With `jitter_correlation` > 0 the jitter is an Ornstein–Uhlenbeck
/// process in time (still normal with standard deviation `jitter` at any instant): packets close together see
/// similar delays, as behind a real queue, so each packet's delay keeps the full configured spread even at
/// high send rates. Reordering is separate: with probability `reorder` a packet leaves that order and is held
/// back by `reorder_delay` extra, so packets sent after it overtake it.
struct LinkConfig {
    Micros latency{};                    ///< mean one-way delay
    Micros jitter{};                     ///< standard deviation of the one-way delay
    Micros jitter_correlation{100'000};  ///< time constant of the delay's drift; 0 = independent per packet
    double loss = 0.0;                   ///< independent random loss probability, 0..1
    BurstLoss burst{};                   ///< Gilbert–Elliott burst loss, applied in addition to `loss`
    double duplicate = 0.0;              ///< probability a delivered packet is delivered twice
    double reorder = 0.0;                ///< probability a packet is held back and delivered after later ones
    Micros reorder_delay{30'000};        ///< extra delay of a held-back packet
    std::uint32_t bandwidth_kbps = 0;  ///< bottleneck rate in kilobits per second (1000 bit/s); 0 = unlimited
    std::size_t queue_bytes =
        32 * 1024;  ///< bytes that may wait at the bottleneck; excess is dropped (counted)
    std::size_t packet_overhead =
        28;                  ///< bytes added per packet when computing bandwidth (IPv4 + UDP headers)
    std::size_t mtu = 1200;  ///< largest datagram carried; larger ones are dropped (counted)

    /// invalid_config with a description when a value is out of range.
    [[nodiscard]] Status validate() const;
    /// The long-run fraction of packets lost by `loss` and `burst` together (not counting queue or MTU
    /// drops).
    [[nodiscard]] double expected_loss() const;
};

/// A named LinkConfig: lan, broadband, wifi, mobile, intercontinental, hostile, checklist (figures documented
/// in link_config.cpp). invalid_argument for an unknown name.
[[nodiscard]] Result<LinkConfig> link_profile(std::string_view name);

/// The names link_profile() knows, in a stable order.
[[nodiscard]] std::span<const std::string_view> link_profile_names();

}  // namespace rwd::transport
