// P2PSession control: lockstep stalls and recovers, input delay changes mid-match, disconnects, desync
// forensics.
#include "rb_harness.hpp"

namespace {

using namespace rbtest;
using rwd::rollback::AdvanceStatus;
using rwd::rollback::SessionEvent;
using namespace rwd::literals;

LinkConfig link_of(Micros latency, double loss = 0.0) {
    LinkConfig l;
    l.latency = latency;
    l.jitter = 5_ms;
    l.loss = loss;
    return l;
}

TEST(P2PLockstep, StallsWithoutRemoteInputAndRecovers) {
    const std::uint64_t seed = 41;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    P2PConfig c;
    c.max_prediction = 0;         // lockstep
    c.adapt_input_delay = false;  // the reference checksums assume the fixed delay of 2
    Mesh mesh(2, seed, link_of(20_ms, 0.05), c);
    mesh.run(2_s);
    const Frame before = mesh.peer(0).session->current_frame();
    EXPECT_GT(before, 60);
    mesh.peer(1).paused = true;  // peer 1 stops sending anything
    mesh.run(400_ms);
    const Frame stalled = mesh.peer(0).session->current_frame();
    mesh.run(300_ms);
    EXPECT_EQ(mesh.peer(0).session->current_frame(), stalled) << "lockstep must not advance without input";
    EXPECT_LE(stalled - before, 2 + 3);  // at most the frames whose input was already in flight
    EXPECT_GT(mesh.peer(0).session->stats().stalls_prediction, 10u);
    mesh.peer(1).paused = false;
    mesh.run(3_s);
    EXPECT_GT(mesh.peer(0).session->current_frame(), stalled + 100) << "did not recover";
    EXPECT_EQ(mesh.count_events(0, SessionEvent::Type::disconnected), 0u);
    EXPECT_GE(mesh.count_events(0, SessionEvent::Type::interrupted), 1u);
    EXPECT_GE(mesh.count_events(0, SessionEvent::Type::resumed), 1u);
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(mesh.peer(i).session->stats().rollbacks, 0u) << "lockstep never predicts";
        // Every simulated frame is confirmed at once in lockstep.
        EXPECT_EQ(mesh.peer(i).session->confirmed_frame(), mesh.peer(i).session->current_frame() - 1);
    }
    EXPECT_GT(mesh.expect_agreement(), 200u);
    const auto ref = reference_checksums(seed, 2, 2, 1000);
    for (const auto& [f, cs] : mesh.peer(0).checksums) ASSERT_EQ(cs, ref[static_cast<std::size_t>(f)]) << f;
}

/// Removes consecutive duplicates.
std::vector<toy::Input> collapse(const std::vector<toy::Input>& v) {
    std::vector<toy::Input> out;
    for (const toy::Input& in : v) {
        if (out.empty() || !(out.back() == in)) out.push_back(in);
    }
    return out;
}

TEST(P2PInputDelay, ChangedMidMatchNeitherFreezesNorLosesInputs) {
    const std::uint64_t seed = 43;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, link_of(30_ms), P2PConfig{});
    mesh.run(2_s);
    for (const int delay : {6, 0, 4, 1}) {
        SCOPED_TRACE("delay=" + std::to_string(delay));
        ASSERT_TRUE(mesh.peer(0).session->set_input_delay(delay).ok());
        const Frame f0 = mesh.peer(0).session->current_frame();
        // No freeze: frames keep coming at (nearly) the full rate through the change.
        for (int k = 0; k < 10; ++k) {
            const Frame a = mesh.peer(0).session->current_frame();
            mesh.run(200_ms);
            EXPECT_GE(mesh.peer(0).session->current_frame() - a, 9) << "froze after the change";
        }
        EXPECT_GE(mesh.peer(0).session->current_frame() - f0, 110);
        EXPECT_EQ(mesh.peer(0).session->effective_input_delay(), delay) << "delay did not converge";
    }
    mesh.run(1_s);
    // No lost input: the distinct inputs peer 0 committed reach peer 1's confirmed frames in the same order.
    std::vector<toy::Input> seen;
    for (const auto& [f, v] : mesh.peer(1).inputs) seen.push_back(v[0]);
    const auto sent = collapse(mesh.peer(0).committed);
    const auto got = collapse(seen);
    ASSERT_GE(sent.size(), 50u);
    ASSERT_GE(got.size() + 1, sent.size() - 2);  // the last inputs may still be in flight
    std::size_t i = 0;
    if (!got.empty() && got[0] == toy::Input{}) i = 1;  // the neutral lead-in frames
    for (std::size_t k = 0; k + i < got.size(); ++k) {
        ASSERT_TRUE(got[k + i] == sent[k]) << "input " << k << " lost or reordered";
    }
    EXPECT_GT(mesh.expect_agreement(), 300u);
}

TEST(P2PDisconnect, SilentPeerIsInterruptedThenDroppedAndTheMatchGoesOn) {
    const std::uint64_t seed = 47;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(3, seed, link_of(40_ms, 0.02), P2PConfig{});
    mesh.run(2_s);
    mesh.net().close_endpoint(peer_address(2));  // peer 2 crashes
    mesh.peer(2).paused = true;
    mesh.run(400_ms);
    EXPECT_EQ(mesh.count_events(0, SessionEvent::Type::interrupted), 0u) << "interrupted before 500 ms";
    mesh.run(300_ms);
    EXPECT_EQ(mesh.count_events(0, SessionEvent::Type::interrupted), 1u);
    const Frame during = mesh.peer(0).session->current_frame();
    mesh.run(1500_ms);
    EXPECT_EQ(mesh.count_events(0, SessionEvent::Type::disconnected), 1u);
    EXPECT_EQ(mesh.count_events(1, SessionEvent::Type::disconnected), 1u);
    mesh.run(3_s);
    for (int i = 0; i < 2; ++i) {
        EXPECT_GT(mesh.peer(i).session->current_frame(), during + 150) << "match did not go on";
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
    }
    mesh.peer(2).checksums.clear();
    EXPECT_GT(mesh.expect_agreement(), 250u);
    // Both survivors agree on where player 2's real input ended, and use neutral input after it.
    Frame last0 = -1;
    Frame last1 = -1;
    for (const auto& e : mesh.peer(0).events) {
        if (e.type == SessionEvent::Type::disconnected) last0 = e.frame;
    }
    for (const auto& e : mesh.peer(1).events) {
        if (e.type == SessionEvent::Type::disconnected) last1 = e.frame;
    }
    ASSERT_GE(last0, 0);
    ASSERT_GE(last1, 0);
    const Frame agreed = std::min(last0, last1);
    for (const auto& [f, v] : mesh.peer(0).inputs) {
        if (f > agreed + 1) {
            ASSERT_TRUE(v[2] == toy::Input{}) << "frame " << f;
        }
    }
}

TEST(P2PDesync, MismatchRaisesEventWithBothChecksumsAndAForensicReport) {
    const std::uint64_t seed = 53;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    // Peer 1's copy of the game diverges at frame 100 (as if it read uninitialised memory there).
    Mesh<toy::SplitGame> mesh(2, seed, link_of(30_ms), P2PConfig{}, [](int i) {
        toy::SplitGame::State s{};
        if (i == 1) s.diverge_at = 100;
        return s;
    });
    mesh.run(5_s);
    for (int i = 0; i < 2; ++i) {
        const auto& ev = mesh.peer(i).events;
        const auto it = std::find_if(ev.begin(), ev.end(), [](const SessionEvent& e) {
            return e.type == SessionEvent::Type::desync_detected;
        });
        ASSERT_NE(it, ev.end()) << "peer " << i << " did not detect the desync";
        EXPECT_EQ(it->frame, 120) << "first checksummed frame after the divergence";
        EXPECT_NE(it->local_checksum, it->remote_checksum);
        const auto& reports = mesh.peer(i).session->desync_reports();
        ASSERT_FALSE(reports.empty());
        EXPECT_TRUE(reports[0].complete) << "remote state not fetched";
        EXPECT_TRUE(reports[0].local_serialized);
        EXPECT_EQ(reports[0].local_state.size(), reports[0].remote_state.size());
        EXPECT_NE(reports[0].diff.find("bodies[0].x"), std::string::npos) << reports[0].diff;
    }
    // No false positive before the divergence: frames 0..99 were compared and matched.
    EXPECT_GE(mesh.peer(0).session->stats().checksums_compared, 4u);
}

TEST(P2PSession, GarbageFromThePeerIsDroppedAndCounted) {
    const std::uint64_t seed = 59;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, link_of(20_ms), P2PConfig{});
    mesh.run(1_s);
    rwd::Rng rng(seed);
    for (int i = 0; i < 300; ++i) {
        std::vector<std::uint8_t> junk(rng.uniform(64) + 1);
        for (auto& b : junk) b = static_cast<std::uint8_t>(rng.next_u32());
        ASSERT_TRUE(
            mesh.peer(1)
                .transport
                ->send(mesh.peer(1).session->peer_stats()[0].peer, rwd::transport::Delivery::unreliable, junk)
                .ok());
        mesh.run(2_ms);
    }
    mesh.run(1_s);
    EXPECT_GT(mesh.peer(0).session->stats().malformed, 250u);
    EXPECT_GT(mesh.peer(0).session->current_frame(), 100);
    EXPECT_GT(mesh.expect_agreement(), 100u);
}

TEST(P2PSession, AdvanceReportsWhyItWaits) {
    Mesh mesh(2, 61, link_of(20_ms), P2PConfig{});
    auto& s = *mesh.peer(0).session;
    EXPECT_EQ(s.advance(Micros{1}).status, AdvanceStatus::synchronizing);
    mesh.run(1_s);
    EXPECT_EQ(s.advance(mesh.now()).status, AdvanceStatus::missing_local_input);
    EXPECT_FALSE(s.add_local_input(1, toy::Input{}).ok()) << "slot 1 is remote";
    EXPECT_FALSE(s.add_local_player(1).ok()) << "seats are fixed once running";
}

}  // namespace
