// The input delay sized to the links: it stays at its least on a fast link, is chosen large enough before the
// first frame on a slow one (so frames keep advancing), follows a latency step up at once and back down a
// frame at a time, and stays put once the app sets it; peers agree on every confirmed frame throughout.
#include "rb_harness.hpp"

#include <algorithm>
#include <array>

namespace {

using namespace rbtest;
using rwd::rollback::SessionEvent;
using namespace rwd::literals;

LinkConfig one_way(Micros latency, Micros jitter = Micros{0}, double loss = 0.0) {
    LinkConfig l;
    l.latency = latency;
    l.jitter = jitter;
    l.loss = loss;
    return l;
}

TEST(P2PDelay, StaysAtItsLeastOnAFastLink) {
    const std::uint64_t seed = 71;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, one_way(5_ms), P2PConfig{});
    mesh.run(5_s);
    for (int i = 0; i < 2; ++i) {
        const auto st = mesh.peer(i).session->stats();
        EXPECT_EQ(mesh.peer(i).session->input_delay(), 2);
        EXPECT_EQ(st.input_delay_max, 2);
        EXPECT_EQ(st.input_delay_changes, 0u);
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::input_delay), 0u);
    }
    EXPECT_GT(mesh.expect_agreement(), 200u);
}

TEST(P2PDelay, ASlowLinkGetsItsDelayBeforeTheFirstFrameAndKeepsUp) {
    // 250 ms one way, +-30 ms, 5 % loss: input delay 2 plus the window of 8 would stall half the time. Sized
    // to the link from the handshake's round trips, the delay covers the trip from frame 0 on.
    const std::uint64_t seed = 72;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, one_way(250_ms, 30_ms, 0.05), P2PConfig{});
    mesh.run(4_s);  // connected and running
    std::array<Frame, 2> before{};
    for (int i = 0; i < 2; ++i) before[static_cast<std::size_t>(i)] = mesh.peer(i).session->current_frame();
    ASSERT_GT(before[0], 0);
    mesh.run(8_s);
    for (int i = 0; i < 2; ++i) {
        const auto& s = *mesh.peer(i).session;
        const auto st = s.stats();
        // 250 ms is 15 frames: at least 15 + 2 - 8 = 9 frames of delay, and not wildly more.
        EXPECT_GE(st.input_delay_min, 9) << "peer " << i;
        EXPECT_LE(st.input_delay_max, 16) << "peer " << i;
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
        // Frames keep advancing at (nearly) the wall clock's 60 a second.
        EXPECT_GE(s.current_frame() - before[static_cast<std::size_t>(i)], static_cast<Frame>(0.95 * 8 * 60))
            << "peer " << i;
    }
    EXPECT_GT(mesh.expect_agreement(), 500u);
}

TEST(P2PDelay, FollowsALatencyStepUpAtOnceAndBackDownSlowly) {
    const std::uint64_t seed = 73;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, one_way(10_ms, 2_ms), P2PConfig{});
    mesh.run(3_s);
    ASSERT_EQ(mesh.peer(0).session->input_delay(), 2);
    ASSERT_TRUE(mesh.net().set_links(peer_address(0), peer_address(1), one_way(200_ms, 10_ms)).ok());
    mesh.run(3_s);
    // 200 ms is 12 frames: the delay rose to cover it (12 + 2 - 8 = 6 or more) within those 3 s.
    const int high = mesh.peer(0).session->input_delay();
    EXPECT_GE(high, 6);
    EXPECT_GE(mesh.count_events(0, SessionEvent::Type::input_delay), 1u);
    ASSERT_TRUE(mesh.net().set_links(peer_address(0), peer_address(1), one_way(10_ms, 2_ms)).ok());
    mesh.run(2_s);
    EXPECT_GE(mesh.peer(0).session->input_delay(), high - 2) << "down a frame per 2 s of room, not at once";
    mesh.run(30_s);
    EXPECT_EQ(mesh.peer(0).session->input_delay(), 2) << "back to its least on the fast link";
    for (int i = 0; i < 2; ++i) EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
    EXPECT_GT(mesh.expect_agreement(), 1000u);
}

TEST(P2PDelay, SetInputDelayTurnsTheAdaptationOff) {
    const std::uint64_t seed = 74;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, one_way(10_ms), P2PConfig{});
    mesh.run(2_s);
    ASSERT_TRUE(mesh.peer(0).session->set_input_delay(3).ok());
    ASSERT_TRUE(mesh.net().set_links(peer_address(0), peer_address(1), one_way(200_ms)).ok());
    mesh.run(4_s);
    EXPECT_EQ(mesh.peer(0).session->input_delay(), 3);
    EXPECT_EQ(mesh.count_events(0, SessionEvent::Type::input_delay), 0u);
    EXPECT_GT(mesh.peer(1).session->input_delay(), 3) << "the other peer still adapts";
    EXPECT_GT(mesh.expect_agreement(), 100u);
}

TEST(P2PDelay, ConfigBoundsAreChecked) {
    P2PConfig c;
    c.max_input_delay = 1;  // below input_delay (2)
    EXPECT_FALSE(c.validate().ok());
    c.max_input_delay = 31;
    EXPECT_FALSE(c.validate().ok());
    c.max_input_delay = 30;
    EXPECT_TRUE(c.validate().ok());
}

}  // namespace
