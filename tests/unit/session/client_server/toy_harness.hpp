/// A seeded SimNetwork match of any ReplicatedGame (ToyGame by default): one Server, N Clients, raw endpoints
/// for hostile tests, run on virtual time.
#pragma once

#include "toy_game.hpp"

#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/transport/sim_network.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace toy {

namespace cs = rwd::client_server;
using rwd::Micros;

/// One server and its clients on a simulated network.
template <class G = ToyGame>
struct Match {
    std::unique_ptr<rwd::transport::SimNetwork> net;
    rwd::transport::Address server_addr{"server", 1};
    rwd::transport::Transport* server_ep = nullptr;
    std::unique_ptr<cs::Server<G>> server;
    std::vector<rwd::transport::Address> client_addrs;
    std::vector<std::unique_ptr<cs::Client<G>>> clients;
    cs::ClientConfig client_config{};
    Micros now{1'000'000};

    /// A network seeded with `seed` where every link has `link`, and a listening server.
    explicit Match(std::uint64_t seed, const rwd::transport::LinkConfig& link = {}, cs::ServerConfig sc = {},
                   const typename G::State& initial = typename G::State{}) {
        rwd::transport::SimNetworkConfig nc;
        nc.seed = seed;
        nc.default_link = link;
        net = std::make_unique<rwd::transport::SimNetwork>(nc);
        server_ep = net->listen(server_addr, 64).value();
        server = std::make_unique<cs::Server<G>>(*server_ep, sc, initial);
    }

    /// Adds a client (not yet connected) and returns its index.
    int add_client() {
        const int i = static_cast<int>(clients.size());
        rwd::transport::Address a{"client" + std::to_string(i), static_cast<std::uint16_t>(100 + i)};
        client_addrs.push_back(a);
        auto* ep = net->create_endpoint(a).value();
        clients.push_back(std::make_unique<cs::Client<G>>(*ep, client_config));
        return i;
    }

    /// Adds a client and connects it.
    int connect_client() {
        const int i = add_client();
        EXPECT_TRUE(clients[static_cast<std::size_t>(i)]->connect(server_addr, now).ok());
        return i;
    }

    /// Sets both directions between the server and client i.
    void set_link(int i, const rwd::transport::LinkConfig& link) {
        ASSERT_TRUE(net->set_links(server_addr, client_addrs[static_cast<std::size_t>(i)], link).ok());
    }

    /// Runs for `duration` in `frame` steps; `each` is called after every frame.
    void run(Micros duration, const std::function<void()>& each = {}, Micros frame = Micros{1000}) {
        const Micros end = now + duration;
        while (now < end) {
            now += frame;
            server->update(now);
            for (auto& c : clients)
                if (c) c->update(now);
            if (each) each();
        }
    }

    /// Runs until every live client is playing (or `limit` passes); true if they all are.
    bool run_until_playing(Micros limit = Micros{5'000'000}) {
        const Micros end = now + limit;
        while (now < end) {
            run(Micros{10'000});
            bool all = true;
            for (auto& c : clients)
                if (c && c->phase() != cs::ClientPhase::disconnected)
                    all = all && c->phase() == cs::ClientPhase::playing;
            if (all) return true;
        }
        return false;
    }

    /// Client i.
    cs::Client<G>& client(int i) { return *clients[static_cast<std::size_t>(i)]; }
};

/// A straight, constant-speed input (axes in the toy's -100..100 units).
inline ToyGame::Input move(int x, int y, bool fire = false) {
    ToyGame::Input in;
    in.move_x = static_cast<std::int8_t>(x);
    in.move_y = static_cast<std::int8_t>(y);
    in.buttons = fire ? ToyGame::kFire : 0;
    return in;
}

/// A one-direction link with the given one-way latency, jitter and loss.
inline rwd::transport::LinkConfig link(int latency_ms, int jitter_ms = 0, double loss = 0.0) {
    rwd::transport::LinkConfig l;
    l.latency = Micros{latency_ms * 1000};
    l.jitter = Micros{jitter_ms * 1000};
    l.loss = loss;
    return l;
}

}  // namespace toy
