/// Transport: one endpoint talking to peers over unreliable and reliable-ordered delivery, driven by `now`.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rwd::transport {

/// A peer as one endpoint knows it. Ids are local to the endpoint and are not reused while it lives.
using PeerId = std::uint32_t;
/// The id no peer ever has (what a failed or absent lookup returns).
inline constexpr PeerId kInvalidPeer = 0;

/// Where an endpoint lives: a host name or address and a port. SimNetwork uses the same shape.
struct Address {
    std::string host;        ///< host name or numeric address
    std::uint16_t port = 0;  ///< UDP port (or the simulated one)
    /// Same host string and port.
    friend bool operator==(const Address&, const Address&) = default;
};

/// How a message travels.
enum class Delivery : std::uint8_t {
    unreliable,  ///< may be lost, duplicated or reordered; never blocks; latest wins (inputs, snapshots)
    reliable_ordered,  ///< arrives exactly once, in order, or the peer is disconnected (events: spawn, death,
                       ///< chat)
};

/// Why a peer went away.
enum class DisconnectReason : std::uint8_t {
    none,       ///< no reason (not a disconnect)
    local,      ///< this endpoint called disconnect()
    remote,     ///< the peer said goodbye
    timed_out,  ///< nothing heard for longer than the timeout
    refused,    ///< the connection was refused (full, bad token, ...)
    kicked,     ///< the application disconnected the peer for misbehaving
};

/// The readable name of a DisconnectReason.
std::string_view disconnect_reason_name(DisconnectReason r);

/// Something that happened on the endpoint; returned by Transport::poll().
struct TransportEvent {
    /// What happened: a peer connected, a peer went away, or a message arrived.
    enum class Type : std::uint8_t { connected, disconnected, message };
    Type type = Type::message;                         ///< what happened
    PeerId peer = kInvalidPeer;                        ///< the peer it happened with
    Delivery delivery = Delivery::unreliable;          ///< for messages: how it travelled
    DisconnectReason reason = DisconnectReason::none;  ///< for disconnects: why
    std::vector<std::uint8_t> data;                    ///< the message bytes (untrusted!)
};

/// Per-peer link statistics, as this endpoint measures them.
struct PeerStats {
    Micros rtt{};                        ///< smoothed round-trip time
    Micros jitter{};                     ///< mean deviation of the round-trip time
    double loss = 0.0;                   ///< fraction of packets lost recently, 0..1
    std::uint64_t bytes_sent = 0;        ///< payload plus transport header bytes sent to the peer
    std::uint64_t bytes_received = 0;    ///< payload plus transport header bytes received from the peer
    std::uint64_t packets_sent = 0;      ///< datagrams sent to the peer
    std::uint64_t packets_received = 0;  ///< datagrams received from the peer
    double kbps_sent = 0.0;              ///< recent send rate, kilobits per second, headers included
    double kbps_received = 0.0;          ///< recent receive rate, kilobits per second, headers included
};

/// One endpoint. Implementations: SimNetwork endpoints (tests, lab), ENet (real UDP), WebSocket (browsers;
/// and the browser build's own), and MuxTransport (several as one). Nothing happens between calls:
/// update(now) moves time, poll() hands out what arrived.
class Transport {
public:
    virtual ~Transport() = default;

    /// Starts connecting to a listening endpoint; a `connected` event follows on success.
    [[nodiscard]] virtual Result<PeerId> connect(const Address& to) = 0;
    /// Drops a peer; the peer sees `disconnected` with reason `remote`.
    virtual void disconnect(PeerId peer, DisconnectReason reason = DisconnectReason::local) = 0;
    /// Queues a message. Unreliable messages larger than max_message_size() are refused.
    [[nodiscard]] virtual Status send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) = 0;
    /// Advances the endpoint to `now`: sends queued packets, takes in arrived ones, checks timeouts.
    virtual void update(Micros now) = 0;
    /// Takes the next event; false when there is none.
    [[nodiscard]] virtual bool poll(TransportEvent& out) = 0;
    /// Link statistics for a connected peer.
    [[nodiscard]] virtual PeerStats stats(PeerId peer) const = 0;
    /// The largest unreliable message this transport carries in one datagram.
    [[nodiscard]] virtual std::size_t max_message_size() const = 0;
    /// Bytes of transport header added to each datagram (for bandwidth accounting; UDP/IP not included).
    [[nodiscard]] virtual std::size_t header_bytes() const = 0;
};

}  // namespace rwd::transport
