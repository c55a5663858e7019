// EnetTransport over real loopback UDP: round trips, reliable order, size limits, stats and garbage
// datagrams.
#include "unit/transport/net_harness.hpp"

#include <rewind/core/rng.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace rwd::transport {
namespace {

using testing::bytes_of;
using testing::client_config;
using testing::EnetNode;
using testing::make_endpoint;
using testing::pump_for;
using testing::pump_until;
using testing::server_config;
using Type = TransportEvent::Type;

/// A connected server and client on loopback.
struct Pair {
    EnetNode server{make_endpoint(server_config()), {}};
    EnetNode client{make_endpoint(client_config()), {}};
    PeerId to_server = kInvalidPeer;
    PeerId to_client = kInvalidPeer;

    bool connect() {
        if (!server.transport || !client.transport) return false;
        auto id = client.transport->connect(Address{"127.0.0.1", server.port()});
        if (!id.ok()) return false;
        to_server = id.value();
        if (!pump_until({&server, &client}, [&] {
                return server.count(Type::connected) == 1 && client.count(Type::connected) == 1;
            })) {
            return false;
        }
        to_client = server.of(Type::connected)[0].peer;
        return true;
    }
    std::vector<EnetNode*> nodes() { return {&server, &client}; }
};

std::vector<std::uint32_t> indices_of(const std::vector<TransportEvent>& messages, Delivery delivery) {
    std::vector<std::uint32_t> out;
    for (const auto& m : messages) {
        if (m.delivery != delivery || m.data.size() < 4) continue;
        std::uint32_t v = 0;
        std::memcpy(&v, m.data.data(), 4);
        out.push_back(v);
    }
    return out;
}

std::vector<std::uint8_t> indexed(std::uint32_t i, std::size_t size) {
    std::vector<std::uint8_t> d(std::max<std::size_t>(size, 4), static_cast<std::uint8_t>(i * 7));
    std::memcpy(d.data(), &i, 4);
    return d;
}

TEST(EnetDeliveryTest, UnreliableAndReliableRoundTrips) {
    Pair p;
    ASSERT_TRUE(p.connect());
    ASSERT_TRUE(p.client.transport->send(p.to_server, Delivery::unreliable, bytes_of("ping-u")).ok());
    ASSERT_TRUE(p.client.transport->send(p.to_server, Delivery::reliable_ordered, bytes_of("ping-r")).ok());
    ASSERT_TRUE(pump_until(p.nodes(), [&] { return p.server.count(Type::message) == 2; }));
    for (const auto& m : p.server.of(Type::message)) {
        EXPECT_EQ(m.peer, p.to_client);
        const std::string text(m.data.begin(), m.data.end());
        EXPECT_EQ(text, m.delivery == Delivery::unreliable ? "ping-u" : "ping-r");
        // Echo back on the same delivery class.
        const std::string reply = m.delivery == Delivery::unreliable ? "pong-u" : "pong-r";
        ASSERT_TRUE(p.server.transport->send(p.to_client, m.delivery, bytes_of(reply)).ok());
    }
    ASSERT_TRUE(pump_until(p.nodes(), [&] { return p.client.count(Type::message) == 2; }));
    int unreliable = 0;
    for (const auto& m : p.client.of(Type::message)) {
        EXPECT_EQ(m.peer, p.to_server);
        const std::string text(m.data.begin(), m.data.end());
        EXPECT_EQ(text, m.delivery == Delivery::unreliable ? "pong-u" : "pong-r");
        unreliable += m.delivery == Delivery::unreliable ? 1 : 0;
    }
    EXPECT_EQ(unreliable, 1);
}

TEST(EnetDeliveryTest, ThousandReliableMessagesArriveOnceAndInOrder) {
    Pair p;
    ASSERT_TRUE(p.connect());
    constexpr std::uint32_t kCount = 1000;
    for (std::uint32_t i = 0; i < kCount; ++i) {
        ASSERT_TRUE(
            p.client.transport->send(p.to_server, Delivery::reliable_ordered, indexed(i, 4 + i % 300)).ok());
        // Unreliable traffic interleaved on its own channel.
        if (i % 10 == 0) {
            ASSERT_TRUE(p.client.transport->send(p.to_server, Delivery::unreliable, indexed(i, 8)).ok());
        }
    }
    ASSERT_TRUE(pump_until(
        p.nodes(),
        [&] { return indices_of(p.server.of(Type::message), Delivery::reliable_ordered).size() >= kCount; },
        std::chrono::milliseconds(20000)));
    pump_for(p.nodes(), std::chrono::milliseconds(50));  // a duplicate would show up here
    const auto got = indices_of(p.server.of(Type::message), Delivery::reliable_ordered);
    ASSERT_EQ(got.size(), kCount);
    for (std::uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], i) << "position " << i;
    for (const auto& m : p.server.of(Type::message)) {
        if (m.delivery != Delivery::reliable_ordered) continue;
        std::uint32_t i = 0;
        std::memcpy(&i, m.data.data(), 4);
        ASSERT_EQ(m.data.size(), std::max<std::size_t>(4, 4 + i % 300));
        ASSERT_EQ(m.data.back(), m.data.size() > 4 ? static_cast<std::uint8_t>(i * 7) : m.data.back());
    }
}

TEST(EnetDeliveryTest, OversizeUnreliableIsRefusedAndTheLargestFits) {
    Pair p;
    ASSERT_TRUE(p.connect());
    const std::size_t max = p.client.transport->max_message_size();
    const std::vector<std::uint8_t> too_big(max + 1, 0xAB);
    const Status refused = p.client.transport->send(p.to_server, Delivery::unreliable, too_big);
    EXPECT_EQ(refused.code(), Errc::length_too_long);
    EXPECT_TRUE(
        p.client.transport->send(p.to_server, Delivery::unreliable, std::vector<std::uint8_t>(max, 0xCD))
            .ok());
    // A reliable message may be larger: ENet fragments it and reassembles it intact.
    std::vector<std::uint8_t> big(5000);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint8_t>(i * 31);
    EXPECT_TRUE(p.client.transport->send(p.to_server, Delivery::reliable_ordered, big).ok());
    const std::vector<std::uint8_t> huge(p.client.transport->config().max_reliable_size + 1);
    EXPECT_EQ(p.client.transport->send(p.to_server, Delivery::reliable_ordered, huge).code(),
              Errc::length_too_long);
    ASSERT_TRUE(pump_until(p.nodes(), [&] { return p.server.count(Type::message) == 2; }));
    for (const auto& m : p.server.of(Type::message)) {
        if (m.delivery == Delivery::unreliable) {
            EXPECT_EQ(m.data, std::vector<std::uint8_t>(max, 0xCD));
        } else {
            EXPECT_EQ(m.data, big);
        }
    }
}

TEST(EnetDeliveryTest, StatsAreMeasuredAfterTraffic) {
    Pair p;
    ASSERT_TRUE(p.connect());
    const PeerStats fresh = p.client.transport->stats(p.to_server);
    int sent = 0;
    // ~1.2 s of a 60 Hz exchange of 200-byte unreliable messages plus a reliable one every 10th tick.
    ASSERT_FALSE(pump_until(
        p.nodes(), [] { return false; }, std::chrono::milliseconds(1200),
        [&] {
            static_cast<void>(p.client.transport->send(p.to_server, Delivery::unreliable, indexed(0, 200)));
            static_cast<void>(p.server.transport->send(p.to_client, Delivery::unreliable, indexed(0, 200)));
            if (++sent % 10 == 0) {
                static_cast<void>(
                    p.client.transport->send(p.to_server, Delivery::reliable_ordered, indexed(0, 20)));
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(16));
        }));
    const PeerStats s = p.client.transport->stats(p.to_server);
    EXPECT_GT(s.rtt.count, 0);
    EXPECT_LT(s.rtt.count, 1'000'000);  // a loopback RTT well below ENet's 500 ms starting guess
    EXPECT_GE(s.loss, 0.0);
    EXPECT_LE(s.loss, 1.0);
    EXPECT_GT(s.bytes_sent, fresh.bytes_sent + static_cast<std::uint64_t>(sent) * 200);
    EXPECT_GT(s.bytes_received, fresh.bytes_received);
    EXPECT_EQ(s.packets_sent, static_cast<std::uint64_t>(sent + sent / 10));
    EXPECT_GT(s.packets_received, 0u);
    EXPECT_GT(s.kbps_sent, 0.0);
    EXPECT_GT(s.kbps_received, 0.0);
    const PeerStats server_side = p.server.transport->stats(p.to_client);
    EXPECT_GT(server_side.bytes_received, static_cast<std::uint64_t>(sent) * 200 / 2);
    EXPECT_GT(p.server.transport->counters().bytes_received, server_side.bytes_received / 2);
    EXPECT_EQ(p.client.transport->stats(9999).bytes_sent, 0u);  // unknown peer: empty stats
}

TEST(EnetDeliveryTest, GarbageDatagramsAreIgnoredCountedAndHarmless) {
    const std::uint64_t seed = 0x9A7BA6E5u;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Pair p;
    ASSERT_TRUE(p.connect());
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    to.sin_port = htons(p.server.port());
    Rng rng(seed);
    std::uint64_t garbage = 0;
    std::uint32_t next_reliable = 0;
    auto send_garbage = [&](int count) {
        for (int i = 0; i < count; ++i) {
            std::vector<std::uint8_t> d(1 + rng.uniform(1400));
            for (auto& b : d) b = static_cast<std::uint8_t>(rng.next_u32());
            if (d.size() >= 2 && rng.chance(1, 3)) {
                // Aim at the connected client's slot (peer 0, with or without sent-time): wrong address
                // anyway.
                d[0] = static_cast<std::uint8_t>(rng.chance(1, 2) ? 0x80 : 0x00);
                d[1] = 0x00;
            } else if (d.size() >= 2 && (((d[0] << 8) | d[1]) & 0x0FFF) == 0x0FFF) {
                d[1] ^= 0x01;  // never the connectionless id: such a datagram could be a real CONNECT
            }
            if (::sendto(fd, d.data(), d.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to) ==
                static_cast<ssize_t>(d.size())) {
                ++garbage;
            }
        }
    };
    // Garbage in batches while the client keeps talking reliably and unreliably.
    for (int round = 0; round < 20; ++round) {
        send_garbage(25);
        for (int k = 0; k < 5; ++k) {
            ASSERT_TRUE(p.client.transport
                            ->send(p.to_server, Delivery::reliable_ordered, indexed(next_reliable++, 16))
                            .ok());
            ASSERT_TRUE(p.client.transport->send(p.to_server, Delivery::unreliable, indexed(0, 16)).ok());
        }
        pump_for(p.nodes(), std::chrono::milliseconds(10));
    }
    ::close(fd);
    ASSERT_TRUE(pump_until(p.nodes(), [&] {
        return indices_of(p.server.of(Type::message), Delivery::reliable_ordered).size() >= next_reliable &&
               p.server.transport->counters().datagrams_ignored >= garbage;
    }));
    const auto got = indices_of(p.server.of(Type::message), Delivery::reliable_ordered);
    ASSERT_EQ(got.size(), next_reliable);
    for (std::uint32_t i = 0; i < next_reliable; ++i) ASSERT_EQ(got[i], i);
    EXPECT_EQ(p.server.transport->counters().datagrams_ignored, garbage);
    EXPECT_GE(p.server.transport->counters().datagrams_received, garbage);
    EXPECT_EQ(p.server.count(Type::disconnected), 0u);
    EXPECT_EQ(p.client.count(Type::disconnected), 0u);
    EXPECT_EQ(p.server.count(Type::connected), 1u);
    EXPECT_EQ(p.server.transport->peer_count(), 1u);
}

}  // namespace
}  // namespace rwd::transport
