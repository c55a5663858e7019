// Relay: a UDP proxy between clients and one server that applies a LinkConditioner to each direction of each
// client.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/link_conditioner.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace relay {

/// Where the relay listens, where it forwards to, and how it impairs each direction.
struct RelayConfig {
    std::string listen_host = "0.0.0.0";    ///< local IPv4 address clients send to
    std::uint16_t listen_port = 0;          ///< 0 = an ephemeral port (see Relay::port())
    std::string server_host = "127.0.0.1";  ///< the server's IPv4 address or host name
    std::uint16_t server_port = 0;          ///< the server's UDP port
    rwd::transport::LinkConfig up{};        ///< client -> server impairments
    rwd::transport::LinkConfig down{};      ///< server -> client impairments
    std::uint64_t seed =
        1;  ///< each conditioner's seed derives from this, the client's ordinal and direction
    rwd::Micros idle_timeout{30'000'000};  ///< a client mapping silent both ways for this long is closed
    std::size_t max_clients = 256;  ///< client addresses mapped at once; datagrams from more are dropped

    /// invalid_config with a description when a value is out of range.
    [[nodiscard]] rwd::Status validate() const;
};

/// What the relay did so far (closed mappings included).
struct RelayStats {
    std::size_t clients = 0;              ///< client mappings open now
    std::uint64_t clients_total = 0;      ///< client mappings ever opened
    std::uint64_t clients_expired = 0;    ///< mappings closed for being idle
    std::uint64_t dropped_no_slot = 0;    ///< datagrams from a new client while max_clients were mapped
    std::uint64_t send_errors = 0;        ///< datagrams the OS refused to send
    rwd::transport::LinkCounters up{};    ///< client -> server, summed over clients
    rwd::transport::LinkCounters down{};  ///< server -> client, summed over clients
};

/// The proxy. Each client address gets its own upstream socket, so the server sees one distinct address per
/// client. Nothing reads a clock: the owner passes `now` (steady time as Micros) to step() and wait().
class Relay {
public:
    /// A relay with bound sockets, or invalid_config / invalid_argument / io_error (port in use, bad host).
    [[nodiscard]] static rwd::Result<std::unique_ptr<Relay>> create(const RelayConfig& config);
    ~Relay();
    Relay(const Relay&) = delete;
    Relay& operator=(const Relay&) = delete;

    /// Takes in every waiting datagram, hands out every packet due at `now`, closes idle mappings.
    void step(rwd::Micros now);
    /// Blocks until a socket is readable, the next packet is due, or `max_wait` passed (whichever is first).
    void wait(rwd::Micros now, rwd::Micros max_wait);
    /// The port clients send to (the real one when the config asked for 0).
    [[nodiscard]] std::uint16_t port() const;
    /// Counters so far.
    [[nodiscard]] RelayStats stats() const;
    /// The counters as key=value pairs ("clients=1 clients_total=3 ... up_in=120 ... errors=0"), for log
    /// lines.
    [[nodiscard]] std::string stats_line() const;

    class Impl;  ///< internal

private:
    explicit Relay(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace relay
