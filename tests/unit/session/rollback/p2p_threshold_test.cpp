// Regression: a rollback exactly at the prediction threshold loads the oldest saved state and stays correct.
#include "rb_harness.hpp"

namespace {

using namespace rbtest;
using rwd::rollback::SessionEvent;
using namespace rwd::literals;

TEST(P2PThreshold, RollbackExactlyAtThePredictionWindow) {
    // One-way latency far above the window: every peer runs into the threshold, and the late input for the
    // oldest predicted frame forces a rollback of exactly max_prediction frames (the oldest state in the
    // ring).
    for (const int window : {1, 3, 8}) {
        const std::uint64_t seed = 100 + static_cast<std::uint64_t>(window);
        SCOPED_TRACE("seed=" + std::to_string(seed) + " window=" + std::to_string(window));
        P2PConfig c;
        c.max_prediction = window;
        c.input_delay = 0;
        c.adapt_input_delay = false;  // the point is to run into the window (and the reference's fixed delay)
        c.stall_frames_ahead = 0;
        LinkConfig l;
        l.latency = 150_ms;
        Mesh mesh(2, seed, l, c);
        mesh.run(8_s);
        for (int i = 0; i < 2; ++i) {
            const auto st = mesh.peer(i).session->stats();
            EXPECT_GT(st.rollback_depth[static_cast<std::size_t>(window)], 0u)
                << "peer " << i << ": no rollback at the threshold";
            for (std::size_t d = static_cast<std::size_t>(window) + 1; d < st.rollback_depth.size(); ++d) {
                EXPECT_EQ(st.rollback_depth[d], 0u) << "deeper than the window: " << d;
            }
            EXPECT_GT(st.stalls_prediction, 0u);
            EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
        }
        EXPECT_GT(mesh.expect_agreement(), 40u);  // window 1 at 300 ms round trip: about 7 frames/s
        const auto ref = reference_checksums(seed, 2, 0, 2000);
        for (const auto& [f, cs] : mesh.peer(0).checksums)
            ASSERT_EQ(cs, ref[static_cast<std::size_t>(f)]) << "frame " << f;
    }
}

}  // namespace
