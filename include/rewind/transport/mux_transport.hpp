/// MuxTransport: several transports seen as one, so one Server<G> takes native (UDP) and browser (WebSocket)
/// clients in the same match.
#pragma once

#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rwd::transport {

/// Joins transports it does not own. Every peer gets an id of its own here (ids of different parts never
/// collide, and none is reused); poll() takes from the parts in turn, each part's events in their own order.
/// connect() goes through the first part. max_message_size() is the smallest of the parts' (so a server plans
/// snapshots every client can take); header_bytes() the largest.
class MuxTransport final : public Transport {
public:
    /// The parts, in the order they are updated and polled; none may be null.
    explicit MuxTransport(std::vector<Transport*> parts);

    /// Connects through the first part.
    [[nodiscard]] Result<PeerId> connect(const Address& to) override;
    /// Disconnects through the peer's part (which reports it; unknown peers are ignored).
    void disconnect(PeerId peer, DisconnectReason reason = DisconnectReason::local) override;
    /// Sends through the peer's part; not_connected for an unknown peer.
    [[nodiscard]] Status send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) override;
    /// Updates every part.
    void update(Micros now) override;
    /// The next event of the parts, in turn, with the peer's id here.
    [[nodiscard]] bool poll(TransportEvent& out) override;
    /// The peer's part's figures (zero for an unknown peer).
    [[nodiscard]] PeerStats stats(PeerId peer) const override;
    /// The smallest of the parts'.
    [[nodiscard]] std::size_t max_message_size() const override;
    /// The largest of the parts'.
    [[nodiscard]] std::size_t header_bytes() const override;

    /// Which part a peer is on (its index), or -1 for an unknown peer.
    [[nodiscard]] int part_of(PeerId peer) const;

private:
    struct Route {
        PeerId id = kInvalidPeer;     // ours
        std::size_t part = 0;         // which transport
        PeerId inner = kInvalidPeer;  // its id there
    };
    [[nodiscard]] const Route* find(PeerId id) const;
    PeerId adopt(std::size_t part, PeerId inner);
    void forget(PeerId id);

    std::vector<Transport*> parts_;
    std::vector<Route> routes_;  // live peers (few: a linear search is fine)
    std::size_t next_part_ = 0;  // poll() goes round the parts from here
    PeerId next_id_ = 1;
};

}  // namespace rwd::transport
