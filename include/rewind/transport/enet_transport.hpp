/// EnetTransport: the Transport interface over real UDP, carried by ENet 1.3 (Debian's libenet-dev).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace rwd::transport {

/// How an EnetTransport binds, how many peers it takes and how ENet times peers out.
///
/// ENet keeps its own millisecond clock (enet_time_get) for retransmission, pings and timeouts. That is the
/// one hidden clock rewind accepts, and only inside this real-UDP transport: the `now` given to update()
/// drives only what rewind computes itself (the send/receive rates in PeerStats).
struct EnetConfig {
    std::string bind_host = "0.0.0.0";  ///< local IPv4 address to bind ("0.0.0.0" = every interface)
    std::uint16_t port = 0;             ///< local UDP port; 0 = an ephemeral port the OS picks
    bool accept_incoming = true;        ///< false: a client-only endpoint, incoming connects are refused
    std::size_t max_peers = 32;         ///< peers at once, incoming and outgoing together; more are refused
    std::size_t mtu = 1200;             ///< largest datagram ENet sends (ENet header included, UDP/IP not)
    std::size_t max_reliable_size = 65536;  ///< largest reliable message sent or accepted (ENet fragments it)
    std::size_t max_waiting_bytes = 1 << 20;  ///< received bytes ENet may buffer per peer before dropping
    std::size_t max_held_messages = 256;      ///< messages held per peer while its accept is in flight
    /// Half-open ENet peers (connection request seen, handshake not finished) one IPv4 host may hold at once;
    /// more requests from it are dropped until one finishes. Clients behind one NAT or one relay share it, so
    /// a burst of them joining at once waits for ENet's resend (500 ms) past it. 1..4096.
    std::size_t max_half_open_per_host = 8;
    bool unsequenced_unreliable =
        true;  ///< true: unreliable may arrive in any order; false: stale ones dropped
    std::uint32_t timeout_limit = 32;    ///< enet_peer_timeout: retransmission backoffs before giving up
    Micros timeout_minimum{5'000'000};   ///< enet_peer_timeout: an unacked message this old may time out
    Micros timeout_maximum{10'000'000};  ///< enet_peer_timeout: an unacked message this old always times out
    Micros ping_interval{500'000};       ///< an idle peer is pinged this often (keeps RTT fresh)
    Micros rate_window{1'000'000};       ///< span over which kbps_sent / kbps_received are averaged

    /// invalid_config with a description when a value is out of range.
    [[nodiscard]] Status validate() const;
};

/// Endpoint-wide counters (everything a peer cannot be blamed for individually).
struct EnetCounters {
    std::uint64_t datagrams_received = 0;  ///< every UDP datagram that reached the socket
    std::uint64_t datagrams_ignored =
        0;                           ///< too short, unknown peer slot, wrong address/session: ENet ignores it
    std::uint64_t refused_full = 0;  ///< connect attempts refused because max_peers was reached
    std::uint64_t refused_protocol =
        0;  ///< connect attempts refused: not rewind's protocol id or channel count
    std::uint64_t challenges_answered = 0;  ///< challenge requests answered with a cookie
    std::uint64_t connects_unverified =
        0;  ///< ENet connection requests dropped before taking a slot: no valid cookie for their address
    std::uint64_t connects_half_open_limited =
        0;  ///< ... dropped because their IPv4 host already held the most half-open slots it may
    std::uint64_t messages_dropped =
        0;                             ///< received messages dropped (bad channel, oversize, hold queue full)
    std::uint64_t bytes_sent = 0;      ///< UDP payload bytes sent by the host (ENet headers included)
    std::uint64_t bytes_received = 0;  ///< UDP payload bytes received by the host
};

/// A Transport over ENet. Channel 0 carries unreliable messages (unsequenced by default), channel 1
/// reliable-ordered ones, channel 2 rewind's own control messages; so a lost reliable message never holds
/// back an unreliable one. See the "Transport (ENet)" section of docs/PROTOCOL.md for the wire details.
///
/// A connection is reported `connected` only after the listening side accepted it: a server that is full or
/// sees the wrong protocol id disconnects the new ENet peer with a reason code, and the connecting side
/// reports `disconnected` with reason `refused` without ever reporting `connected`.
class EnetTransport final : public Transport {
public:
    /// A bound endpoint, or invalid_config / io_error (with the reason, e.g. the port is in use).
    [[nodiscard]] static Result<std::unique_ptr<EnetTransport>> create(const EnetConfig& config);
    ~EnetTransport() override;
    EnetTransport(const EnetTransport&) = delete;
    EnetTransport& operator=(const EnetTransport&) = delete;

    /// Starts connecting to `to` (a numeric IPv4 address or a host name, resolved now and blocking).
    [[nodiscard]] Result<PeerId> connect(const Address& to) override;
    /// Drops a peer gracefully; the peer sees `disconnected` with reason `remote`, this side with `reason`.
    void disconnect(PeerId peer, DisconnectReason reason = DisconnectReason::local) override;
    /// Queues a message; length_too_long above max_message_size() (unreliable) or max_reliable_size
    /// (reliable).
    [[nodiscard]] Status send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) override;
    /// Services ENet without blocking until it has nothing more to report; sends what send() queued.
    void update(Micros now) override;
    /// Takes the next event; false when there is none.
    [[nodiscard]] bool poll(TransportEvent& out) override;
    /// RTT, jitter and loss as ENet measures them; bytes and rates as rewind accumulates them.
    [[nodiscard]] PeerStats stats(PeerId peer) const override;
    /// The largest unreliable message that fits one datagram without fragmentation.
    [[nodiscard]] std::size_t max_message_size() const override;
    /// ENet bytes around one message in its own datagram: 4-byte protocol header plus 8-byte command header.
    [[nodiscard]] std::size_t header_bytes() const override;

    /// The address and port actually bound (the real port when the config asked for 0).
    [[nodiscard]] Address local_address() const;
    /// Peers connected or connecting.
    [[nodiscard]] std::size_t peer_count() const;
    /// Endpoint-wide counters.
    [[nodiscard]] EnetCounters counters() const;
    /// The config this endpoint was created with.
    [[nodiscard]] const EnetConfig& config() const;

    class Impl;  ///< internal

private:
    explicit EnetTransport(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace rwd::transport
