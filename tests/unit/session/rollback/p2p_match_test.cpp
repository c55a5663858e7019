// P2PMatch and PeerConnector: rollback matches from addresses alone on a seeded SimNetwork: one connection
// per pair of machines, retries until the other side listens, strangers refused, a clear timeout.
#include "toy_game.hpp"

#include <rewind/session/rollback/p2p_match.hpp>
#include <rewind/transport/address_text.hpp>
#include <rewind/transport/sim_network.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace {

using rwd::Micros;
using rwd::rollback::ConnectorConfig;
using rwd::rollback::ConnectorState;
using rwd::rollback::P2PMatch;
using rwd::rollback::P2PMatchConfig;
using rwd::rollback::PeerConnector;
using rwd::transport::Address;
using rwd::transport::SimNetwork;
using rwd::transport::Transport;
using Match = P2PMatch<toy::Game>;

constexpr std::uint32_t kTag = 0x7E57u;

Address address(int machine) {
    std::string host = "m";
    host += std::to_string(machine);  // (gcc 12 warns falsely about "m" + std::to_string())
    return Address{host, 7000};
}
std::string name(int machine) { return rwd::transport::address_text(address(machine)); }

/// `hosts[slot]` is the machine playing that slot; the list machine `me` is given.
std::vector<std::string> players_for(const std::vector<int>& hosts, int me) {
    std::vector<std::string> out;
    for (int h : hosts) out.push_back(h == me ? "local" : name(h));
    return out;
}

SimNetwork make_net(std::uint64_t seed, int latency_ms, double loss) {
    rwd::transport::SimNetworkConfig c;
    c.seed = seed;
    c.default_link.latency = Micros{latency_ms * 1000};
    c.default_link.jitter = Micros{3000};
    c.default_link.loss = loss;
    return SimNetwork(c);
}

P2PMatchConfig match_config(const std::vector<int>& hosts, int me) {
    P2PMatchConfig c;
    c.players = players_for(hosts, me);
    c.session.session_tag = kTag;
    c.session.seed = 100 + static_cast<std::uint64_t>(me);
    c.timeout = Micros{20'000'000};
    return c;
}

/// Machines, each a SimNetwork endpoint and a P2PMatch, run on virtual time with scripted inputs.
struct Machines {
    SimNetwork net;
    std::vector<Transport*> endpoints;
    std::vector<std::unique_ptr<Match>> matches;
    Micros now{1'000'000};
    std::uint64_t seed;

    Machines(std::uint64_t s, const std::vector<int>& hosts, int machines, int latency_ms = 30,
             double loss = 0.02)
        : net(make_net(s, latency_ms, loss)), seed(s) {
        for (int m = 0; m < machines; ++m) {
            endpoints.push_back(net.listen(address(m), 16).value());
            matches.push_back(Match::over(*endpoints.back(), match_config(hosts, m), toy::State{}).value());
        }
    }
    void run(Micros duration) {
        const Micros end = now + duration;
        while (now < end) {
            now += Micros{1000};
            net.advance_to(now);
            for (auto& m : matches)
                (void)m->advance(now, [&](int slot, const toy::State& s) {
                    return toy::scripted_input(seed, slot, s.frame);
                });
        }
    }
};

TEST(P2PMatch, ThreePlayersOnTwoMachinesPlayInSync) {
    constexpr std::uint64_t kSeed = 11;
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    Machines ms(kSeed, {0, 1, 0}, 2);  // machine 0 plays slots 0 and 2, machine 1 slot 1
    ms.run(Micros{10'000'000});
    for (int m = 0; m < 2; ++m) {
        SCOPED_TRACE("machine " + std::to_string(m));
        Match& match = *ms.matches[static_cast<std::size_t>(m)];
        ASSERT_TRUE(match.ready());
        EXPECT_TRUE(match.session().running());
        const auto st = match.session().stats();
        EXPECT_GT(st.confirmed_frame, 400) << "about 60 frames a second for most of 10 s";
        EXPECT_GT(st.checksums_compared, 5u);
        EXPECT_EQ(st.desyncs, 0u);
    }
    EXPECT_EQ(ms.matches[0]->local_slots(), (std::vector<int>{0, 2}));
    EXPECT_EQ(ms.matches[1]->local_slots(), (std::vector<int>{1}));
    // Machine 1 (lowest slot 1 > 0) connected and introduced itself once; machine 0 waited and answered.
    for (int m = 0; m < 2; ++m) {
        EXPECT_EQ(ms.matches[static_cast<std::size_t>(m)]->connector_stats().intros_sent, 1u);
        EXPECT_EQ(ms.matches[static_cast<std::size_t>(m)]->connector_stats().intros_accepted, 1u);
    }
    EXPECT_EQ(ms.matches[0]->connector_stats().attempts, 0u);
}

TEST(P2PMatch, FourMachinesMakeOneConnectionPerPair) {
    constexpr std::uint64_t kSeed = 5;
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    Machines ms(kSeed, {0, 1, 2, 3}, 4, 20, 0.0);
    ms.run(Micros{4'000'000});
    std::uint64_t attempts = 0, sent = 0, accepted = 0;
    for (auto& m : ms.matches) {
        ASSERT_TRUE(m->ready());
        EXPECT_TRUE(m->session().running());
        attempts += m->connector_stats().attempts;
        sent += m->connector_stats().intros_sent;
        accepted += m->connector_stats().intros_accepted;
        EXPECT_EQ(m->connector_stats().intros_refused, 0u);
    }
    EXPECT_EQ(attempts, 6u);
    EXPECT_EQ(sent, 12u);  // an introduction and its answer per pair
    EXPECT_EQ(accepted, 12u);
}

TEST(PeerConnector, RetriesUntilTheOtherMachineListens) {
    SimNetwork net = make_net(3, 20, 0.0);
    Transport* b = net.listen(address(1), 4).value();
    ConnectorConfig cc;
    cc.players = players_for({0, 1}, 1);
    cc.session_tag = kTag;
    cc.retry_interval = Micros{300'000};
    auto conn_b = PeerConnector::create(*b, cc).value();
    Micros now{1'000'000};
    const auto run = [&](Micros d, PeerConnector* a) {
        for (const Micros end = now + d; now < end;) {
            now += Micros{1000};
            net.advance_to(now);
            conn_b.update(now);
            if (a) a->update(now);
        }
    };
    run(Micros{7'000'000}, nullptr);  // machine 0 is not up yet: the first attempt times out (5 s)
    EXPECT_EQ(conn_b.state(), ConnectorState::connecting);
    EXPECT_EQ(conn_b.stats().attempts, 2u);
    Transport* a = net.listen(address(0), 4).value();
    cc.players = players_for({0, 1}, 0);
    auto conn_a = PeerConnector::create(*a, cc).value();
    run(Micros{2'000'000}, &conn_a);
    ASSERT_EQ(conn_a.state(), ConnectorState::ready);
    ASSERT_EQ(conn_b.state(), ConnectorState::ready);
    EXPECT_EQ(conn_b.stats().attempts, 2u) << "the second attempt was still under way when machine 0 came up";
    EXPECT_NE(conn_a.peer_of(1), rwd::transport::kInvalidPeer);
    EXPECT_EQ(conn_a.peer_of(0), rwd::transport::kInvalidPeer);  // local
}

TEST(PeerConnector, StrangersCannotTakeASlot) {
    SimNetwork net = make_net(9, 10, 0.0);
    Transport* a = net.listen(address(0), 8).value();
    ConnectorConfig cc;
    cc.players = players_for({0, 1}, 0);
    cc.session_tag = kTag;
    auto conn = PeerConnector::create(*a, cc).value();
    Micros now{1'000'000};
    const auto run = [&](Micros d) {
        for (const Micros end = now + d; now < end;) {
            now += Micros{1000};
            net.advance_to(now);
            conn.update(now);
        }
    };
    // Three strangers: garbage, an introduction with the wrong tag, one claiming slot 0 (ours).
    const std::vector<std::vector<std::uint8_t>> lies{
        {1, 2, 3},
        {'R', 'W', 'I', 'N', 2, 0x00, 0x00, 0x00, 0x00, 2, 0x02},
        {'R', 'W', 'I', 'N', 2, 0x57, 0x7E, 0x00, 0x00, 2, 0x01},
    };
    for (std::size_t i = 0; i < lies.size(); ++i) {
        Transport* s = net.create_endpoint(Address{"stranger" + std::to_string(i), 9}).value();
        const auto peer = s->connect(address(0)).value();
        run(Micros{200'000});
        s->update(now);
        ASSERT_TRUE(s->send(peer, rwd::transport::Delivery::reliable_ordered, lies[i]).ok());
        run(Micros{200'000});
    }
    EXPECT_EQ(conn.state(), ConnectorState::connecting);
    EXPECT_EQ(conn.stats().intros_refused, 2u);
    EXPECT_EQ(conn.stats().messages_dropped, 1u);
    // The real machine 1 still gets its slot.
    Transport* b = net.listen(address(1), 4).value();
    cc.players = players_for({0, 1}, 1);
    auto conn_b = PeerConnector::create(*b, cc).value();
    for (const Micros end = now + Micros{1'000'000}; now < end;) {
        now += Micros{1000};
        net.advance_to(now);
        conn.update(now);
        conn_b.update(now);
    }
    EXPECT_EQ(conn.state(), ConnectorState::ready);
    EXPECT_EQ(conn.stats().intros_accepted, 1u);
}

TEST(PeerConnector, TheConnectingSideWaitsForTheAnswer) {
    SimNetwork net = make_net(4, 10, 0.0);
    Transport* a = net.listen(address(0), 4).value();
    Transport* b = net.listen(address(1), 4).value();
    ConnectorConfig ca, cb;
    ca.players = players_for({0, 1}, 0);
    cb.players = players_for({0, 1}, 1);
    ca.session_tag = 1;
    cb.session_tag = 2;  // another match
    cb.timeout = Micros{3'000'000};
    auto conn_a = PeerConnector::create(*a, ca).value();
    auto conn_b = PeerConnector::create(*b, cb).value();
    for (Micros now{1'000'000}; now < Micros{4'500'000}; now += Micros{1000}) {
        net.advance_to(now);
        conn_a.update(now);
        conn_b.update(now);
    }
    EXPECT_EQ(conn_a.state(), ConnectorState::connecting);
    EXPECT_EQ(conn_b.state(), ConnectorState::failed) << "refused: never ready on a connection being closed";
    EXPECT_EQ(conn_b.error().code, rwd::Errc::timed_out);
    EXPECT_GE(conn_a.stats().intros_refused, 1u);
}

TEST(PeerConnector, SilentStrangersGiveTheirPlaceBack) {
    SimNetwork net = make_net(6, 10, 0.0);
    Transport* a = net.listen(address(0), 2).value();  // room for two connections only
    ConnectorConfig cc;
    cc.players = players_for({0, 1}, 0);
    cc.retry_interval = Micros{250'000};
    auto conn = PeerConnector::create(*a, cc).value();
    Micros now{1'000'000};
    std::vector<Transport*> strangers;
    for (int i = 0; i < 2; ++i) {
        strangers.push_back(net.create_endpoint(Address{"silent" + std::to_string(i), 9}).value());
        (void)strangers.back()->connect(address(0)).value();
    }
    Transport* b = net.listen(address(1), 4).value();
    cc.players = players_for({0, 1}, 1);
    auto conn_b = PeerConnector::create(*b, cc).value();
    for (const Micros end = now + Micros{8'000'000}; now < end && conn.state() != ConnectorState::ready;) {
        now += Micros{1000};
        net.advance_to(now);
        conn.update(now);
        conn_b.update(now);
        rwd::transport::TransportEvent e;
        for (Transport* s : strangers)
            while (s->poll(e)) {
            }
    }
    EXPECT_EQ(conn.state(), ConnectorState::ready);
    EXPECT_EQ(conn.stats().intros_missing, 2u);
}

TEST(PeerConnector, AMovedFromConnectorDrivesNothing) {
    SimNetwork net = make_net(1, 10, 0.0);
    ConnectorConfig cc;
    cc.players = players_for({0, 1}, 0);
    auto first = PeerConnector::create(*net.listen(address(0), 4).value(), cc).value();
    PeerConnector second = std::move(first);
    first.update(Micros{1000});  // NOLINT(bugprone-use-after-move): the point of the test
    EXPECT_EQ(first.state(), ConnectorState::failed);
    EXPECT_EQ(second.state(), ConnectorState::connecting);
    EXPECT_EQ(second.local_slots(), (std::vector<int>{0}));
}

TEST(PeerConnector, FailsWithATimeoutWhenAMachineNeverComes) {
    SimNetwork net = make_net(2, 10, 0.0);
    Transport* a = net.listen(address(0), 4).value();
    ConnectorConfig cc;
    cc.players = players_for({0, 1, 2}, 0);
    cc.timeout = Micros{3'000'000};
    auto conn = PeerConnector::create(*a, cc).value();
    for (Micros now{0}; now < Micros{3'500'000}; now += Micros{1000}) {
        net.advance_to(now);
        conn.update(now);
    }
    EXPECT_EQ(conn.state(), ConnectorState::failed);
    EXPECT_EQ(conn.error().code, rwd::Errc::timed_out);
}

TEST(PeerConnector, ConfigsThatCannotWorkAreRefused) {
    const auto refused = [](std::vector<std::string> players) {
        ConnectorConfig c;
        c.players = std::move(players);
        return c.validate().code();
    };
    EXPECT_EQ(refused({"local"}), rwd::Errc::invalid_config);                             // one slot
    EXPECT_EQ(refused({"local", "local"}), rwd::Errc::invalid_config);                    // nobody remote
    EXPECT_EQ(refused({"a:1", "b:2"}), rwd::Errc::invalid_config);                        // nobody here
    EXPECT_EQ(refused({"local", "nohost"}), rwd::Errc::invalid_config);                   // no port
    EXPECT_EQ(refused({"local", "h:70000"}), rwd::Errc::invalid_config);                  // port out of range
    EXPECT_EQ(refused(std::vector<std::string>(9, "local")), rwd::Errc::invalid_config);  // nine slots
    EXPECT_EQ(refused({"local", "h:7000"}), rwd::Errc::ok);
    P2PMatchConfig mc;
    mc.players = {"local", "h:7000", "h:7000"};
    mc.session.num_players = 99;  // taken from players
    SimNetwork net = make_net(1, 10, 0.0);
    EXPECT_TRUE(Match::over(*net.listen(address(0), 4).value(), mc, toy::State{}).ok());
}

}  // namespace
