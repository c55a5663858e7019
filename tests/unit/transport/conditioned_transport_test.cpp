// ConditionedTransport: a perfect link passes through, latency delays each direction, loss drops only
// unreliable, reliable keeps its order, in-flight messages die with their peer, determinism from the seed.
#include <rewind/transport/conditioned_transport.hpp>
#include <rewind/transport/sim_network.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rwd::transport {
namespace {

using namespace rwd::literals;
using Type = TransportEvent::Type;

const Address kServerAddr{"server", 1000};
const Address kClientAddr{"client", 2000};

struct Timed {
    Micros at;
    TransportEvent ev;
};

// A SimNetwork (perfect links) with a server endpoint and a client endpoint wrapped in a
// ConditionedTransport.
struct Rig {
    Rig(const ConditionedLinks& links, std::uint64_t seed)
        : net(SimNetworkConfig{}),
          server(net.listen(kServerAddr, 4).value()),
          client_inner(net.create_endpoint(kClientAddr).value()),
          client(*client_inner, links, seed) {
        client_peer = client.connect(kServerAddr).value();
        run_for(500_ms);
        for (const auto& e : server_events)
            if (e.ev.type == Type::connected) server_peer = e.ev.peer;
    }
    void step() {
        now += 1_ms;
        net.advance_to(now);
        client.update(now);
        TransportEvent ev;
        while (server->poll(ev)) server_events.push_back(Timed{now, std::move(ev)});
        while (client.poll(ev)) client_events.push_back(Timed{now, std::move(ev)});
    }
    void run_for(Micros d) {
        const Micros end = now + d;
        while (now < end) step();
    }
    static std::vector<Timed> messages(const std::vector<Timed>& events, Delivery d) {
        std::vector<Timed> out;
        for (const auto& e : events)
            if (e.ev.type == Type::message && e.ev.delivery == d) out.push_back(e);
        return out;
    }

    SimNetwork net;
    Transport* server;
    Transport* client_inner;
    ConditionedTransport client;
    PeerId client_peer = kInvalidPeer;
    PeerId server_peer = kInvalidPeer;
    Micros now{};
    std::vector<Timed> server_events;
    std::vector<Timed> client_events;
};

std::vector<std::uint8_t> bytes_of(std::uint32_t n) {
    return {static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8),
            static_cast<std::uint8_t>(n >> 16), 0};
}
std::uint32_t number_of(const std::vector<std::uint8_t>& v) {
    return v.size() < 3 ? 0u : (v[0] | (std::uint32_t{v[1]} << 8) | (std::uint32_t{v[2]} << 16));
}

TEST(ConditionedTransport, PerfectLinkPassesEverythingThrough) {
    Rig r({}, 1);
    ASSERT_NE(r.server_peer, kInvalidPeer);
    ASSERT_EQ(r.client_events.size(), 1u);
    EXPECT_EQ(r.client_events[0].ev.type, Type::connected);
    for (std::uint32_t i = 0; i < 50; ++i) {
        ASSERT_TRUE(r.client.send(r.client_peer, Delivery::unreliable, bytes_of(i)).ok());
        ASSERT_TRUE(r.server->send(r.server_peer, Delivery::unreliable, bytes_of(1000 + i)).ok());
        r.step();
    }
    r.run_for(100_ms);
    EXPECT_EQ(Rig::messages(r.server_events, Delivery::unreliable).size(), 50u);
    EXPECT_EQ(Rig::messages(r.client_events, Delivery::unreliable).size(), 50u);
    const auto c = r.client.counters();
    EXPECT_EQ(c.up.submitted, 50u);
    EXPECT_EQ(c.up.delivered, 50u);
    EXPECT_EQ(c.down.delivered, 50u);
}

TEST(ConditionedTransport, LatencyDelaysEachDirectionByItsOwnAmount) {
    ConditionedLinks links;
    links.up.latency = 40_ms;
    links.down.latency = 70_ms;
    Rig r(links, 2);
    ASSERT_NE(r.server_peer, kInvalidPeer);
    const Micros sent = r.now;
    ASSERT_TRUE(r.client.send(r.client_peer, Delivery::unreliable, bytes_of(7)).ok());
    ASSERT_TRUE(r.server->send(r.server_peer, Delivery::unreliable, bytes_of(8)).ok());
    r.run_for(200_ms);
    const auto up = Rig::messages(r.server_events, Delivery::unreliable);
    const auto down = Rig::messages(r.client_events, Delivery::unreliable);
    ASSERT_EQ(up.size(), 1u);
    ASSERT_EQ(down.size(), 1u);
    EXPECT_GE((up[0].at - sent).count, 40'000);
    EXPECT_LE((up[0].at - sent).count, 45'000);
    EXPECT_GE((down[0].at - sent).count, 70'000);
    EXPECT_LE((down[0].at - sent).count, 75'000);
}

TEST(ConditionedTransport, LossDropsUnreliableButReliableArrivesInOrder) {
    const std::uint64_t seed = 3;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    ConditionedLinks links;
    links.up.loss = 0.5;
    links.up.latency = 30_ms;
    links.up.jitter = 10_ms;
    links.down.loss = 0.5;
    Rig r(links, seed);
    ASSERT_NE(r.server_peer, kInvalidPeer);
    for (std::uint32_t i = 0; i < 400; ++i) {
        ASSERT_TRUE(r.client.send(r.client_peer, Delivery::unreliable, bytes_of(i)).ok());
        ASSERT_TRUE(r.client.send(r.client_peer, Delivery::reliable_ordered, bytes_of(i)).ok());
        ASSERT_TRUE(r.server->send(r.server_peer, Delivery::unreliable, bytes_of(i)).ok());
        ASSERT_TRUE(r.server->send(r.server_peer, Delivery::reliable_ordered, bytes_of(i)).ok());
        r.step();
    }
    r.run_for(500_ms);
    for (const auto* events : {&r.server_events, &r.client_events}) {
        const auto unrel = Rig::messages(*events, Delivery::unreliable);
        EXPECT_GT(unrel.size(), 120u);
        EXPECT_LT(unrel.size(), 280u);
        const auto rel = Rig::messages(*events, Delivery::reliable_ordered);
        ASSERT_EQ(rel.size(), 400u);
        for (std::uint32_t i = 0; i < 400; ++i) EXPECT_EQ(number_of(rel[i].ev.data), i);
    }
    const auto c = r.client.counters();
    EXPECT_EQ(c.up.submitted, 400u);
    EXPECT_GT(c.up.dropped_random, 120u);
    EXPECT_GT(c.reliable_delayed, 0u);
}

TEST(ConditionedTransport, OversizeUnreliableIsRefusedAtOnce) {
    Rig r({}, 4);
    std::vector<std::uint8_t> big(r.client.max_message_size() + 1, 0);
    EXPECT_EQ(r.client.send(r.client_peer, Delivery::unreliable, big).code(), Errc::length_too_long);
}

TEST(ConditionedTransport, InFlightMessagesDieWithTheirPeer) {
    ConditionedLinks links;
    links.down.latency = 300_ms;
    Rig r(links, 5);
    ASSERT_NE(r.server_peer, kInvalidPeer);
    for (std::uint32_t i = 0; i < 10; ++i)
        ASSERT_TRUE(r.server->send(r.server_peer, Delivery::unreliable, bytes_of(i)).ok());
    r.run_for(20_ms);
    r.server->disconnect(r.server_peer);
    r.run_for(600_ms);
    EXPECT_TRUE(Rig::messages(r.client_events, Delivery::unreliable).empty());
    ASSERT_FALSE(r.client_events.empty());
    EXPECT_EQ(r.client_events.back().ev.type, Type::disconnected);
    EXPECT_EQ(r.client.counters().discarded_on_close, 10u);
}

TEST(ConditionedTransport, SameSeedSameDecisions) {
    auto run = [](std::uint64_t seed) {
        ConditionedLinks links;
        links.up.loss = 0.3;
        links.up.jitter = 15_ms;
        links.up.latency = 20_ms;
        Rig r(links, seed);
        std::vector<std::uint32_t> got;
        for (std::uint32_t i = 0; i < 200; ++i) {
            EXPECT_TRUE(r.client.send(r.client_peer, Delivery::unreliable, bytes_of(i)).ok());
            r.step();
        }
        r.run_for(200_ms);
        for (const auto& e : Rig::messages(r.server_events, Delivery::unreliable))
            got.push_back(number_of(e.ev.data));
        return got;
    };
    EXPECT_EQ(run(11), run(11));
    EXPECT_NE(run(11), run(12));
}

TEST(ConditionedTransport, SetLinksRefusesAnInvalidConfigAndKeepsTheOld) {
    Rig r({}, 6);
    ConditionedLinks bad;
    bad.up.loss = 2.0;
    EXPECT_FALSE(r.client.set_links(bad).ok());
    EXPECT_EQ(r.client.links().up.loss, 0.0);
    ConditionedLinks good;
    good.down.loss = 1.0;
    ASSERT_TRUE(r.client.set_links(good).ok());
    ASSERT_TRUE(r.server->send(r.server_peer, Delivery::unreliable, bytes_of(1)).ok());
    r.run_for(50_ms);
    EXPECT_TRUE(Rig::messages(r.client_events, Delivery::unreliable).empty());
}

}  // namespace
}  // namespace rwd::transport
