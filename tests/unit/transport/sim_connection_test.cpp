// SimNetwork connection lifecycle: handshake latency, disconnect notice, timeouts, keepalives, max peers, bad
// input.
#include "unit/transport/sim_harness.hpp"

#include <rewind/core/rng.hpp>

namespace rwd::transport {
namespace {

using namespace rwd::literals;
using testing::Harness;
using testing::kServer;
using Type = TransportEvent::Type;

SimNetworkConfig config_with(Micros latency, std::uint64_t seed = 1) {
    SimNetworkConfig c;
    c.seed = seed;
    c.default_link.latency = latency;
    c.timeout = 1_s;
    c.connect_timeout = 1_s;
    return c;
}

TEST(SimConnection, HandshakeTakesOneRoundTrip) {
    Harness h(config_with(50_ms));
    auto& server = h.add_server(4);
    auto& client = h.add_client(0);
    auto peer = client.transport->connect(kServer);
    ASSERT_TRUE(peer.ok());
    h.run_until(300_ms);
    auto s = server.of(Type::connected);
    auto c = client.of(Type::connected);
    ASSERT_EQ(s.size(), 1u);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].event.peer, *peer);
    EXPECT_GE(s[0].at, 50_ms);
    EXPECT_LE(s[0].at, 51_ms);
    EXPECT_GE(c[0].at, 100_ms);
    EXPECT_LE(c[0].at, 102_ms);
    EXPECT_EQ(client.transport->connect(kServer).code(), Errc::already_exists);
}

TEST(SimConnection, DisconnectNotifiesBothSides) {
    Harness h(config_with(30_ms));
    auto& server = h.add_server(4);
    auto& client = h.add_client(0);
    const PeerId peer = client.transport->connect(kServer).value();
    h.run_until(200_ms);
    client.transport->disconnect(peer);
    h.run_until(400_ms);
    auto c = client.of(Type::disconnected);
    auto s = server.of(Type::disconnected);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].event.reason, DisconnectReason::local);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].event.reason, DisconnectReason::remote);
    EXPECT_GE(s[0].at, 230_ms);
    EXPECT_LE(s[0].at, 232_ms);
    const std::uint8_t byte = 1;
    EXPECT_EQ(client.transport->send(peer, Delivery::unreliable, std::span(&byte, 1)).code(),
              Errc::not_connected);
}

TEST(SimConnection, IdleConnectionStaysUpThroughKeepalives) {
    Harness h(config_with(40_ms));
    auto& server = h.add_server(4);
    auto& client = h.add_client(0);
    const PeerId peer = client.transport->connect(kServer).value();
    h.run_until(10_s, 5_ms);  // ten timeouts long, no application traffic
    EXPECT_TRUE(server.of(Type::disconnected).empty());
    EXPECT_TRUE(client.of(Type::disconnected).empty());
    EXPECT_GT(client.transport->stats(peer).packets_sent, 50u);  // keepalives
}

TEST(SimConnection, SilentPeerTimesOut) {
    Harness h(config_with(20_ms));
    auto& server = h.add_server(4);
    h.add_client(0);
    ASSERT_TRUE(h.nodes[1].transport->connect(kServer).ok());
    h.run_until(500_ms);
    ASSERT_EQ(server.of(Type::connected).size(), 1u);
    h.net.close_endpoint(testing::client_address(0));  // the client process vanishes
    h.nodes.pop_back();
    h.run_until(3_s);
    auto s = server.of(Type::disconnected);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].event.reason, DisconnectReason::timed_out);
    EXPECT_GE(s[0].at, 1500_ms);           // last heard ~500 ms, timeout 1 s
    EXPECT_LE(s[0].at, 1500_ms + 150_ms);  // within a keepalive interval and a bit
    EXPECT_GT(h.net.stats().datagrams_undeliverable, 0u);
}

TEST(SimConnection, ConnectToNobodyTimesOut) {
    Harness h(config_with(20_ms));
    auto& client = h.add_client(0);
    ASSERT_TRUE(client.transport->connect(Address{"nowhere", 1}).ok());
    h.run_until(2_s);
    auto c = client.of(Type::disconnected);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].event.reason, DisconnectReason::timed_out);
    EXPECT_GE(c[0].at, 1_s);
    EXPECT_LE(c[0].at, 1002_ms);
}

TEST(SimConnection, MaxPeersRefusesWithReason) {
    Harness h(config_with(10_ms));
    auto& server = h.add_server(2);
    for (int i = 0; i < 3; ++i) {
        h.add_client(i);
        ASSERT_TRUE(h.nodes.back().transport->connect(kServer).ok());
        h.run_until(h.now + 100_ms);
    }
    h.run_until(500_ms);
    EXPECT_EQ(server.of(Type::connected).size(), 2u);
    EXPECT_EQ(h.nodes[1].of(Type::connected).size(), 1u);
    EXPECT_EQ(h.nodes[2].of(Type::connected).size(), 1u);
    auto refused = h.nodes[3].of(Type::disconnected);
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_EQ(refused[0].event.reason, DisconnectReason::refused);
    EXPECT_TRUE(h.nodes[3].of(Type::connected).empty());
}

TEST(SimConnection, ClientOnlyEndpointRefusesIncoming) {
    Harness h(config_with(10_ms));
    auto& a = h.add_client(0);
    h.add_client(1);
    ASSERT_TRUE(a.transport->connect(testing::client_address(1)).ok());
    h.run_until(200_ms);
    auto d = a.of(Type::disconnected);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].event.reason, DisconnectReason::refused);
}

// Regression: an endpoint created after the network ran for longer than connect_timeout started its own clock
// at 0, so its first connect attempt looked that old at once and timed out on the next update.
TEST(SimConnection, EndpointCreatedLateConnectsNormally) {
    for (const bool listening : {false, true}) {
        SCOPED_TRACE(listening ? "listen()" : "create_endpoint()");
        Harness h(config_with(50_ms));  // connect_timeout 1 s
        auto& server = h.add_server(4);
        h.run_until(6_s);  // six connect timeouts of network time before the client exists
        testing::Node& client =
            listening
                ? h.nodes.emplace_back(testing::Node{h.net.listen(testing::client_address(0), 4).value(), {}})
                : h.add_client(0);
        const PeerId peer = client.transport->connect(kServer).value();
        h.run_until(6_s + 300_ms);
        auto c = client.of(Type::connected);
        ASSERT_EQ(c.size(), 1u);
        EXPECT_EQ(c[0].event.peer, peer);
        EXPECT_GE(c[0].at, 6_s + 100_ms);  // one round trip after the connect, not before
        EXPECT_LE(c[0].at, 6_s + 102_ms);
        EXPECT_EQ(server.of(Type::connected).size(), 1u);
        EXPECT_TRUE(client.of(Type::disconnected).empty());
        // A connect that is never answered still times out, one connect_timeout after it was made.
        ASSERT_TRUE(client.transport->connect(Address{"nobody", 1}).ok());
        h.run_until(6_s + 300_ms + 900_ms);
        EXPECT_TRUE(client.of(Type::disconnected).empty());
        h.run_until(6_s + 300_ms + 1100_ms);
        auto d = client.of(Type::disconnected);
        ASSERT_EQ(d.size(), 1u);
        EXPECT_EQ(d[0].event.reason, DisconnectReason::timed_out);
    }
}

TEST(SimConnection, HandshakeSurvivesHeavyLoss) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        SimNetworkConfig c = config_with(50_ms, seed);
        c.default_link.loss = 0.5;
        c.timeout = 5_s;
        c.connect_timeout = 5_s;
        Harness h(c);
        auto& server = h.add_server(4);
        auto& client = h.add_client(0);
        ASSERT_TRUE(client.transport->connect(kServer).ok());
        h.run_until(3_s);
        EXPECT_EQ(server.of(Type::connected).size(), 1u);
        EXPECT_EQ(client.of(Type::connected).size(), 1u);
        EXPECT_TRUE(client.of(Type::disconnected).empty());
    }
}

TEST(SimConnection, OversizedMessagesAreRefusedAndLinkMtuDropsDatagrams) {
    Harness h(config_with(10_ms));
    auto& server = h.add_server(4);
    auto& client = h.add_client(0);
    const PeerId peer = client.transport->connect(kServer).value();
    h.run_until(100_ms);
    const std::vector<std::uint8_t> too_big(client.transport->max_message_size() + 1, 7);
    EXPECT_EQ(client.transport->send(peer, Delivery::unreliable, too_big).code(), Errc::length_too_long);
    LinkConfig small = h.net.link(testing::client_address(0), kServer);
    small.mtu = 500;
    ASSERT_TRUE(h.net.set_link(testing::client_address(0), kServer, small).ok());
    const std::vector<std::uint8_t> big(800, 1), fits(400, 2);
    ASSERT_TRUE(client.transport->send(peer, Delivery::unreliable, big).ok());
    h.run_until(h.now + 1_ms);
    ASSERT_TRUE(client.transport->send(peer, Delivery::unreliable, fits).ok());
    h.run_until(h.now + 100_ms);
    auto msgs = server.of(Type::message);
    ASSERT_EQ(msgs.size(), 1u);
    EXPECT_EQ(msgs[0].event.data, fits);
    EXPECT_EQ(h.net.link_counters(testing::client_address(0), kServer)->dropped_mtu, 1u);
}

TEST(SimConnection, GarbageIsDroppedCountedAndEventuallyKicks) {
    const std::uint64_t seed = 99;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    SimNetworkConfig c = config_with(5_ms, seed);
    c.max_malformed = 1000;
    Harness h(c);
    auto& server = h.add_server(4);
    auto& client = h.add_client(0);
    ASSERT_TRUE(client.transport->connect(kServer).ok());
    h.run_until(100_ms);
    Rng rng(seed);
    for (int i = 0; i < 2000; ++i) {
        std::vector<std::uint8_t> junk(rng.uniform(40));
        for (auto& b : junk) b = static_cast<std::uint8_t>(rng.next_u32());
        // Half look like data packets, the rest have an invalid kind byte (control packets are not garbage).
        if (!junk.empty())
            junk[0] = rng.uniform(2) == 0 ? std::uint8_t{1} : static_cast<std::uint8_t>(0x10u | junk[0]);
        const Address from = rng.uniform(2) == 0 ? testing::client_address(0) : Address{"stranger", 9};
        h.net.inject(h.now, from, kServer, std::move(junk));
        if (i % 50 == 0) h.run_until(h.now + 1_ms);
    }
    h.run_until(h.now + 100_ms);
    EXPECT_GT(h.net.stats().malformed + h.net.stats().unknown_sender, 0u);
    EXPECT_EQ(server.of(Type::connected).size(), 1u);
    EXPECT_TRUE(server.of(Type::disconnected).empty());
    EXPECT_TRUE(client.of(Type::disconnected).empty());

    // With the default limit a peer that keeps sending garbage is kicked.
    SimNetworkConfig strict = config_with(5_ms, seed);
    Harness k(strict);
    auto& ks = k.add_server(4);
    auto& kc = k.add_client(0);
    ASSERT_TRUE(kc.transport->connect(kServer).ok());
    k.run_until(100_ms);
    for (int i = 0; i < 20; ++i) k.net.inject(k.now, testing::client_address(0), kServer, {1, 2, 3});
    k.run_until(200_ms);
    auto d = ks.of(Type::disconnected);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].event.reason, DisconnectReason::kicked);
    auto cd = kc.of(Type::disconnected);
    ASSERT_EQ(cd.size(), 1u);
    EXPECT_EQ(cd[0].event.reason, DisconnectReason::remote);
}

TEST(SimConnection, InvalidConfigIsRejected) {
    SimNetworkConfig c;
    c.keepalive_interval = 10_s;
    EXPECT_EQ(SimNetwork::create(c).code(), Errc::invalid_config);
    EXPECT_TRUE(SimNetwork::create(SimNetworkConfig{}).ok());
    SimNetwork net;
    EXPECT_TRUE(net.listen(kServer, 1).ok());
    EXPECT_EQ(net.listen(kServer, 1).code(), Errc::already_exists);
}

}  // namespace
}  // namespace rwd::transport
