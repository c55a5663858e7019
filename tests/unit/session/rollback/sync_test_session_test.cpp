// SyncTestSession: a deterministic game passes at every check distance; a non-deterministic one is caught.
#include "toy_game.hpp"

#include <rewind/session/rollback/sync_test_session.hpp>

#include <gtest/gtest.h>

namespace {

using rwd::rollback::kNullFrame;
using rwd::rollback::SyncTestConfig;
using rwd::rollback::SyncTestSession;

template <class G, class S>
void run_frames(SyncTestSession<G>& s, int players, int frames, std::uint64_t seed, S&& state_check) {
    for (int f = 0; f < frames; ++f) {
        for (int p = 0; p < players; ++p)
            ASSERT_TRUE(s.add_local_input(p, toy::scripted_input(seed, p, f)).ok());
        s.advance();
        state_check(s);
    }
}

TEST(SyncTestSession, DeterministicGamePassesAtEveryCheckDistance) {
    for (int d = 1; d <= 8; ++d) {
        SCOPED_TRACE("check_distance=" + std::to_string(d));
        auto s = SyncTestSession<toy::Game>::create(SyncTestConfig{4, d}, toy::State{}).value();
        run_frames(s, 4, 300, 77, [](auto&) {});
        EXPECT_EQ(s.first_mismatch(), kNullFrame);
        EXPECT_GE(s.checksums_compared(), static_cast<std::uint64_t>((300 - d) * d));
        // The rolled-back-and-replayed state equals a plain run of the same inputs.
        toy::State ref{};
        std::array<toy::Input, 8> in{};
        for (int f = 0; f < 300; ++f) {
            for (int p = 0; p < 4; ++p) in[p] = toy::scripted_input(77, p, f);
            toy::Game::step(ref, in, nullptr);
        }
        EXPECT_EQ(toy::Game::checksum(ref), toy::Game::checksum(s.state()));
    }
}

TEST(SyncTestSession, CatchesNonDeterministicGameAndReportsFirstFrame) {
    for (int d = 1; d <= 8; ++d) {
        SCOPED_TRACE("check_distance=" + std::to_string(d));
        std::uint32_t counter = 0;
        toy::BrokenGame::hidden_counter = &counter;
        auto s = SyncTestSession<toy::BrokenGame>::create(SyncTestConfig{2, d}, toy::State{}).value();
        run_frames(s, 2, 120, 5, [](auto&) {});
        toy::BrokenGame::hidden_counter = nullptr;
        ASSERT_NE(s.first_mismatch(), kNullFrame);
        // The broken step only misbehaves from frame 19 on (state.frame >= 20 after it), never earlier.
        EXPECT_GE(s.first_mismatch(), 19);
        EXPECT_LT(s.first_mismatch(), 40);
        const auto& r = s.mismatch_report();
        EXPECT_NE(r.local_checksum, r.remote_checksum);
        EXPECT_FALSE(r.diff.empty());
        rwd::rollback::SessionEvent e;
        ASSERT_TRUE(s.poll_event(e));
        EXPECT_EQ(e.type, rwd::rollback::SessionEvent::Type::desync_detected);
        EXPECT_EQ(e.frame, s.first_mismatch());
    }
}

TEST(SyncTestSession, DiffNamesTheFieldThatDiffers) {
    std::uint32_t counter = 0;
    toy::BrokenGame::hidden_counter = &counter;
    auto s = SyncTestSession<toy::BrokenGame>::create(SyncTestConfig{2, 3}, toy::State{}).value();
    run_frames(s, 2, 60, 9, [](auto&) {});
    toy::BrokenGame::hidden_counter = nullptr;
    ASSERT_NE(s.first_mismatch(), kNullFrame);
    // BrokenGame has no describe_diff: the report falls back to a byte diff of the serialized states.
    EXPECT_NE(s.mismatch_report().diff.find("byte "), std::string::npos) << s.mismatch_report().diff;
    EXPECT_NE(s.mismatch_report().to_text().find("desync at frame"), std::string::npos);
}

TEST(SyncTestSession, RejectsBadConfig) {
    EXPECT_FALSE((SyncTestSession<toy::Game>::create(SyncTestConfig{2, 0}, toy::State{}).ok()));
    EXPECT_FALSE((SyncTestSession<toy::Game>::create(SyncTestConfig{2, 33}, toy::State{}).ok()));
    EXPECT_FALSE((SyncTestSession<toy::Game>::create(SyncTestConfig{9, 2}, toy::State{}).ok()));
}

}  // namespace
