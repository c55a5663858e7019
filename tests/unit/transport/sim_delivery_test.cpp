// SimNetwork delivery: reliable-ordered under hostile links, head-of-line blocking, measured stats,
// determinism.
#include "unit/transport/sim_harness.hpp"

#include <cstdio>

namespace rwd::transport {
namespace {

using namespace rwd::literals;
using testing::Harness;
using testing::kServer;
using testing::Node;
using testing::number_of;
using testing::numbered;
using testing::TimedEvent;
using Type = TransportEvent::Type;

std::vector<std::uint32_t> received(const Node& n, Delivery d) {
    std::vector<std::uint32_t> out;
    for (const auto& e : n.events) {
        if (e.event.type == Type::message && e.event.delivery == d) out.push_back(number_of(e.event.data));
    }
    return out;
}

// A client and a server that connect, then both send one reliable and one unreliable message every 16 ms.
struct Exchange {
    explicit Exchange(const SimNetworkConfig& c) : h(c), server(h.add_server(4)), client(h.add_client(0)) {
        client_peer = client.transport->connect(kServer).value();
        h.run_until(2_s);
        EXPECT_EQ(server.of(Type::connected).size(), 1u);
        EXPECT_EQ(client.of(Type::connected).size(), 1u);
        if (!server.of(Type::connected).empty()) server_peer = server.of(Type::connected)[0].event.peer;
    }
    void traffic(Micros duration, std::uint32_t reliable_count, std::size_t unreliable_size = 50) {
        const Micros end = h.now + duration;
        while (h.now < end) {
            if ((h.now.count / 1000) % 16 == 0) {
                if (sent < reliable_count) {
                    EXPECT_TRUE(
                        client.transport->send(client_peer, Delivery::reliable_ordered, numbered(sent)).ok());
                    EXPECT_TRUE(
                        server.transport->send(server_peer, Delivery::reliable_ordered, numbered(sent)).ok());
                    ++sent;
                }
                EXPECT_TRUE(
                    client.transport->send(client_peer, Delivery::unreliable, numbered(tick, unreliable_size))
                        .ok());
                EXPECT_TRUE(
                    server.transport->send(server_peer, Delivery::unreliable, numbered(tick, unreliable_size))
                        .ok());
                ++tick;
            }
            h.run_until(h.now + 1_ms);
        }
    }
    Harness h;
    Node& server;
    Node& client;
    PeerId client_peer = kInvalidPeer, server_peer = kInvalidPeer;
    std::uint32_t sent = 0, tick = 0;
};

TEST(SimDelivery, ReliableCompleteAndOrderedUnderHostileLink) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        SimNetworkConfig c;
        c.seed = seed;
        c.default_link = link_profile("hostile").value();  // 25 % loss, 25 % dup, 10 % reorder, 300 ± 100 ms
        c.timeout = 10_s;
        Exchange x(c);
        constexpr std::uint32_t kMessages = 1500;
        x.traffic(30_s, kMessages);
        x.traffic(15_s, 0);  // let retransmissions finish
        std::vector<std::uint32_t> expected(kMessages);
        for (std::uint32_t i = 0; i < kMessages; ++i) expected[i] = i;
        EXPECT_EQ(received(x.server, Delivery::reliable_ordered), expected);
        EXPECT_EQ(received(x.client, Delivery::reliable_ordered), expected);
        EXPECT_TRUE(x.server.of(Type::disconnected).empty());
        // The unreliable class really was impaired: lost and duplicated.
        const auto u = received(x.server, Delivery::unreliable);
        EXPECT_LT(u.size(), x.tick);
        const auto counters = x.h.net.link_counters(testing::client_address(0), kServer).value();
        EXPECT_GT(counters.duplicated, 0u);
        EXPECT_GT(counters.dropped_random, 0u);
        std::printf(
            "[ stats    ] hostile seed %llu: %u reliable each way delivered in order; unreliable %zu of %u\n",
            static_cast<unsigned long long>(seed), kMessages, u.size(), x.tick);
    }
}

TEST(SimDelivery, DroppedReliableMessageBlocksTheOnesBehindItForOneRto) {
    const std::uint64_t seed = 7;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    SimNetworkConfig c;
    c.seed = seed;
    c.default_link.latency = 20_ms;
    c.reliable_rto = 100_ms;
    Harness h(c);
    auto& server = h.add_server(4);
    auto& client = h.add_client(0);
    const PeerId peer = client.transport->connect(kServer).value();
    h.run_until(2_s);
    const Address from = testing::client_address(0);
    LinkConfig lossy = h.net.link(from, kServer);
    lossy.loss = 1.0;
    ASSERT_TRUE(h.net.set_link(from, kServer, lossy).ok());
    const Micros t0 = h.now;
    ASSERT_TRUE(client.transport->send(peer, Delivery::reliable_ordered, numbered(0)).ok());
    h.run_until(t0 + 1_ms);  // the datagram carrying message 0 is lost
    lossy.loss = 0.0;
    ASSERT_TRUE(h.net.set_link(from, kServer, lossy).ok());
    h.run_until(t0 + 5_ms);
    ASSERT_TRUE(client.transport->send(peer, Delivery::reliable_ordered, numbered(1)).ok());
    ASSERT_TRUE(client.transport->send(peer, Delivery::unreliable, numbered(99)).ok());
    h.run_until(t0 + 10_ms);
    ASSERT_TRUE(client.transport->send(peer, Delivery::reliable_ordered, numbered(2)).ok());
    h.run_until(t0 + 1_s);

    std::vector<TimedEvent> reliable, unreliable;
    for (const auto& e : server.of(Type::message)) {
        (e.event.delivery == Delivery::reliable_ordered ? reliable : unreliable).push_back(e);
    }
    ASSERT_EQ(reliable.size(), 3u);
    for (std::uint32_t i = 0; i < 3; ++i) EXPECT_EQ(number_of(reliable[i].event.data), i);
    // Message 0 is resent one RTO after its first send and arrives 20 ms later; 1 and 2 wait behind it.
    const Micros expected = t0 + 100_ms + 20_ms;
    for (const auto& e : reliable) {
        EXPECT_GE(e.at, expected - 1_ms);
        EXPECT_LE(e.at, expected + 2_ms);
    }
    // Without the block, message 1 would have arrived at t0 + 25 ms; unreliable traffic is never blocked.
    ASSERT_EQ(unreliable.size(), 1u);
    EXPECT_LE(unreliable[0].at, t0 + 27_ms);
    std::printf(
        "[ stats    ] head-of-line: reliable 1 and 2 delivered %.1f ms after send (RTO 100 ms, latency 20 "
        "ms)\n",
        (reliable[1].at - t0 - 5_ms).millis());
}

TEST(SimDelivery, StatsMeasureRttLossAndBandwidth) {
    const std::uint64_t seed = 17;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    SimNetworkConfig c;
    c.seed = seed;
    c.default_link.latency = 50_ms;
    c.default_link.loss = 0.10;
    Exchange x(c);
    x.traffic(5_s, 0, 100);
    double rtt_sum = 0, loss_sum = 0, jitter_max = 0;
    int samples = 0;
    const PeerStats before = x.client.transport->stats(x.client_peer);
    for (int s = 0; s < 30; ++s) {
        x.traffic(1_s, 0, 100);
        const PeerStats st = x.client.transport->stats(x.client_peer);
        rtt_sum += st.rtt.millis();
        loss_sum += st.loss;
        jitter_max = std::max(jitter_max, st.jitter.millis());
        ++samples;
    }
    const PeerStats after = x.client.transport->stats(x.client_peer);
    const double rtt = rtt_sum / samples, loss = loss_sum / samples;
    EXPECT_NEAR(rtt, 100.0,
                5.0);  // 2 x 50 ms one-way, plus at most one 1 ms update step per hop and ack delay
    EXPECT_NEAR(loss, 0.10, 0.015);  // ±1.5 pp
    const double kbps = static_cast<double>(after.bytes_sent - before.bytes_sent) * 8.0 / 1000.0 / 30.0;
    EXPECT_NEAR(after.kbps_sent, kbps, kbps * 0.15);
    // At least the payload: 60 packets/s of 100 bytes + 12 bytes of header and framing.
    EXPECT_GT(kbps, 60.0 * 112 * 8 / 1000.0 * 0.95);
    const PeerStats server_side = x.server.transport->stats(x.server_peer);
    const double delivered =
        static_cast<double>(server_side.bytes_received) / static_cast<double>(after.bytes_sent);
    EXPECT_NEAR(delivered, 0.90, 0.02);
    std::printf(
        "[ stats    ] endpoint stats: rtt %.1f ms (2 x 50 configured), loss %.2f %% (10 configured), "
        "jitter max %.1f ms, %.1f kbps sent (stat %.1f)\n",
        rtt, loss * 100, jitter_max, kbps, after.kbps_sent);
}

// An idle connection answers each keepalive at once, but a lost answer is only made good by the next
// keepalive 100 ms later; that wait must not count as round-trip time.
TEST(SimDelivery, LostAcksDoNotInflateTheRttOfAnIdleLink) {
    const std::uint64_t seed = 19;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    SimNetworkConfig c;
    c.seed = seed;
    c.default_link.latency = 20_ms;
    c.default_link.loss = 0.3;
    Exchange x(c);
    double rtt_sum = 0, jitter_sum = 0;
    int samples = 0;
    for (int s = 0; s < 60; ++s) {
        x.h.run_until(x.h.now + 500_ms);  // no application traffic: keepalives and their acks only
        const PeerStats st = x.client.transport->stats(x.client_peer);
        rtt_sum += st.rtt.millis();
        jitter_sum += st.jitter.millis();
        ++samples;
    }
    const double rtt = rtt_sum / samples, jitter = jitter_sum / samples;
    EXPECT_NEAR(rtt, 41.0, 2.0);  // 2 x 20 ms, plus up to a 1 ms update step per hop
    EXPECT_LT(jitter, 2.0);       // the link has no jitter
    std::printf("[ stats    ] idle link, 30 %% loss: rtt %.1f ms (2 x 20 configured), jitter %.1f ms\n", rtt,
                jitter);
}

TEST(SimDelivery, StatsFollowALatencyStepMidRun) {
    const std::uint64_t seed = 23;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    SimNetworkConfig c;
    c.seed = seed;
    c.default_link.latency = 20_ms;
    Exchange x(c);
    x.traffic(5_s, 0);
    EXPECT_NEAR(x.client.transport->stats(x.client_peer).rtt.millis(), 40.0, 3.0);
    LinkConfig slow = c.default_link;
    slow.latency = 150_ms;
    ASSERT_TRUE(x.h.net.set_links(testing::client_address(0), kServer, slow).ok());
    x.traffic(5_s, 0);
    EXPECT_NEAR(x.client.transport->stats(x.client_peer).rtt.millis(), 300.0, 5.0);
    EXPECT_NEAR(x.server.transport->stats(x.server_peer).rtt.millis(), 300.0, 5.0);
    EXPECT_TRUE(x.client.of(Type::disconnected).empty());
}

TEST(SimDelivery, BandwidthLimitCapsEndpointThroughput) {
    const std::uint64_t seed = 29;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    SimNetworkConfig c;
    c.seed = seed;
    c.default_link.latency = 20_ms;
    c.default_link.bandwidth_kbps = 64;
    c.default_link.queue_bytes = 4096;
    Exchange x(c);
    const Address from = testing::client_address(0);
    const LinkCounters before = x.h.net.link_counters(from, kServer).value();
    x.traffic(10_s, 0, 200);  // ~115 kbit/s offered each way, IP/UDP overhead included
    const LinkCounters after = x.h.net.link_counters(from, kServer).value();
    const auto wire_bytes = [&](const LinkCounters& k) { return k.bytes_delivered + k.delivered * 28; };
    const double link_kbps =
        static_cast<double>(wire_bytes(after) - wire_bytes(before)) * 8.0 / 1000.0 / 10.0;
    EXPECT_NEAR(link_kbps, 64.0, 64.0 * 0.05);
    const PeerStats st = x.server.transport->stats(x.server_peer);
    EXPECT_LE(st.kbps_received, 64.0);  // the endpoint's own figure excludes IP/UDP headers
    EXPECT_GT(after.dropped_queue, before.dropped_queue);
    std::printf(
        "[ stats    ] bandwidth 64 kbps: link carried %.1f kbps, endpoint measured %.1f kbps received\n",
        link_kbps, st.kbps_received);
    EXPECT_TRUE(x.client.of(Type::disconnected).empty());
}

std::pair<std::uint64_t, std::vector<std::uint32_t>> scenario(std::uint64_t seed) {
    SimNetworkConfig c;
    c.seed = seed;
    c.default_link = link_profile("mobile").value();
    c.default_link.loss = 0.1;
    Exchange x(c);
    x.traffic(5_s, 200);
    auto u = received(x.server, Delivery::unreliable);
    for (const auto& e : x.client.events) u.push_back(static_cast<std::uint32_t>(e.at.count));
    return {x.h.net.trace_hash(), u};
}

TEST(SimDelivery, SameSeedSameTraceDifferentSeedDifferent) {
    const std::uint64_t seed = 31;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const auto a = scenario(seed);
    const auto b = scenario(seed);
    EXPECT_EQ(a.first, b.first);
    EXPECT_EQ(a.second, b.second);
    const auto c = scenario(seed + 1);
    EXPECT_NE(a.first, c.first);
    EXPECT_NE(a.second, c.second);
}

}  // namespace
}  // namespace rwd::transport
