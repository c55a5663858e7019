// UdpServer / UdpClient: a server from a port and clients from "host:port" play over real loopback UDP;
// a bad address or a taken port is a clear error.
#include "dots_game.hpp"

#include <rewind/session/client_server/udp_session.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace {

using dots::DotsGame;
using rwd::Micros;
namespace cs = rwd::client_server;

Micros real_now() {
    using namespace std::chrono;
    return Micros{duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count()};
}

TEST(UdpSession, AServerFromAPortAndClientsFromAnAddressPlay) {
    auto server = cs::UdpServer<DotsGame>::listen(0, cs::ServerConfig{}, DotsGame::State{}, "127.0.0.1");
    ASSERT_TRUE(server.ok());
    const std::string address = "127.0.0.1:" + std::to_string(server.value()->local_address().port);
    std::vector<std::unique_ptr<cs::UdpClient<DotsGame>>> clients;
    for (int i = 0; i < 2; ++i) {
        auto c = cs::UdpClient<DotsGame>::connect(address, cs::ClientConfig{}, real_now());
        ASSERT_TRUE(c.ok());
        clients.push_back(std::move(c.value()));
    }
    DotsGame::Input right;
    right.dx = 2;
    const auto pump = [&](Micros duration) {
        for (const Micros end = real_now() + duration; real_now() < end;) {
            const Micros now = real_now();
            server.value()->update(now);
            for (auto& c : clients) c->update(now);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    };
    for (int i = 0; i < 100 && !(clients[0]->client().phase() == cs::ClientPhase::playing &&
                                 clients[1]->client().phase() == cs::ClientPhase::playing);
         ++i)
        pump(Micros{50'000});
    ASSERT_EQ(clients[0]->client().phase(), cs::ClientPhase::playing);
    ASSERT_EQ(clients[1]->client().phase(), cs::ClientPhase::playing);
    clients[0]->client().set_input(right);
    pump(Micros{500'000});
    clients[0]->client().set_input(DotsGame::Input{});
    pump(Micros{300'000});
    EXPECT_EQ(server.value()->server().seated_count(), 2);
    const int slot = clients[0]->client().slot();
    const auto& dot = server.value()->server().state().dots[static_cast<std::size_t>(slot)];
    EXPECT_GT(dot.x, 20) << "about 30 ticks of moving right by 2";
    const auto own = clients[0]->client().own_entity();
    ASSERT_TRUE(own.has_value());
    EXPECT_EQ(own->x, dot.x);
}

TEST(UdpSession, BadAddressesAndTakenPortsAreErrors) {
    EXPECT_EQ(cs::UdpClient<DotsGame>::connect("no-port", cs::ClientConfig{}, real_now()).code(),
              rwd::Errc::invalid_argument);
    EXPECT_EQ(cs::UdpClient<DotsGame>::connect("127.0.0.1:0", cs::ClientConfig{}, real_now()).code(),
              rwd::Errc::invalid_argument);
    auto first = cs::UdpServer<DotsGame>::listen(0, cs::ServerConfig{}, DotsGame::State{}, "127.0.0.1");
    ASSERT_TRUE(first.ok());
    auto second = cs::UdpServer<DotsGame>::listen(first.value()->local_address().port, cs::ServerConfig{},
                                                  DotsGame::State{}, "127.0.0.1");
    EXPECT_FALSE(second.ok());
    cs::ServerConfig bad;
    bad.tick_rate_hz = 0;
    EXPECT_EQ(cs::UdpServer<DotsGame>::listen(0, bad).code(), rwd::Errc::invalid_config);
}

}  // namespace
