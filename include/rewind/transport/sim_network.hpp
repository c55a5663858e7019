/// SimNetwork: every endpoint in one process on virtual time, each direction of each link through a
/// LinkConditioner.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/link_conditioner.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace rwd::transport {

/// How an endpoint's datagrams travel.
enum class SimSocket : std::uint8_t {
    datagram,  ///< every datagram on its own through the link's conditioner (UDP, as ENet)
    stream,    ///< one ordered, reliable TCP-like stream per direction (WebSocket; see SimStreamConfig)
};

/// The TCP-like stream of SimSocket::stream endpoints. Over each direction the link's impairments apply to
/// TCP segments: a lost one is sent again, and everything written after it waits until it arrives.
struct SimStreamConfig {
    /// An unreliable message is held instead of written while more than this many bytes wait unwritten or
    /// the stream is in the loss state after a retransmission timeout; a newer one replaces the held one. As
    /// WebSocketTransport's max_backlog_bytes (docs/PROTOCOL.md).
    std::size_t max_backlog_bytes = 4096;
    /// Bytes of TCP/IP header per segment (40, or 52 with timestamps as Linux sends them); billed by the
    /// link's bandwidth queue instead of LinkConfig::packet_overhead.
    std::size_t segment_overhead = 52;
    /// The retransmission timeout's floor above the round trip: RTO = RTT + max(this, 4 x RTT deviation),
    /// doubled after each timeout of the same segment (Linux's rto_min).
    Micros min_rto{200'000};
    /// The longest RTO after backoff (Linux's TCP_RTO_MAX).
    Micros max_rto{120'000'000};

    /// invalid_config with a description when a value is out of range.
    [[nodiscard]] Status validate() const;
};

/// What the stream of one direction did (SimSocket::stream endpoints).
struct StreamCounters {
    std::uint64_t writes = 0;           ///< datagrams the sending endpoint wrote to the stream
    std::uint64_t segments = 0;         ///< TCP-like segments they made (one per MSS of frame bytes)
    std::uint64_t transmissions = 0;    ///< segments put on the link, retransmissions included
    std::uint64_t retransmissions = 0;  ///< copies sent again because the link lost the previous one
    std::uint64_t rto_retransmissions =
        0;                           ///< ... of which by the retransmission timeout (nothing later acked)
    std::uint64_t duplicates = 0;    ///< extra copies the link made, discarded by the receiving stream
    std::uint64_t held_back = 0;     ///< segments that arrived before an earlier one and waited for it
    Micros max_held_back{};          ///< the longest such wait (head-of-line blocking, jitter included)
    std::uint64_t delivered = 0;     ///< writes handed to the receiving endpoint
    std::uint64_t stream_bytes = 0;  ///< frame bytes written (WebSocket framing, no TCP/IP header)
    std::uint64_t wire_bytes = 0;    ///< bytes of every transmission, TCP/IP headers included
    std::uint64_t discarded = 0;     ///< segments thrown away undelivered when the connection timed out
    std::uint64_t unreliable_replaced = 0;  ///< unreliable messages the sender replaced by a newer one
};

/// How a SimNetwork and its endpoints behave. Times are virtual.
struct SimNetworkConfig {
    std::uint64_t seed = 1;        ///< every link's randomness derives from this and the two addresses
    LinkConfig default_link{};     ///< used for each direction until set_link() says otherwise
    Micros reliable_rto{100'000};  ///< retransmission timeout of reliable messages (the minimum if adaptive)
    bool adaptive_rto = true;      ///< RTO = max(reliable_rto, srtt + 4 * rttvar), as TCP does
    Micros timeout{5'000'000};     ///< a peer heard nothing from for this long is disconnected
    Micros keepalive_interval{100'000};  ///< an idle connection sends an empty packet this often
    Micros connect_retry{100'000};       ///< a connect request is repeated this often until answered
    Micros connect_timeout{5'000'000};   ///< a connect attempt unanswered for this long fails (timed_out)
    std::size_t mtu = 1200;              ///< largest datagram an endpoint sends (header included)
    std::size_t max_reliable_queue =
        4096;                        ///< reliable messages waiting per peer before send() says out_of_space
    std::size_t max_malformed = 16;  ///< malformed datagrams from a peer before it is kicked
    SimStreamConfig stream{};        ///< the TCP-like stream of SimSocket::stream endpoints

    /// invalid_config with a description when a value is out of range.
    [[nodiscard]] Status validate() const;
};

/// Network-wide counters.
struct SimNetworkStats {
    std::uint64_t datagrams_sent = 0;           ///< handed to a link by an endpoint or inject()
    std::uint64_t datagrams_delivered = 0;      ///< taken in by an endpoint
    std::uint64_t datagrams_undeliverable = 0;  ///< arrived at an address with no endpoint
    std::uint64_t malformed = 0;                ///< dropped by an endpoint as malformed
    std::uint64_t unknown_sender = 0;           ///< data from an address that is not a peer, dropped
};

/// A simulated network. Endpoints live inside it (their lifetime ends with it or close_endpoint()); time
/// moves only through advance_to() or an endpoint's update(). The same config and the same calls give the
/// same delivery trace, byte for byte.
///
/// Each endpoint speaks a small protocol over its datagrams (see src/transport/sim_protocol.hpp): a 9-byte
/// header with a 16-bit packet sequence, ack and 32 ack bits; reliable messages are retransmitted every RTO
/// until acked and delivered in order (so a dropped one holds back the ones behind it); statistics come from
/// the acks. A SimSocket::stream endpoint writes the same datagrams to a TCP-like stream instead
/// (src/transport/stream_link.hpp): nothing is lost or reordered, a loss costs about a round trip and holds
/// back everything behind it, and unreliable messages are held while the stream is backed up.
class SimNetwork {
public:
    /// A network with `config`, which must validate (a programmer error otherwise; see create()).
    explicit SimNetwork(const SimNetworkConfig& config = {});
    ~SimNetwork();
    SimNetwork(const SimNetwork&) = delete;
    SimNetwork& operator=(const SimNetwork&) = delete;

    /// A network, or invalid_config when `config` does not validate.
    [[nodiscard]] static Result<std::unique_ptr<SimNetwork>> create(const SimNetworkConfig& config);

    /// An endpoint at `address` accepting up to `max_peers` peers (incoming and outgoing together); further
    /// connect requests are refused. already_exists if the address is taken. Owned by the network. What it
    /// sends travels as `socket` says (give both ends of a connection the same).
    [[nodiscard]] Result<Transport*> listen(const Address& address, std::size_t max_peers,
                                            SimSocket socket = SimSocket::datagram);
    /// An endpoint at `address` that only connects out (incoming requests are refused). Owned by the network.
    [[nodiscard]] Result<Transport*> create_endpoint(const Address& address,
                                                     SimSocket socket = SimSocket::datagram);
    /// Destroys the endpoint at `address` without a word to its peers (like a crashed process); they time
    /// out.
    void close_endpoint(const Address& address);

    /// Sets the impairments of the direction from -> to, effective for packets sent from now on.
    [[nodiscard]] Status set_link(const Address& from, const Address& to, const LinkConfig& config);
    /// Sets both directions between `a` and `b`.
    [[nodiscard]] Status set_links(const Address& a, const Address& b, const LinkConfig& config);
    /// The impairments of from -> to (the default if never set).
    [[nodiscard]] LinkConfig link(const Address& from, const Address& to) const;
    /// What the conditioner of from -> to did so far; nullopt if nothing ever used that direction.
    [[nodiscard]] std::optional<LinkCounters> link_counters(const Address& from, const Address& to) const;
    /// What the stream of from -> to did so far; nullopt if no stream endpoint ever wrote to it.
    [[nodiscard]] std::optional<StreamCounters> stream_counters(const Address& from, const Address& to) const;

    /// Puts raw bytes on the link from -> to as if `from` had sent them (for tests of untrusted input).
    void inject(Micros now, const Address& from, const Address& to, std::vector<std::uint8_t> datagram);

    /// Updates every endpoint to `now`, in address order.
    void advance_to(Micros now);
    /// The latest time given to advance_to().
    [[nodiscard]] Micros now() const;

    /// Network-wide counters.
    [[nodiscard]] const SimNetworkStats& stats() const;
    /// A running 64-bit hash over every delivered datagram (time, sender, receiver, bytes): equal traces give
    /// equal hashes, so two runs can be compared cheaply.
    [[nodiscard]] std::uint64_t trace_hash() const;
    /// The network's config.
    [[nodiscard]] const SimNetworkConfig& config() const;

    class Impl;  ///< internal

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace rwd::transport
