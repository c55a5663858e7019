// SimNetwork stream endpoints (SimSocket::stream): one ordered lossless stream for both classes, the backlog
// policy for unreliable messages, WebSocket byte counts, and datagram endpoints left as they were.
#include "unit/transport/sim_harness.hpp"

#include <algorithm>
#include <string>

namespace rwd::transport {
namespace {

using namespace rwd::literals;
using testing::Harness;
using testing::kServer;
using testing::Node;
using testing::number_of;
using testing::numbered;
using Type = TransportEvent::Type;

// Numbers of the messages `n` received, optionally of one class only.
std::vector<std::uint32_t> received(const Node& n, std::optional<Delivery> d = std::nullopt) {
    std::vector<std::uint32_t> out;
    for (const auto& e : n.events)
        if (e.event.type == Type::message && (!d || e.event.delivery == *d))
            out.push_back(number_of(e.event.data));
    return out;
}

// A server and a client on `socket` endpoints, connected.
struct Pair {
    Pair(const SimNetworkConfig& c, SimSocket socket)
        : h(c), server(h.add_server(4, socket)), client(h.add_client(0, socket)) {
        client_peer = client.transport->connect(kServer).value();
        h.run_until(2000_ms);
        const auto up = server.of(Type::connected);
        if (!up.empty()) server_peer = up.front().event.peer;
    }
    Harness h;
    Node& server;
    Node& client;
    PeerId client_peer = kInvalidPeer, server_peer = kInvalidPeer;
};

SimNetworkConfig lossy(std::uint64_t seed, Micros latency, double loss) {
    SimNetworkConfig c;
    c.seed = seed;
    c.default_link.latency = latency;
    c.default_link.jitter = 15_ms;
    c.default_link.loss = loss;
    return c;
}

TEST(SimStream, BothClassesShareOneOrderedStreamAndNothingIsLost) {
    for (std::uint64_t seed : {1ULL, 7ULL, 21ULL}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        Pair p(lossy(seed, 50_ms, 0.10), SimSocket::stream);
        ASSERT_NE(p.server_peer, kInvalidPeer);
        // Every 16 ms the client sends one message, alternately unreliable and reliable, numbered in send
        // order.
        constexpr std::uint32_t kMessages = 600;
        for (std::uint32_t k = 0; k < kMessages; ++k) {
            const Delivery d = k % 2 == 0 ? Delivery::unreliable : Delivery::reliable_ordered;
            ASSERT_TRUE(p.client.transport->send(p.client_peer, d, numbered(k, 40)).ok());
            p.h.run_until(p.h.now + 16_ms);
        }
        p.h.run_until(p.h.now + 5000_ms);
        const auto c = p.h.net.stream_counters(testing::client_address(0), kServer);
        ASSERT_TRUE(c.has_value());
        EXPECT_GT(c->retransmissions, 0u);
        EXPECT_GT(c->held_back, 0u);
        const auto got = received(p.server);
        ASSERT_EQ(got.size(), kMessages);  // 10 % loss, yet not one unreliable message missing
        for (std::uint32_t k = 0; k < kMessages; ++k) ASSERT_EQ(got[k], k);
        // Losses found by RACK are repaired within a round trip: no timeout, no loss state, nothing held.
        EXPECT_EQ(c->unreliable_replaced, 0u);
        // The loss a stream socket knows: its segments sent again, about the link's 10 %.
        const double loss = p.client.transport->stats(p.client_peer).loss;
        EXPECT_GT(loss, 0.02);
        EXPECT_LT(loss, 0.25);
    }
}

TEST(SimStream, AHealthyStreamWithMuchInFlightHoldsNothingBack) {
    // 1000 bytes every 5 ms at 100 ms each way: 40 kB unacknowledged at any time, no loss. Nothing waits
    // behind a hole, so every unreliable message is written (a rule on unacknowledged bytes would drop most).
    Pair p(lossy(3, 100_ms, 0.0), SimSocket::stream);
    ASSERT_NE(p.server_peer, kInvalidPeer);
    for (std::uint32_t k = 0; k < 400; ++k) {
        ASSERT_TRUE(p.server.transport->send(p.server_peer, Delivery::unreliable, numbered(k, 1000)).ok());
        p.h.run_until(p.h.now + 5_ms);
    }
    p.h.run_until(p.h.now + 2000_ms);
    EXPECT_EQ(received(p.client, Delivery::unreliable).size(), 400u);
    EXPECT_EQ(p.h.net.stream_counters(kServer, testing::client_address(0))->unreliable_replaced, 0u);
}

TEST(SimStream, OnDatagramEndpointsTheSameLinkLosesUnreliableMessages) {
    // The control for the test above: the same links and seed without a stream lose about 10 %.
    Pair p(lossy(1, 50_ms, 0.10), SimSocket::datagram);
    for (std::uint32_t k = 0; k < 600; ++k) {
        ASSERT_TRUE(p.client.transport->send(p.client_peer, Delivery::unreliable, numbered(k, 40)).ok());
        p.h.run_until(p.h.now + 16_ms);
    }
    p.h.run_until(p.h.now + 5000_ms);
    const auto got = received(p.server);
    EXPECT_LT(got.size(), 580u);
    EXPECT_GT(got.size(), 480u);
    EXPECT_FALSE(p.h.net.stream_counters(testing::client_address(0), kServer).has_value());
}

TEST(SimStream, ABackedUpStreamReplacesUnreliableMessagesAndNeverReliableOnes) {
    for (std::uint64_t seed : {1ULL, 7ULL, 21ULL}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        Pair p(lossy(seed, 100_ms, 0.05), SimSocket::stream);
        ASSERT_NE(p.server_peer, kInvalidPeer);
        // 200-byte unreliable messages every 16 ms and a 300-byte reliable one every 160 ms, at 5 % loss;
        // from 2 s to 3 s the link to the client drops everything (an outage): the retransmission timeout
        // fires, and until its copy is acknowledged the stream is backed up.
        LinkConfig ok = lossy(seed, 100_ms, 0.05).default_link, outage = ok;
        outage.loss = 1.0;
        std::uint32_t unreliable_sent = 0, reliable_sent = 0;
        for (int i = 0; i < 400; ++i) {
            if (i == 125 || i == 188) {
                ASSERT_TRUE(
                    p.h.net.set_link(kServer, testing::client_address(0), i == 125 ? outage : ok).ok());
            }
            ASSERT_TRUE(p.server.transport
                            ->send(p.server_peer, Delivery::unreliable, numbered(unreliable_sent++, 200))
                            .ok());
            if (i % 10 == 0) {
                ASSERT_TRUE(
                    p.server.transport
                        ->send(p.server_peer, Delivery::reliable_ordered, numbered(reliable_sent++, 300))
                        .ok());
            }
            p.h.run_until(p.h.now + 16_ms);
        }
        p.h.run_until(p.h.now + 10'000_ms);  // drains: the last held message goes out
        const auto reliable = received(p.client, Delivery::reliable_ordered);
        ASSERT_EQ(reliable.size(), reliable_sent);
        for (std::uint32_t k = 0; k < reliable_sent; ++k) ASSERT_EQ(reliable[k], k);
        const auto unreliable = received(p.client, Delivery::unreliable);
        ASSERT_FALSE(unreliable.empty());
        EXPECT_TRUE(std::is_sorted(unreliable.begin(), unreliable.end()));
        EXPECT_EQ(std::adjacent_find(unreliable.begin(), unreliable.end()), unreliable.end());
        EXPECT_EQ(unreliable.back(), unreliable_sent - 1);  // the newest one always gets through
        const auto c = p.h.net.stream_counters(kServer, testing::client_address(0));
        ASSERT_TRUE(c.has_value());
        EXPECT_GT(c->rto_retransmissions, 0u);
        // Every unreliable message was either delivered or replaced by a newer one: none queued, none lost.
        // Most of the outage's were replaced (held from the timeout until its copy was acknowledged).
        EXPECT_GT(c->unreliable_replaced, 30u);
        EXPECT_EQ(unreliable.size() + c->unreliable_replaced, unreliable_sent);
    }
}

TEST(SimStream, BytesAreCountedAsWebSocketFrames) {
    Pair p(lossy(1, 10_ms, 0.0), SimSocket::stream);
    ASSERT_NE(p.server_peer, kInvalidPeer);
    EXPECT_EQ(p.server.transport->header_bytes(), 3u);  // frame header and class byte, as WebSocketTransport
    const PeerStats before_up = p.client.transport->stats(p.client_peer);
    const PeerStats before_down = p.server.transport->stats(p.server_peer);
    ASSERT_TRUE(p.client.transport->send(p.client_peer, Delivery::unreliable, numbered(1, 100)).ok());
    ASSERT_TRUE(p.server.transport->send(p.server_peer, Delivery::reliable_ordered, numbered(2, 200)).ok());
    p.h.run_until(p.h.now + 100_ms);
    const PeerStats up = p.client.transport->stats(p.client_peer);
    const PeerStats down = p.server.transport->stats(p.server_peer);
    // Client to server: 2-byte header, 4-byte mask, class byte, 100 bytes. Server to client: 2-byte header,
    // 2-byte extended length (a payload of 126 bytes or more), class byte, 200 bytes.
    EXPECT_EQ(up.bytes_sent - before_up.bytes_sent, 2u + 4u + 1u + 100u);
    EXPECT_EQ(down.bytes_sent - before_down.bytes_sent, 2u + 2u + 1u + 200u);
    EXPECT_EQ(p.server.transport->stats(p.server_peer).bytes_received - before_down.bytes_received, 107u);
    const auto c = p.h.net.stream_counters(kServer, testing::client_address(0));
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->wire_bytes, c->stream_bytes + c->transmissions * SimStreamConfig{}.segment_overhead);
}

TEST(SimStream, ADatagramEndpointKeepsItsHeader) {
    SimNetwork net;
    EXPECT_EQ(net.listen(kServer, 2).value()->header_bytes(), 9u);
    EXPECT_EQ(net.create_endpoint(testing::client_address(0), SimSocket::stream).value()->header_bytes(), 3u);
}

}  // namespace
}  // namespace rwd::transport
