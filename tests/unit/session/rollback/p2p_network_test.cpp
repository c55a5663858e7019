// P2PSession under a bad network: 2 and 4 peers agree on every confirmed frame, and on the reference
// simulation.
#include "rb_harness.hpp"

#include <cstdio>

namespace {

using namespace rbtest;
using rwd::rollback::SessionEvent;
using namespace rwd::literals;

LinkConfig bad_link() {
    LinkConfig l;
    l.latency = 50_ms;
    l.jitter = 10_ms;
    l.loss = 0.05;
    l.duplicate = 0.02;
    l.reorder = 0.05;
    return l;
}

void print_stats(const char* name, std::uint64_t seed, Mesh<>& mesh) {
    const auto st = mesh.peer(0).session->stats();
    std::printf(
        "[rollback] %s seed=%llu frames=%d confirmed=%d rollbacks=%llu resimulated=%llu (%.1f/s) "
        "stalls=%llu compared=%llu depth:",
        name, static_cast<unsigned long long>(seed), st.frame, st.confirmed_frame,
        static_cast<unsigned long long>(st.rollbacks), static_cast<unsigned long long>(st.frames_resimulated),
        st.resimulated_per_second, static_cast<unsigned long long>(st.stalls_prediction),
        static_cast<unsigned long long>(st.checksums_compared));
    for (std::size_t d = 1; d <= 9; ++d)
        std::printf(" %zu:%llu", d, static_cast<unsigned long long>(st.rollback_depth[d]));
    const auto ps = mesh.peer(0).session->peer_stats();
    if (!ps.empty()) {
        std::printf(" ping=%.1fms kbps=%.1f behind=%.2f", ps[0].ping.millis(), ps[0].kbps_sent,
                    ps[0].frames_behind);
    }
    std::printf("\n");
}

/// A session of fixed input delay 2: the reference run scripts each input at its frame + 2 (the adaptive
/// delay is tested in p2p_delay_test.cpp, against the peers' agreement instead).
P2PConfig fixed_delay() {
    P2PConfig c;
    c.adapt_input_delay = false;
    return c;
}

void expect_matches_reference(Mesh<>& mesh, std::uint64_t seed, int players, int delay) {
    const auto ref = reference_checksums(seed, players, delay, 2000);
    std::size_t checked = 0;
    for (auto& p : mesh.peers()) {
        for (const auto& [f, cs] : p.checksums) {
            if (f >= static_cast<Frame>(ref.size())) break;
            ASSERT_EQ(cs, ref[static_cast<std::size_t>(f)]) << "peer " << p.index << " frame " << f;
            ++checked;
        }
    }
    EXPECT_GT(checked, 100u);
}

class TwoPeersBadNetwork : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(TwoPeersBadNetwork, AgreeOnEveryConfirmedFrame) {
    const std::uint64_t seed = GetParam();
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, bad_link(), fixed_delay());
    mesh.run(12_s);
    for (int i = 0; i < 2; ++i) {
        EXPECT_GT(mesh.peer(i).session->current_frame(), 550);
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::disconnected), 0u);
    }
    EXPECT_GT(mesh.expect_agreement(), 500u);
    expect_matches_reference(mesh, seed, 2, 2);
    std::uint64_t rollbacks = 0;
    for (int i = 0; i < 2; ++i) {
        const auto st = mesh.peer(i).session->stats();
        rollbacks += st.rollbacks;
        EXPECT_GT(st.checksums_compared, 10u);
        std::uint64_t deeper = 0;
        for (std::size_t d = 9; d < st.rollback_depth.size(); ++d) deeper += st.rollback_depth[d];
        EXPECT_EQ(deeper, 0u) << "a rollback deeper than the prediction window";
    }
    EXPECT_GT(rollbacks, 10u);
    print_stats("2 peers", seed, mesh);
}

INSTANTIATE_TEST_SUITE_P(Seeds, TwoPeersBadNetwork, ::testing::Values(1u, 2u, 3u));

class FourPeersBadNetwork : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(FourPeersBadNetwork, AgreeOnEveryConfirmedFrame) {
    const std::uint64_t seed = GetParam();
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(4, seed, bad_link(), fixed_delay());
    mesh.run(12_s);
    for (int i = 0; i < 4; ++i) {
        EXPECT_GT(mesh.peer(i).session->current_frame(), 500);
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
    }
    EXPECT_GT(mesh.expect_agreement(), 2000u);
    expect_matches_reference(mesh, seed, 4, 2);
    std::uint64_t rollbacks = 0;
    for (int i = 0; i < 4; ++i) rollbacks += mesh.peer(i).session->stats().rollbacks;
    EXPECT_GT(rollbacks, 10u);
    print_stats("4 peers", seed, mesh);
}

INSTANTIATE_TEST_SUITE_P(Seeds, FourPeersBadNetwork, ::testing::Values(21u, 22u));

TEST(P2PSession, EightPlayersMixedLocalAndRemote) {
    // 4 machines with 2 local players each: slots 2k and 2k+1 on machine k.
    const std::uint64_t seed = 31;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    SimNetworkConfig nc;
    nc.seed = seed;
    nc.default_link = bad_link();
    SimNetwork net(nc);
    Micros now{};
    std::vector<Transport*> t;
    for (int i = 0; i < 4; ++i) t.push_back(net.listen(peer_address(i), 8).value());
    std::vector<std::vector<PeerId>> ids(4, std::vector<PeerId>(4, 0));
    for (int i = 0; i < 4; ++i) {
        for (int j = i + 1; j < 4; ++j)
            std::tie(ids[i][j], ids[j][i]) = connect_pair(net, *t[i], *t[j], peer_address(j), now);
    }
    std::vector<std::unique_ptr<P2PSession<toy::Game>>> s;
    for (int i = 0; i < 4; ++i) {
        P2PConfig c = fixed_delay();
        c.num_players = 8;
        c.seed = seed + static_cast<std::uint64_t>(i);
        s.push_back(P2PSession<toy::Game>::create(*t[i], c, toy::State{}).value());
        for (int slot = 0; slot < 8; ++slot) {
            const int owner = slot / 2;
            const auto st =
                owner == i ? s[i]->add_local_player(slot) : s[i]->add_remote_player(slot, ids[i][owner]);
            ASSERT_TRUE(st.ok());
        }
    }
    std::vector<std::map<Frame, std::uint64_t>> sums(4);
    for (int ms = 0; ms < 8000; ++ms) {
        now += Micros{1000};
        net.advance_to(now);
        for (int i = 0; i < 4; ++i) {
            if (ms % 17 == i) {
                for (int slot = 2 * i; slot < 2 * i + 2; ++slot) {
                    ASSERT_TRUE(
                        s[i]->add_local_input(slot, toy::scripted_input(seed, slot, s[i]->current_frame()))
                            .ok());
                }
                (void)s[i]->advance(now);
            } else if (ms % 4 == 0) {
                s[i]->update(now);
            }
            for (Frame f = sums[i].empty() ? 0 : sums[i].rbegin()->first + 1; f <= s[i]->confirmed_frame();
                 ++f) {
                std::uint64_t cs = 0;
                if (s[i]->frame_checksum(f, cs)) sums[i][f] = cs;
            }
        }
    }
    const auto ref = reference_checksums(seed, 8, 2, 1000);
    std::size_t checked = 0;
    for (int i = 0; i < 4; ++i) {
        EXPECT_GT(s[i]->current_frame(), 350);
        for (const auto& [f, cs] : sums[i]) {
            ASSERT_EQ(cs, ref[static_cast<std::size_t>(f)]) << "machine " << i << " frame " << f;
            ++checked;
        }
    }
    EXPECT_GT(checked, 1000u);
}

}  // namespace
