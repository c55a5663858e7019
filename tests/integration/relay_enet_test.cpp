// A real ENet client and server talking through an in-process rewind-relay on loopback: RTT, loss, order,
// throughput. Built only when the relay library is (REWIND_BUILD_APPS): its include path comes with it.
#if __has_include("relay/relay.hpp")

#include "relay/relay.hpp"

#include <rewind/transport/enet_transport.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using rwd::Micros;
using namespace rwd::transport;
using Type = TransportEvent::Type;

Micros real_now() {
    using namespace std::chrono;
    return Micros{duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count()};
}

struct Endpoint {
    std::unique_ptr<EnetTransport> t;
    std::vector<TransportEvent> events;
    [[nodiscard]] std::size_t count(Type type) const {
        return static_cast<std::size_t>(
            std::count_if(events.begin(), events.end(), [&](const auto& e) { return e.type == type; }));
    }
};

/// A server, clients and the relay between them, all pumped in one thread against the real clock.
struct Rig {
    std::unique_ptr<relay::Relay> relay;
    Endpoint server;
    std::vector<Endpoint> clients;

    Rig(const LinkConfig& up, const LinkConfig& down, std::uint64_t seed, int client_count) {
        EnetConfig sc;
        sc.bind_host = "127.0.0.1";
        server.t = EnetTransport::create(sc).value();
        relay::RelayConfig rc;
        rc.listen_host = "127.0.0.1";
        rc.server_host = "127.0.0.1";
        rc.server_port = server.t->local_address().port;
        rc.up = up;
        rc.down = down;
        rc.seed = seed;
        auto r = relay::Relay::create(rc);
        EXPECT_TRUE(r.ok()) << rwd::error_name(r.code());
        relay = std::move(r.value());
        for (int i = 0; i < client_count; ++i) {
            EnetConfig cc;
            cc.bind_host = "127.0.0.1";
            cc.accept_incoming = false;
            clients.push_back(Endpoint{EnetTransport::create(cc).value(), {}});
        }
    }

    /// One round: relay, then every endpoint, then a short wait in the relay's poll.
    void round() {
        const Micros now = real_now();
        relay->step(now);
        for (Endpoint* e : all()) {
            e->t->update(now);
            TransportEvent ev;
            while (e->t->poll(ev)) e->events.push_back(std::move(ev));
        }
        relay->step(real_now());
        relay->wait(real_now(), Micros{1000});
    }

    /// Rounds until `done()` or `limit` of real time passed (the limit bounds a broken run, nothing more).
    bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit,
                   const std::function<void()>& each = {}) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (!done()) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            if (each) each();
            round();
        }
        return true;
    }

    std::vector<Endpoint*> all() {
        std::vector<Endpoint*> v{&server};
        for (auto& c : clients) v.push_back(&c);
        return v;
    }

    PeerId connect(Endpoint& c) {
        auto id = c.t->connect(Address{"127.0.0.1", relay->port()});
        EXPECT_TRUE(id.ok());
        return id.ok() ? id.value() : kInvalidPeer;
    }
};

std::vector<std::uint8_t> stamp(std::uint32_t index, Micros at, std::size_t size) {
    std::vector<std::uint8_t> d(std::max<std::size_t>(size, 12), 0x5A);
    std::memcpy(d.data(), &index, 4);
    std::memcpy(d.data() + 4, &at.count, 8);
    return d;
}

bool read_stamp(const std::vector<std::uint8_t>& d, std::uint32_t& index, Micros& at) {
    if (d.size() < 12) return false;
    std::memcpy(&index, d.data(), 4);
    std::memcpy(&at.count, d.data() + 4, 8);
    return true;
}

TEST(RelayEnetTest, FiftyMsAndTenPercentLossGiveAHundredMsRttAndOrderedReliables) {
    const std::uint64_t seed = 20240507;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    LinkConfig link;
    link.latency = Micros{50'000};
    link.loss = 0.10;
    Rig rig(link, link, seed, 1);
    Endpoint& client = rig.clients[0];
    const PeerId server_id = rig.connect(client);
    ASSERT_TRUE(rig.run_until(
        [&] { return client.count(Type::connected) == 1 && rig.server.count(Type::connected) == 1; },
        std::chrono::milliseconds(15000)));
    const PeerId client_id = rig.server.events[0].peer;

    // 3 s of a 30 Hz exchange: unreliable pings the server echoes, and a reliable message every tick.
    constexpr std::uint32_t kReliable = 90;
    std::uint32_t sent_reliable = 0;
    std::uint32_t sent_pings = 0;
    Micros next_tick = real_now();
    std::vector<double> ping_rtts_ms;
    std::size_t seen_server = 0;
    std::size_t seen_client = 0;
    auto each = [&] {
        const Micros now = real_now();
        if (sent_reliable < kReliable && now >= next_tick) {
            next_tick = now + Micros{33'333};
            ASSERT_TRUE(
                client.t->send(server_id, Delivery::reliable_ordered, stamp(sent_reliable++, now, 40)).ok());
            ASSERT_TRUE(client.t->send(server_id, Delivery::unreliable, stamp(sent_pings++, now, 60)).ok());
        }
        for (; seen_server < rig.server.events.size(); ++seen_server) {  // the server echoes pings
            const auto& e = rig.server.events[seen_server];
            if (e.type == Type::message && e.delivery == Delivery::unreliable) {
                ASSERT_TRUE(rig.server.t->send(client_id, Delivery::unreliable, e.data).ok());
            }
        }
        for (; seen_client < client.events.size(); ++seen_client) {
            const auto& e = client.events[seen_client];
            std::uint32_t i = 0;
            Micros at;
            if (e.type == Type::message && read_stamp(e.data, i, at))
                ping_rtts_ms.push_back((now - at).millis());
        }
    };
    auto reliable_indices = [&] {
        std::vector<std::uint32_t> v;
        for (const auto& e : rig.server.events) {
            std::uint32_t i = 0;
            Micros at;
            if (e.type == Type::message && e.delivery == Delivery::reliable_ordered &&
                read_stamp(e.data, i, at))
                v.push_back(i);
        }
        return v;
    };
    ASSERT_TRUE(
        rig.run_until([&] { return sent_reliable == kReliable && reliable_indices().size() >= kReliable; },
                      std::chrono::milliseconds(30000), each));
    // Let the last acks and pings settle, then read what ENet measured.
    ASSERT_FALSE(rig.run_until([] { return false; }, std::chrono::milliseconds(500), each));

    const auto got = reliable_indices();
    ASSERT_EQ(got.size(), kReliable);
    for (std::uint32_t i = 0; i < kReliable; ++i) ASSERT_EQ(got[i], i) << "position " << i;
    EXPECT_EQ(client.count(Type::disconnected), 0u);

    const PeerStats s = client.t->stats(server_id);
    ASSERT_FALSE(ping_rtts_ms.empty());
    std::sort(ping_rtts_ms.begin(), ping_rtts_ms.end());
    const double median_ping = ping_rtts_ms[ping_rtts_ms.size() / 2];
    const relay::RelayStats r = rig.relay->stats();
    std::printf(
        "[ relay ] ENet rtt=%.1f ms jitter=%.1f ms loss=%.3f | ping median=%.1f ms (n=%zu of %u) | "
        "relay lost up=%llu/%llu down=%llu/%llu\n",
        s.rtt.millis(), s.jitter.millis(), s.loss, median_ping, ping_rtts_ms.size(), sent_pings,
        static_cast<unsigned long long>(r.up.dropped_random), static_cast<unsigned long long>(r.up.submitted),
        static_cast<unsigned long long>(r.down.dropped_random),
        static_cast<unsigned long long>(r.down.submitted));
    // Two 50 ms legs: nothing can come back sooner than 100 ms; the upper bound only catches a broken relay.
    EXPECT_GE(s.rtt.millis(), 95.0);
    EXPECT_LT(s.rtt.millis(), 400.0);
    EXPECT_GT(s.loss, 0.0);  // ENet saw retransmissions: a datagram or its ack was lost
    EXPECT_LT(s.loss, 0.6);
    EXPECT_GE(median_ping, 100.0);
    EXPECT_LT(median_ping, 400.0);
    // About 10 % of pings or their echoes are lost: 1 - 0.9^2 = 19 % expected.
    EXPECT_LT(ping_rtts_ms.size(), sent_pings);
    EXPECT_GT(ping_rtts_ms.size(), sent_pings / 2);
    // The relay really dropped about a tenth each way, and ENet kept its datagrams under the 1200-byte MTU.
    EXPECT_GT(r.up.dropped_random, r.up.submitted / 30);
    EXPECT_LT(r.up.dropped_random, r.up.submitted / 4);
    EXPECT_GT(r.down.dropped_random, 0u);
    EXPECT_EQ(r.up.dropped_mtu + r.down.dropped_mtu, 0u);
    EXPECT_EQ(r.clients, 1u);
}

TEST(RelayEnetTest, EachClientGetsItsOwnUpstreamAddress) {
    Rig rig(LinkConfig{}, LinkConfig{}, 7, 3);
    for (auto& c : rig.clients) rig.connect(c);
    ASSERT_TRUE(rig.run_until([&] { return rig.server.count(Type::connected) == 3; },
                              std::chrono::milliseconds(5000)));
    EXPECT_EQ(rig.server.t->peer_count(), 3u);
    EXPECT_EQ(rig.relay->stats().clients, 3u);
    EXPECT_EQ(rig.relay->stats().clients_total, 3u);
}

TEST(RelayEnetTest, ReliableThroughputThroughAPerfectRelay) {
    Rig rig(LinkConfig{}, LinkConfig{}, 3, 1);
    Endpoint& client = rig.clients[0];
    const PeerId id = rig.connect(client);
    ASSERT_TRUE(
        rig.run_until([&] { return client.count(Type::connected) == 1; }, std::chrono::milliseconds(5000)));
    constexpr std::uint32_t kMessages = 2000;
    constexpr std::size_t kSize = 1000;
    const Micros start = real_now();
    for (std::uint32_t i = 0; i < kMessages; ++i) {
        ASSERT_TRUE(client.t->send(id, Delivery::reliable_ordered, stamp(i, start, kSize)).ok());
    }
    ASSERT_TRUE(rig.run_until([&] { return rig.server.count(Type::message) == kMessages; },
                              std::chrono::milliseconds(30000)));
    const double seconds = (real_now() - start).seconds();
    std::uint32_t expect = 0;
    for (const auto& e : rig.server.events) {
        std::uint32_t i = 0;
        Micros at;
        if (e.type == Type::message && read_stamp(e.data, i, at)) {
            ASSERT_EQ(i, expect++);
        }
    }
    std::printf("[ relay ] %u reliable messages of %zu bytes in %.2f s: %.0f kbit/s (%.2f MB/s)\n", kMessages,
                kSize, seconds, kMessages * kSize * 8.0 / 1000.0 / seconds,
                kMessages * kSize / 1e6 / seconds);
    EXPECT_EQ(expect, kMessages);
}

}  // namespace

#endif  // __has_include("relay/relay.hpp")
