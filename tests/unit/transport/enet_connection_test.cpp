// EnetTransport over real loopback UDP: config checks, connect/disconnect both sides, refusals and timeouts.
#include "unit/transport/net_harness.hpp"

#include <enet/enet.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rwd::transport {
namespace {

using testing::client_config;
using testing::EnetNode;
using testing::make_endpoint;
using testing::pump_until;
using testing::server_config;
using Type = TransportEvent::Type;

Address loopback(std::uint16_t port) { return Address{"127.0.0.1", port}; }

TEST(EnetConfigTest, DefaultsValidateAndBadValuesAreNamed) {
    EXPECT_TRUE(EnetConfig{}.validate().ok());
    EnetConfig c;
    c.mtu = 100;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.max_peers = 0;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.timeout_maximum = Micros{1000};
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.max_reliable_size = 10;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.bind_host = "not-an-ip";
    EXPECT_EQ(EnetTransport::create(c).code(), Errc::invalid_config);
}

TEST(EnetConnectionTest, EphemeralPortIsReportedAndSizesFollowTheMtu) {
    auto t = make_endpoint(server_config());
    ASSERT_NE(t, nullptr);
    EXPECT_NE(t->local_address().port, 0);
    EXPECT_EQ(t->local_address().host, "127.0.0.1");
    EXPECT_EQ(t->max_message_size(),
              t->config().mtu - sizeof(ENetProtocolHeader) - sizeof(ENetProtocolSendFragment));
    EXPECT_LT(t->max_message_size(), 1200u);
    EXPECT_EQ(t->header_bytes(), 12u);
}

TEST(EnetConnectionTest, PortInUseIsAnIoError) {
    auto first = make_endpoint(server_config());
    ASSERT_NE(first, nullptr);
    EnetConfig c = server_config();
    c.port = first->local_address().port;
    auto second = EnetTransport::create(c);
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.code(), Errc::io_error);
    EXPECT_FALSE(second.error().detail.empty());
}

TEST(EnetConnectionTest, ConnectThenClientDisconnectsBothSidesSeeIt) {
    EnetNode server{make_endpoint(server_config()), {}};
    EnetNode client{make_endpoint(client_config()), {}};
    ASSERT_TRUE(server.transport && client.transport);
    auto id = client.transport->connect(loopback(server.port()));
    ASSERT_TRUE(id.ok());
    EXPECT_EQ(client.transport->connect(loopback(server.port())).code(), Errc::already_exists);
    ASSERT_TRUE(pump_until({&server, &client}, [&] {
        return server.count(Type::connected) == 1 && client.count(Type::connected) == 1;
    }));
    EXPECT_EQ(client.of(Type::connected)[0].peer, id.value());
    EXPECT_EQ(server.transport->peer_count(), 1u);

    client.transport->disconnect(id.value());
    ASSERT_TRUE(pump_until({&server, &client}, [&] { return server.count(Type::disconnected) == 1; }));
    ASSERT_EQ(client.count(Type::disconnected), 1u);
    EXPECT_EQ(client.of(Type::disconnected)[0].reason, DisconnectReason::local);
    EXPECT_EQ(server.of(Type::disconnected)[0].reason, DisconnectReason::remote);
    EXPECT_EQ(server.of(Type::disconnected)[0].peer, server.of(Type::connected)[0].peer);
    EXPECT_EQ(server.transport->peer_count(), 0u);
    EXPECT_EQ(client.transport->peer_count(), 0u);
    const std::vector<std::uint8_t> one{1};
    EXPECT_EQ(client.transport->send(id.value(), Delivery::reliable_ordered, one).code(),
              Errc::not_connected);
}

TEST(EnetConnectionTest, ServerKicksAndClientSeesRemote) {
    EnetNode server{make_endpoint(server_config()), {}};
    EnetNode client{make_endpoint(client_config()), {}};
    ASSERT_TRUE(server.transport && client.transport);
    ASSERT_TRUE(client.transport->connect(loopback(server.port())).ok());
    ASSERT_TRUE(pump_until({&server, &client}, [&] {
        return client.count(Type::connected) == 1 && server.count(Type::connected) == 1;
    }));
    server.transport->disconnect(server.of(Type::connected)[0].peer, DisconnectReason::kicked);
    ASSERT_TRUE(pump_until({&server, &client}, [&] { return client.count(Type::disconnected) == 1; }));
    EXPECT_EQ(server.of(Type::disconnected)[0].reason, DisconnectReason::kicked);
    EXPECT_EQ(client.of(Type::disconnected)[0].reason, DisconnectReason::remote);
}

TEST(EnetConnectionTest, DestroyedServerIsReportedByItsClients) {
    EnetNode server{make_endpoint(server_config()), {}};
    EnetNode client{make_endpoint(client_config()), {}};
    ASSERT_TRUE(server.transport && client.transport);
    ASSERT_TRUE(client.transport->connect(loopback(server.port())).ok());
    ASSERT_TRUE(pump_until({&server, &client}, [&] { return client.count(Type::connected) == 1; }));
    server.transport.reset();
    ASSERT_TRUE(pump_until({&client}, [&] { return client.count(Type::disconnected) == 1; }));
    EXPECT_EQ(client.of(Type::disconnected)[0].reason, DisconnectReason::remote);
}

TEST(EnetConnectionTest, MaxPeersRefusesTheExtraClientWithoutConnectingIt) {
    EnetNode server{make_endpoint(server_config(2)), {}};
    std::vector<EnetNode> clients;
    for (int i = 0; i < 3; ++i) clients.push_back(EnetNode{make_endpoint(client_config()), {}});
    ASSERT_TRUE(server.transport);
    std::vector<EnetNode*> all{&server};
    for (auto& c : clients) {
        ASSERT_TRUE(c.transport);
        all.push_back(&c);
    }
    // Connect one after the other, so which one is refused is known.
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(clients[i].transport->connect(loopback(server.port())).ok());
        ASSERT_TRUE(pump_until(all, [&] { return !clients[i].events.empty(); })) << "client " << i;
    }
    EXPECT_EQ(clients[0].count(Type::connected), 1u);
    EXPECT_EQ(clients[1].count(Type::connected), 1u);
    EXPECT_EQ(clients[2].count(Type::connected), 0u);
    ASSERT_EQ(clients[2].count(Type::disconnected), 1u);
    EXPECT_EQ(clients[2].of(Type::disconnected)[0].reason, DisconnectReason::refused);
    EXPECT_EQ(server.count(Type::connected), 2u);
    EXPECT_EQ(server.transport->counters().refused_full, 1u);
    EXPECT_EQ(server.transport->peer_count(), 2u);

    // A freed seat can be taken again.
    clients[0].transport->disconnect(clients[0].of(Type::connected)[0].peer);
    ASSERT_TRUE(pump_until(all, [&] { return server.count(Type::disconnected) == 1; }));
    ASSERT_TRUE(clients[2].transport->connect(loopback(server.port())).ok());
    ASSERT_TRUE(pump_until(all, [&] { return clients[2].count(Type::connected) == 1; }));
    EXPECT_EQ(server.count(Type::connected), 3u);
}

TEST(EnetConnectionTest, ClientOnlyEndpointRefusesIncoming) {
    EnetNode a{make_endpoint(client_config()), {}};
    EnetNode b{make_endpoint(client_config()), {}};
    ASSERT_TRUE(a.transport && b.transport);
    ASSERT_TRUE(a.transport->connect(loopback(b.port())).ok());
    ASSERT_TRUE(pump_until({&a, &b}, [&] { return a.count(Type::disconnected) == 1; }));
    EXPECT_EQ(a.of(Type::disconnected)[0].reason, DisconnectReason::refused);
    EXPECT_EQ(a.count(Type::connected), 0u);
    EXPECT_EQ(b.count(Type::connected), 0u);
    EXPECT_EQ(b.transport->counters().refused_full, 1u);
}

// A plain ENet client (no challenge, so no cookie) is dropped before it gets a slot, and a wrong protocol is
// refused at the challenge: enet_challenge_test.cpp.

TEST(EnetConnectionTest, ConnectingToASilentPortTimesOut) {
    // A plain UDP socket holds the port and never answers.
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    socklen_t len = sizeof addr;
    ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);

    EnetConfig c = client_config();
    c.timeout_minimum = Micros{200'000};
    c.timeout_maximum = Micros{600'000};
    EnetNode client{make_endpoint(c), {}};
    ASSERT_TRUE(client.transport);
    auto id = client.transport->connect(loopback(ntohs(addr.sin_port)));
    ASSERT_TRUE(id.ok());
    const bool done = pump_until({&client}, [&] { return client.count(Type::disconnected) == 1; });
    ::close(fd);
    ASSERT_TRUE(done);
    EXPECT_EQ(client.of(Type::disconnected)[0].reason, DisconnectReason::timed_out);
    EXPECT_EQ(client.of(Type::disconnected)[0].peer, id.value());
    EXPECT_EQ(client.count(Type::connected), 0u);
}

TEST(EnetConnectionTest, BadDestinationsAreRefusedUpFront) {
    auto t = make_endpoint(client_config());
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->connect(Address{"127.0.0.1", 0}).code(), Errc::invalid_argument);
    EXPECT_EQ(t->connect(Address{"", 4000}).code(), Errc::invalid_argument);
    EXPECT_TRUE(t->connect(Address{"127.0.0.1", 1}).ok());
    EXPECT_TRUE(t->connect(Address{"127.0.0.1", 2}).ok());
    EXPECT_EQ(t->connect(Address{"127.0.0.1", 3}).code(),
              Errc::too_many_peers);  // client_config: max_peers 2
}

}  // namespace
}  // namespace rwd::transport
