// P2PSession over SimNetwork: handshake, agreement of every confirmed frame, lockstep, input delay changes.
#include "rb_harness.hpp"

namespace {

using namespace rbtest;
using rwd::rollback::SessionEvent;
using namespace rwd::literals;

LinkConfig clean_link(Micros latency) {
    LinkConfig l;
    l.latency = latency;
    return l;
}

TEST(P2PSession, TwoPeersSynchronizeAndAgreeOnEveryConfirmedFrame) {
    const std::uint64_t seed = 11;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, clean_link(60_ms), P2PConfig{});
    mesh.run(5_s);
    for (int i = 0; i < 2; ++i) {
        EXPECT_TRUE(mesh.peer(i).session->running());
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::running), 1u);
        EXPECT_GE(mesh.count_events(i, SessionEvent::Type::synchronized), 1u);
        EXPECT_GT(mesh.peer(i).session->current_frame(), 200);
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
    }
    EXPECT_GT(mesh.expect_agreement(), 200u);
    const auto st = mesh.peer(0).session->stats();
    EXPECT_GT(st.checksums_compared, 3u);
    EXPECT_GT(st.rollbacks, 0u);  // 60 ms each way with 2 frames of delay must mispredict sometimes
}

}  // namespace
