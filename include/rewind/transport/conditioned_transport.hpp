/// ConditionedTransport: a Transport decorator that delays and drops another Transport's messages in each
/// direction.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/link_conditioner.hpp>
#include <rewind/transport/link_config.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace rwd::transport {

/// Impairments of a ConditionedTransport: `up` for what this endpoint sends, `down` for what it receives.
struct ConditionedLinks {
    LinkConfig up{};    ///< applied to messages this endpoint sends
    LinkConfig down{};  ///< applied to messages this endpoint receives

    /// invalid_config when either direction does not validate.
    [[nodiscard]] Status validate() const;
};

/// What a ConditionedTransport did, summed over its peers.
struct ConditionedCounters {
    LinkCounters up{};                     ///< outgoing unreliable messages through the up conditioners
    LinkCounters down{};                   ///< incoming unreliable messages through the down conditioners
    std::uint64_t reliable_delayed = 0;    ///< reliable messages held back (never dropped, order kept)
    std::uint64_t discarded_on_close = 0;  ///< messages still in flight when their peer went away
};

/// Wraps an inner Transport (not owned; it must outlive the wrapper) and runs every unreliable message
/// through a LinkConditioner per peer and direction: latency, jitter, loss, bursts, duplication, reordering,
/// bandwidth, the same model as SimNetwork and rewind-relay. Reliable messages only take the latency of their
/// direction, in order and never lost: the inner transport already made them reliable, and a reliable message
/// the conditioner "lost" would be one the real network retransmits anyway. Connect and disconnect events
/// pass at once; messages still in flight when their peer goes away are discarded. Meant for clients that let
/// a player (or a test) impair its own link, e.g. from a debug overlay, without a relay in between.
class ConditionedTransport final : public Transport {
public:
    /// A wrapper around `inner` with `links` (an invalid config is replaced by perfect links) and a seed for
    /// the conditioners' generators (each peer and direction derives its own stream from it).
    ConditionedTransport(Transport& inner, const ConditionedLinks& links, std::uint64_t seed);
    ~ConditionedTransport() override;
    ConditionedTransport(const ConditionedTransport&) = delete;
    ConditionedTransport& operator=(const ConditionedTransport&) = delete;

    /// Changes the impairments from now on (messages already in flight keep their delivery time).
    [[nodiscard]] Status set_links(const ConditionedLinks& links);
    /// The impairments in use.
    [[nodiscard]] const ConditionedLinks& links() const { return links_; }
    /// What the conditioners did so far.
    [[nodiscard]] ConditionedCounters counters() const;
    /// The wrapped transport.
    [[nodiscard]] Transport& inner() { return inner_; }

    /// Connects through the inner transport.
    [[nodiscard]] Result<PeerId> connect(const Address& to) override;
    /// Disconnects through the inner transport; messages still held for the peer are discarded.
    void disconnect(PeerId peer, DisconnectReason reason = DisconnectReason::local) override;
    /// Holds the message in the peer's up direction; it reaches the inner transport when due (or never, if
    /// lost).
    [[nodiscard]] Status send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) override;
    /// Hands due outgoing messages to the inner transport, updates it, and conditions what it received.
    void update(Micros now) override;
    /// Takes the next event that is due; false when there is none.
    [[nodiscard]] bool poll(TransportEvent& out) override;
    /// The inner transport's statistics (what the real link measured, conditioning included).
    [[nodiscard]] PeerStats stats(PeerId peer) const override;
    /// The inner transport's limit.
    [[nodiscard]] std::size_t max_message_size() const override;
    /// The inner transport's header size.
    [[nodiscard]] std::size_t header_bytes() const override;

private:
    struct Held {
        Micros at{};
        std::vector<std::uint8_t> data;
    };
    struct Direction {
        LinkConditioner unreliable;
        std::deque<Held> reliable;  // FIFO; `at` never decreases
        Micros last_reliable_at{};
    };
    struct PeerLinks {
        std::unique_ptr<Direction> up;
        std::unique_ptr<Direction> down;
    };

    PeerLinks& links_for(PeerId peer);
    void drop_peer(PeerId peer);
    void release_up(Micros now);
    void release_down(Micros now);
    void hold_reliable(Direction& d, const LinkConfig& config, Micros now, std::vector<std::uint8_t> data);

    Transport& inner_;
    ConditionedLinks links_;
    std::uint64_t seed_ = 0;
    Micros now_{};
    std::map<PeerId, PeerLinks> peers_;
    std::deque<TransportEvent> ready_;
    ConditionedCounters closed_{};  // counters of peers that went away
    std::uint64_t reliable_delayed_ = 0;
    std::uint64_t discarded_ = 0;
};

}  // namespace rwd::transport
