/// WebSocketTransport: the Transport interface over WebSocket connections (RFC 6455, Boost.Beast), so that
/// browsers, which cannot send UDP, play on the same server as native clients.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace rwd::transport {

/// How a WebSocketTransport listens, how many peers it takes, how large messages may be and when a peer is
/// backed up. Boost.Asio keeps its own steady clock for the handshake and ping timers (like ENet's, the one
/// hidden clock rewind accepts, and only inside a real-network transport); the `now` given to update() drives
/// the send/receive rates only.
struct WebSocketConfig {
    std::string bind_host = "0.0.0.0";  ///< local IPv4 address to listen on
    std::uint16_t port = 0;             ///< local TCP port; 0 = an ephemeral port the OS picks
    bool accept_incoming = true;        ///< false: a client-only endpoint that listens nowhere
    std::size_t max_peers = 32;         ///< accepted peers at once; one more is told "refused" (close 4004)
    /// Connections still in their HTTP/WebSocket handshake at once; more are closed at once
    /// (`refused_full`), so slow or silent sockets cannot hold the server's memory. 1..4096.
    std::size_t max_handshakes = 64;
    std::size_t max_message_size = 1172;  ///< largest unreliable message (ENet's default, so both plan alike)
    std::size_t max_reliable_size = 65536;  ///< largest reliable message sent or accepted
    /// While more than this many bytes to a peer wait unsent (queued here plus, on Linux, the kernel's unsent
    /// ones), or its TCP connection is in the loss state after a retransmission timeout, unreliable messages
    /// to it are held, the newest replacing the one before (docs/PROTOCOL.md).
    std::size_t max_backlog_bytes = 4096;
    std::size_t max_reliable_backlog = 1 << 20;  ///< a peer with more queued here is dropped as timed_out
    Micros handshake_timeout{5'000'000};         ///< an HTTP request or handshake slower than this is closed
    Micros timeout{10'000'000};     ///< a peer silent this long (pings unanswered) is dropped as timed_out
    Micros rate_window{1'000'000};  ///< span over which kbps_sent / kbps_received are averaged

    /// invalid_config with a description when a value is out of range.
    [[nodiscard]] Status validate() const;
};

/// Endpoint-wide counters.
struct WebSocketCounters {
    std::uint64_t connections_accepted = 0;  ///< peers seated (the accept was sent)
    std::uint64_t refused_full = 0;          ///< connections refused: max_peers seated or max_handshakes open
    std::uint64_t refused_protocol = 0;  ///< HTTP requests for another path, not an upgrade, or no `rewind.1`
    /// Sockets closed before their handshake finished (timeout, not HTTP, a failed upgrade).
    std::uint64_t handshake_failures = 0;
    /// Connections closed for a text, empty, unknown-class, oversize or misplaced control message.
    std::uint64_t messages_refused = 0;
    std::uint64_t protocol_errors = 0;  ///< frames the WebSocket layer refused (opcode, mask, length, bits)
    std::uint64_t unreliable_replaced = 0;  ///< unreliable messages replaced by a newer one while backed up
    std::uint64_t backlog_drops = 0;      ///< peers dropped for a reliable backlog over max_reliable_backlog
    std::uint64_t messages_sent = 0;      ///< messages written (control messages included)
    std::uint64_t messages_received = 0;  ///< messages read
    std::uint64_t bytes_sent = 0;         ///< WebSocket frame bytes written (frame headers included)
    std::uint64_t bytes_received = 0;     ///< WebSocket frame bytes read (frame headers included)
};

/// A Transport over WebSocket. Every message is one binary WebSocket message whose first byte is its class
/// (unreliable, reliable, control); a connection is reported `connected` once the server's accept arrived.
/// Both classes share one ordered TCP stream, so an unreliable message is never written while the peer is
/// backed up: it waits, and a newer one replaces it. The "Transport (WebSocket)" section of docs/PROTOCOL.md
/// has the wire details.
class WebSocketTransport final : public Transport {
public:
    /// A listening (or client-only) endpoint, or invalid_config / io_error (with the reason, e.g. the port is
    /// in use).
    [[nodiscard]] static Result<std::unique_ptr<WebSocketTransport>> create(const WebSocketConfig& config);
    ~WebSocketTransport() override;
    WebSocketTransport(const WebSocketTransport&) = delete;
    WebSocketTransport& operator=(const WebSocketTransport&) = delete;

    /// Starts connecting to ws://to.host:to.port/rewind (the name is resolved now, blocking).
    [[nodiscard]] Result<PeerId> connect(const Address& to) override;
    /// Closes the connection with code 4000 + reason after what is queued; reports `disconnected(reason)`.
    void disconnect(PeerId peer, DisconnectReason reason = DisconnectReason::local) override;
    /// Queues a message; length_too_long above max_message_size (unreliable) or max_reliable_size.
    [[nodiscard]] Status send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) override;
    /// Runs what the sockets have ready without blocking, writes held messages once a backlog drained.
    void update(Micros now) override;
    /// Takes the next event; false when there is none.
    [[nodiscard]] bool poll(TransportEvent& out) override;
    /// RTT and jitter from the socket's TCP_INFO, loss from its retransmissions, bytes and rates counted
    /// here.
    [[nodiscard]] PeerStats stats(PeerId peer) const override;
    /// config.max_message_size.
    [[nodiscard]] std::size_t max_message_size() const override;
    /// A frame header (2 bytes for a small message) plus the class byte: 3; 7 on a client-only endpoint,
    /// whose frames carry the 4-byte mask.
    [[nodiscard]] std::size_t header_bytes() const override;

    /// The address and port actually listened on (port 0 when not listening).
    [[nodiscard]] Address local_address() const;
    /// Peers seated or connecting.
    [[nodiscard]] std::size_t peer_count() const;
    /// Endpoint-wide counters.
    [[nodiscard]] WebSocketCounters counters() const;
    /// The config this endpoint was created with.
    [[nodiscard]] const WebSocketConfig& config() const;

    class Impl;  ///< internal

private:
    explicit WebSocketTransport(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace rwd::transport
