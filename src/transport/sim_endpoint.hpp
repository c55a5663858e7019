// SimEndpoint: a Transport living inside a SimNetwork; speaks the sim protocol over conditioned links.
#pragma once

#include <rewind/transport/sim_network.hpp>
#include <rewind/transport/transport.hpp>

#include "transport/sim_peer.hpp"
#include "transport/sim_protocol.hpp"

#include <deque>
#include <map>
#include <memory>
#include <span>
#include <vector>

namespace rwd::transport::sim {

/// The links into one address, owned by the network (defined in sim_network.cpp).
struct Inbox;

// What an endpoint needs from its network: put a datagram on a link, take the ones that arrived. Links and
// inboxes are looked up once and then held: they live as long as the network, so the per-datagram path
// allocates and compares nothing.
class Wire {
public:
    struct Datagram {
        Address from;
        std::vector<std::uint8_t> bytes;
    };
    virtual ~Wire() = default;
    virtual Link& link(const Address& from, const Address& to) = 0;
    virtual Inbox& inbox(const Address& to) = 0;
    virtual void transmit(Micros now, Link& link, std::vector<std::uint8_t> bytes) = 0;
    // Stream endpoints: writes a datagram to the link's TCP-like stream; it takes `stream_bytes` bytes there
    // (its WebSocket frames).
    virtual void write_stream(Micros now, Link& link, std::vector<std::uint8_t> bytes,
                              std::size_t stream_bytes) = 0;
    // The link's stream is in the loss state after a retransmission timeout at `now` (StreamLink).
    virtual bool stream_in_loss_state(Micros now, Link& link) = 0;
    // The connection over `link` is gone: its stream discards what is in flight.
    virtual void reset_stream(Link& link) = 0;
    // Counts an unreliable message the sender replaced on `link`.
    virtual void count_replaced(Link& link) = 0;
    // What the link's stream did so far (all zero before its first write).
    virtual StreamCounters stream_counters(Link& link) = 0;
    // An empty datagram buffer, with the capacity of one already used when there is one: every datagram
    // travels in a recycled buffer, so a network in steady state allocates none.
    virtual std::vector<std::uint8_t> buffer() = 0;
    // Gives a datagram's buffer back once it has been read.
    virtual void recycle(std::vector<std::uint8_t>&& bytes) = 0;
    virtual void collect(Micros now, Inbox& inbox, std::vector<Datagram>& out) = 0;
    virtual void count_malformed() = 0;
    virtual void count_unknown_sender() = 0;
};

class SimEndpoint final : public Transport {
public:
    // `now`: the network's time at creation, so a late endpoint's first connect is not already overdue.
    // `stream`: a SimSocket::stream endpoint (its datagrams go through the links' TCP-like streams).
    SimEndpoint(Wire& wire, const SimNetworkConfig& config, Address address, std::size_t max_peers,
                bool accept_incoming, Micros now, bool stream = false);

    [[nodiscard]] Result<PeerId> connect(const Address& to) override;
    void disconnect(PeerId peer, DisconnectReason reason = DisconnectReason::local) override;
    [[nodiscard]] Status send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) override;
    void update(Micros now) override;
    [[nodiscard]] bool poll(TransportEvent& out) override;
    [[nodiscard]] PeerStats stats(PeerId peer) const override;
    [[nodiscard]] std::size_t max_message_size() const override;
    // A stream endpoint's header is a WebSocket frame's: 2 bytes and the class byte (as WebSocketTransport).
    [[nodiscard]] std::size_t header_bytes() const override {
        return stream_ ? kStreamHeaderBytes : kHeaderBytes;
    }

private:
    Peer* find(PeerId id);
    const Peer* find(PeerId id) const;
    Peer* find(const Address& a);
    Peer& add_peer(const Address& a, bool outgoing);
    void remove_peer(PeerId id, DisconnectReason reason, bool notify);

    void receive(Micros now, const Address& from, std::span<const std::uint8_t> bytes);
    void receive_data(Micros now, Peer& p, const Header& h, std::span<const std::uint8_t> bytes);
    void process_acks(Micros now, Peer& p, const Header& h, bool fresh);
    static bool ack_is_fresh(Peer& p, const Header& h);
    void record_received(Peer& p, Seq16 seq);
    void deliver_reliable(Peer& p, std::uint16_t id, std::span<const std::uint8_t> data);
    void malformed(Peer* p);

    void check_timeouts(Micros now);
    // Whether a packet with no message is due: an ack owed, or the keepalive interval passed.
    [[nodiscard]] bool bare_packet_due(Micros now, const Peer& p) const;
    // Whether flush() has anything to send now: a message, a due retransmission, an ack or a keepalive.
    [[nodiscard]] bool has_due(Micros now, Peer& p, Micros timeout) const;
    void flush(Micros now, Peer& p);
    // Sends `packet` (its header space first) with the reliable message ids it carries; packet is left empty.
    void emit(Micros now, Peer& p, std::vector<std::uint8_t>& packet, std::vector<std::uint16_t> ids,
              std::size_t frames = 0, std::size_t frame_bytes = 0);
    void send_control(Micros now, const Address& to, PacketType type,
                      std::span<const std::uint8_t> payload = {});
    void evaluate_loss(Micros now, Peer& p, bool make_room = false);
    [[nodiscard]] Micros rto(const Peer& p) const;
    [[nodiscard]] Micros loss_horizon(const Peer& p) const;

    // Stream endpoints (sim_stream_send.cpp).
    Link& link_of(Peer& p);
    // The WebSocket frame of one message: frame header, mask from the connecting side, class byte, message.
    [[nodiscard]] std::size_t frame_size(std::size_t message_bytes, bool masked) const;
    // Whether this endpoint masks what it sends to `p` (it connected: the client side).
    [[nodiscard]] static bool masks_to(const Peer& p) { return p.outgoing; }
    // Frame bytes of the messages queued for `p` and not yet written.
    [[nodiscard]] std::size_t unwritten_bytes(const Peer& p) const;
    // The real transport's rule: backed up while more than max_backlog_bytes are not yet written or the
    // stream is in the loss state after a retransmission timeout.
    [[nodiscard]] bool backed_up(Peer& p);
    // The backlog policy for an unreliable message: held (replacing the held one) while backed up.
    // True when `data` was held instead of queued.
    bool hold_if_backed_up(Peer& p, std::span<const std::uint8_t> data);
    // Queues the held unreliable message once the backlog has drained.
    void release_held(Peer& p);
    // The loss figure of a stream: the share of recent segment copies to `p` that were lost and sent again
    // (a stream loses no packet of the protocol; TCP_INFO's retransmissions are what a socket knows).
    void measure_stream_loss(Peer& p);
    // Counts a received datagram in `p`'s stats: its bytes, or on a stream its WebSocket frames.
    void count_received(Peer& p, const Header& h, std::span<const std::uint8_t> bytes);

    static constexpr std::size_t kStreamHeaderBytes = 3;

    Wire& wire_;
    const SimNetworkConfig& config_;
    Address address_;
    Inbox& inbox_of_;  // the links into address_
    std::size_t max_peers_;
    bool accept_incoming_;
    bool stream_;
    Micros now_{};
    PeerId next_peer_id_ = 1;
    std::map<PeerId, std::unique_ptr<Peer>> peers_;
    std::deque<TransportEvent> events_;
    std::vector<Wire::Datagram> inbox_;
    std::vector<MessageView> messages_;
};

}  // namespace rwd::transport::sim
