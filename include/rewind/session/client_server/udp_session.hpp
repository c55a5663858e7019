/// UdpServer<G> and UdpClient<G>: a dedicated server from a port and a client from "host:port", each with
/// the ENet transport it opens and owns (Server<G> and Client<G> stay usable over any other transport).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/transport/address_text.hpp>
#include <rewind/transport/enet_transport.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace rwd::client_server {

/// A Server<G> listening on a UDP port.
template <class G>
class UdpServer {
public:
    using State = typename G::State;  ///< the game's world

    /// Listens on `bind_host`:`port` (0: any free port, see local_address()) with `config` (validated), or
    /// the error of the config or the socket. The endpoint has room for every seat and a few more (a
    /// latecomer is told the server is full).
    [[nodiscard]] static Result<std::unique_ptr<UdpServer>> listen(std::uint16_t port,
                                                                   const ServerConfig& config = {},
                                                                   const State& initial = State{},
                                                                   const std::string& bind_host = "0.0.0.0") {
        if (Status s = config.validate(); !s.ok()) return s.error();
        transport::EnetConfig ec;
        ec.bind_host = bind_host;
        ec.port = port;
        const int seats =
            config.max_clients > 0 ? std::min(config.max_clients, G::kMaxPlayers) : G::kMaxPlayers;
        ec.max_peers = static_cast<std::size_t>(seats) + 4;
        auto udp = transport::EnetTransport::create(ec);
        if (!udp.ok()) return udp.error();
        return std::unique_ptr<UdpServer>(new UdpServer(std::move(udp.value()), config, initial));
    }

    /// Moves the server to `now` (Server::update).
    void update(Micros now) { server_.update(now); }
    /// The server (stats, state, kicks, metrics).
    [[nodiscard]] Server<G>& server() { return server_; }
    /// The address and port bound.
    [[nodiscard]] transport::Address local_address() const { return udp_->local_address(); }

private:
    UdpServer(std::unique_ptr<transport::EnetTransport> udp, const ServerConfig& config, const State& initial)
        : udp_(std::move(udp)), server_(*udp_, config, initial) {}

    std::unique_ptr<transport::EnetTransport> udp_;  // declared first: outlives the server
    Server<G> server_;
};

/// A Client<G> connected (or connecting) to a server's "host:port" over its own UDP endpoint.
template <class G>
class UdpClient {
public:
    /// Opens a client-only endpoint and starts connecting to `server` ("host:port"; the host is resolved
    /// now), or the error of the address, the config, or the socket. Poll client().phase() for playing.
    [[nodiscard]] static Result<std::unique_ptr<UdpClient>> connect(std::string_view server,
                                                                    const ClientConfig& config, Micros now) {
        auto address = transport::parse_address(server);
        if (!address.ok()) return address.error();
        if (Status s = config.validate(); !s.ok()) return s.error();
        transport::EnetConfig ec;
        ec.accept_incoming = false;
        ec.max_peers = 1;
        auto udp = transport::EnetTransport::create(ec);
        if (!udp.ok()) return udp.error();
        std::unique_ptr<UdpClient> c(new UdpClient(std::move(udp.value()), config));
        if (Status s = c->client_.connect(address.value(), now); !s.ok()) return s.error();
        return c;
    }

    /// Moves the client to `now` (Client::update).
    void update(Micros now) { client_.update(now); }
    /// The client (input, render entities, stats).
    [[nodiscard]] Client<G>& client() { return client_; }

private:
    UdpClient(std::unique_ptr<transport::EnetTransport> udp, const ClientConfig& config)
        : udp_(std::move(udp)), client_(*udp_, config) {}

    std::unique_ptr<transport::EnetTransport> udp_;  // declared first: outlives the client
    Client<G> client_;
};

}  // namespace rwd::client_server
