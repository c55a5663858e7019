// AdvanceResult::rollback_frames reports the re-simulation that advance() did before its frame.
#include "rb_harness.hpp"

namespace {

using namespace rbtest;
using namespace rwd::literals;

TEST(P2PAdvanceResult, RollbackFramesAddUpToTheFramesResimulated) {
    // Regression: rollback_frames stayed 0 because the rollback happens in the update() that advance() starts
    // with.
    const std::uint64_t seed = 301;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    LinkConfig link;
    link.latency = 60_ms;
    link.jitter = 10_ms;
    link.loss = 0.05;
    Mesh mesh(2, seed, link, P2PConfig{});
    std::array<std::uint64_t, 2> reported{};
    int deepest = 0;
    Micros now = mesh.now();
    for (int ms = 1; ms <= 6000; ++ms) {  // only advance(), never a bare update(): every rollback is reported
        now += 1_ms;
        mesh.net().advance_to(now);
        if (ms % 16 != 0) continue;
        for (int i = 0; i < 2; ++i) {
            auto& s = *mesh.peer(i).session;
            ASSERT_TRUE(s.add_local_input(i, toy::scripted_input(seed, i, s.current_frame())).ok());
            const auto r = s.advance(now);
            EXPECT_GE(r.rollback_frames, 0);
            reported[static_cast<std::size_t>(i)] += static_cast<std::uint64_t>(r.rollback_frames);
            deepest = std::max(deepest, r.rollback_frames);
        }
    }
    for (int i = 0; i < 2; ++i) {
        const auto st = mesh.peer(i).session->stats();
        EXPECT_GT(st.frames_resimulated, 0u) << "peer " << i << " never rolled back";
        EXPECT_EQ(reported[static_cast<std::size_t>(i)], st.frames_resimulated) << "peer " << i;
    }
    EXPECT_GT(deepest, 1);
    EXPECT_LE(deepest, P2PConfig{}.max_prediction + 1);
}

}  // namespace
