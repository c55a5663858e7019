/// Server<ToyGame>/Client<ToyGame> over SimNetwork: connect, prediction, input authority, disconnects,
/// garbage.
#include "toy_harness.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/session/client_server/packets.hpp>

#include <gtest/gtest.h>

namespace {

using namespace toy;
using rwd::Micros;
using rwd::Tick;
namespace cs = rwd::client_server;

/// A raw endpoint that speaks the protocol by hand (for hostile clients).
struct RawClient {
    rwd::transport::Transport* ep = nullptr;
    rwd::transport::PeerId peer = rwd::transport::kInvalidPeer;
    std::vector<rwd::transport::TransportEvent> received;

    RawClient(Match<>& m, const std::string& name) {
        ep = m.net->create_endpoint({name, 900}).value();
        peer = ep->connect(m.server_addr).value();
    }
    void pump(Micros now) {
        ep->update(now);
        rwd::transport::TransportEvent ev;
        while (ep->poll(ev)) received.push_back(ev);
    }
    template <class Msg>
    void send(Msg msg, rwd::transport::Delivery d = rwd::transport::Delivery::unreliable) {
        std::vector<std::uint8_t> bytes;
        ASSERT_TRUE(cs::encode_message(msg, bytes).ok());
        (void)ep->send(peer, d, bytes);
    }
};

TEST(CsSession, ConnectsPredictsAndReceivesSnapshots) {
    const std::uint64_t seed = 11;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(30, 2));
    m.connect_client();
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    EXPECT_EQ(m.server->seated_count(), 2);
    m.client(0).set_input(move(100, 0));
    m.run(Micros{2'000'000});
    const auto& st = m.client(0).stats();
    EXPECT_GT(st.snapshots_received, 50u);
    EXPECT_GT(st.rtt.count, 50'000);
    EXPECT_LT(st.rtt.count, 80'000);
    // The prediction runs ahead of the server: the client's own x is larger than the server's.
    const auto own = m.client(0).own_entity();
    ASSERT_TRUE(own.has_value());
    const int slot = m.client(0).slot();
    EXPECT_GT(own->x, m.server->state().players[static_cast<std::size_t>(slot)].x);
    // Both clients see each other.
    const auto& render = m.client(1).render_entities(m.now);
    EXPECT_EQ(render.size(), 2u);
    // Spawn messages for both players arrived, in order.
    cs::Message msg;
    int spawns = 0;
    while (m.client(1).poll_message(msg)) {
        cs::Spawn spawn;
        spawns += m.client(1).read(msg, spawn);
    }
    EXPECT_EQ(spawns, 2);
    EXPECT_EQ(m.client(1).stats().events_out_of_order, 0u);
}

TEST(CsSession, StraightLineHasZeroCorrectionsUnderLatencyJitterAndLoss) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        Match<> m(seed, link(100, 20, 0.05));
        m.connect_client();
        m.client(0).set_input(move(100, 30));
        ASSERT_TRUE(m.run_until_playing());
        m.run(Micros{20'000'000});
        const auto& st = m.client(0).stats();
        EXPECT_GT(st.reconciliations, 400u);
        EXPECT_EQ(st.corrections, 0u)
            << "first correction at tick "
            << (m.client(0).corrections().empty() ? 0 : m.client(0).corrections().front().tick.value);
        EXPECT_EQ(m.server->client_stats(0).violations, 0u);
    }
}

TEST(CsSession, FloodOfInputsGainsNoSpeed) {
    const std::uint64_t seed = 5;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(20));
    RawClient raw(m, "cheater");
    const Tick start = m.server->tick();
    std::uint16_t seq = 0;
    bool hello_sent = false;
    Tick flood_tick = start;
    m.run(Micros{3'000'000}, [&] {
        raw.pump(m.now);
        for (const auto& ev : raw.received)
            if (ev.type == rwd::transport::TransportEvent::Type::connected && !hello_sent) {
                raw.send(cs::ConnectRequest{}, rwd::transport::Delivery::reliable_ordered);
                hello_sent = true;
            }
        raw.received.clear();
        // Ten packets a millisecond, each claiming four new ticks: far more than one input per tick.
        if (!hello_sent) return;
        for (int k = 0; k < 10; ++k) {
            cs::InputPacket<ToyGame::Input> p;
            p.sequence = seq++;
            flood_tick = flood_tick + 4;
            if (flood_tick - m.server->tick() > 30) flood_tick = m.server->tick() + 30;
            p.newest_tick = flood_tick;
            p.count = 4;
            p.inputs.fill(move(100, 0));
            raw.send(p);
        }
    });
    ASSERT_TRUE(m.server->seated(0));
    const auto ticks = static_cast<std::int64_t>(m.server->tick() - start);
    const auto x = m.server->state().players[0].x;
    EXPECT_GT(x, 0);
    EXPECT_LE(x, ticks * ToyGame::kSpeed) << "moved faster than one input per tick allows";
    const auto& cst = m.server->client_stats(0);
    EXPECT_GT(cst.inputs_overflow + cst.inputs_rate_limited + cst.inputs_future, 0u);
    EXPECT_TRUE(cst.flagged);
}

TEST(CsSession, OutOfRangeInputsAreClampedAndCounted) {
    const std::uint64_t seed = 6;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(20));
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    const std::int32_t x0 = m.server->state().players[0].x;
    const Tick t0 = m.server->tick();
    ToyGame::Input bad = move(127, 0);
    bad.buttons = 0xF0;  // unknown buttons
    m.client(0).set_input(bad);
    m.run(Micros{2'000'000});
    const auto ticks = static_cast<std::int64_t>(m.server->tick() - t0);
    const auto moved = m.server->state().players[0].x - x0;
    EXPECT_LE(moved, ticks * ToyGame::kSpeed);  // clamped to axis 1.0
    EXPECT_GT(moved, (ticks - 30) * ToyGame::kSpeed);
    EXPECT_GT(m.server->client_stats(0).violations, 100u);
    EXPECT_TRUE(m.server->client_stats(0).flagged);
}

TEST(CsSession, MissingInputsAreRepeated) {
    const std::uint64_t seed = 7;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(40));
    m.connect_client();
    m.client(0).set_input(move(100, 0));
    ASSERT_TRUE(m.run_until_playing());
    m.run(Micros{1'000'000});
    // Upstream outage of 300 ms: four-fold redundancy cannot cover it, the server must repeat.
    auto up = link(40);
    up.loss = 1.0;
    ASSERT_TRUE(m.net->set_link(m.client_addrs[0], m.server_addr, up).ok());
    const std::int32_t x0 = m.server->state().players[0].x;
    const Tick t0 = m.server->tick();
    m.run(Micros{300'000});
    ASSERT_TRUE(m.net->set_link(m.client_addrs[0], m.server_addr, link(40)).ok());
    const auto ticks = static_cast<std::int32_t>(m.server->tick() - t0);
    EXPECT_GT(m.server->client_stats(0).inputs_repeated, 10u);
    // Repeating the last input kept the player moving at full speed through the outage.
    EXPECT_EQ(m.server->state().players[0].x - x0, ticks * ToyGame::kSpeed);
    m.run(Micros{2'000'000});
    EXPECT_EQ(m.client(0).phase(), cs::ClientPhase::playing);
}

TEST(CsSession, DisconnectLeavesNoGhostAndReconnectWorks) {
    const std::uint64_t seed = 8;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(30, 5, 0.02));
    m.connect_client();
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.client(0).set_input(move(50, 50));
    m.run(Micros{1'000'000});
    const int gone = m.client(0).slot();
    m.client(0).disconnect(m.now);
    m.run(Micros{1'000'000});
    EXPECT_FALSE(m.server->seated(gone));
    EXPECT_EQ(m.server->state().players[static_cast<std::size_t>(gone)].present, 0);
    for (const auto& e : m.client(1).render_entities(m.now))
        EXPECT_NE(e.id, ToyGame::player_entity(gone)) << "ghost of the player who left";

    // A crashed client (endpoint gone, no goodbye) keeps its seat for the grace, its player in the world,
    // and is dropped when the grace ends.
    const int crashed = m.client(1).slot();
    m.net->close_endpoint(m.client_addrs[1]);
    m.clients[1].reset();
    m.run(Micros{7'000'000});
    EXPECT_FALSE(m.server->seated(crashed));
    EXPECT_TRUE(m.server->away(crashed));
    EXPECT_EQ(m.server->state().players[static_cast<std::size_t>(crashed)].present, 1);
    EXPECT_EQ(m.server->stats().seats_held, 1u);
    m.run(m.server->config().seat_grace);
    EXPECT_FALSE(m.server->away(crashed));
    EXPECT_EQ(m.server->state().players[static_cast<std::size_t>(crashed)].present, 0);
    EXPECT_EQ(m.server->stats().seats_expired, 1u);
    EXPECT_EQ(m.server->seated_count(), 0);

    // Someone reconnects and plays.
    const int again = m.connect_client();
    ASSERT_TRUE(m.run_until_playing(Micros{5'000'000}));
    EXPECT_EQ(m.client(again).phase(), cs::ClientPhase::playing)
        << cs::disconnect_code_name(m.client(again).stats().disconnect_code);
    EXPECT_EQ(m.server->seated_count(), 1);
}

TEST(CsSession, GarbageSenderIsKickedWithAReason) {
    const std::uint64_t seed = 9;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(20));
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    RawClient raw(m, "garbage");
    rwd::Rng rng(seed);
    bool hello = false;
    bool kicked = false;
    cs::DisconnectCode code = cs::DisconnectCode::none;
    m.run(Micros{3'000'000}, [&] {
        raw.pump(m.now);
        for (const auto& ev : raw.received) {
            if (ev.type == rwd::transport::TransportEvent::Type::connected && !hello) {
                raw.send(cs::ConnectRequest{}, rwd::transport::Delivery::reliable_ordered);
                hello = true;
            }
            if (ev.type == rwd::transport::TransportEvent::Type::message) {
                cs::Disconnect d;
                if (cs::decode_message(ev.data, d).ok()) code = d.code;
            }
            if (ev.type == rwd::transport::TransportEvent::Type::disconnected) kicked = true;
        }
        raw.received.clear();
        if (hello && !kicked && m.now.count % 10'000 == 0) {
            std::vector<std::uint8_t> junk(1 + rng.uniform(40));
            for (auto& b : junk) b = static_cast<std::uint8_t>(rng.next_u32());
            junk[0] = static_cast<std::uint8_t>((junk[0] & ~7u) | 3u);  // looks like an input packet
            (void)raw.ep->send(raw.peer, rwd::transport::Delivery::unreliable, junk);
        }
    });
    EXPECT_TRUE(kicked);
    EXPECT_EQ(code, cs::DisconnectCode::garbage);
    EXPECT_EQ(m.server->stats().kicked_garbage, 1u);
    EXPECT_EQ(m.server->seated_count(), 1);
    EXPECT_EQ(m.client(0).phase(), cs::ClientPhase::playing);
}

TEST(CsSession, ChatMessagesArriveExactlyOnceInOrderUnderLoss) {
    const std::uint64_t seed = 10;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(80, 20, 0.2));
    m.connect_client();
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing(Micros{10'000'000}));
    for (int i = 0; i < 50; ++i) {
        ASSERT_TRUE(m.client(0).send_chat("line " + std::to_string(i)).ok());
        m.run(Micros{20'000});
    }
    m.run(Micros{5'000'000});
    std::vector<std::string> lines;
    cs::Message msg;
    while (m.client(1).poll_message(msg)) {
        cs::Chat chat;
        if (m.client(1).read(msg, chat)) lines.push_back(chat.text);
    }
    ASSERT_EQ(lines.size(), 50u);
    for (int i = 0; i < 50; ++i) EXPECT_EQ(lines[static_cast<std::size_t>(i)], "line " + std::to_string(i));
    EXPECT_EQ(m.client(1).stats().events_out_of_order, 0u);
}

}  // namespace

namespace {

TEST(CsSession, SilentClientIsDroppedAfterTheTimeout) {
    const std::uint64_t seed = 12;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(20));
    RawClient raw(m, "silent");
    bool hello = false;
    cs::DisconnectCode code = cs::DisconnectCode::none;
    m.run(Micros{8'000'000}, [&] {
        raw.pump(m.now);  // the transport keeps the connection alive; the game layer hears nothing
        for (const auto& ev : raw.received) {
            if (ev.type == rwd::transport::TransportEvent::Type::connected && !hello) {
                raw.send(cs::ConnectRequest{}, rwd::transport::Delivery::reliable_ordered);
                hello = true;
            }
            cs::Disconnect d;
            if (ev.type == rwd::transport::TransportEvent::Type::message &&
                cs::decode_message(ev.data, d).ok())
                code = d.code;
        }
        raw.received.clear();
    });
    EXPECT_EQ(code, cs::DisconnectCode::timed_out);
    EXPECT_EQ(m.server->stats().timeouts, 1u);
    EXPECT_EQ(m.server->seated_count(), 0);
    EXPECT_EQ(m.server->state().players[0].present, 0);
}

}  // namespace
