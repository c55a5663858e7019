// A world on the heap runs rollback through the save/load hooks: a sync test at every depth 1..8 over 10 000
// frames, a broken load caught, and a 4-peer match on a lossy, jittery mesh that never desyncs.
#include "heap_game.hpp"
#include "rb_harness.hpp"

#include <rewind/session/game_contract.hpp>
#include <rewind/session/rollback/sync_test_session.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

using heap::HeapGame;
using rwd::rollback::kNullFrame;
using rwd::rollback::SyncTestConfig;
using rwd::rollback::SyncTestSession;

static_assert(!std::is_trivially_copyable_v<HeapGame::State>);
static_assert(rwd::HasStateSaveLoad<HeapGame> && rwd::DeterministicGame<HeapGame>);
static_assert(!rwd::ServerGame<HeapGame>);  // a rollback-only game: it has no seats
static_assert(rwd::contract::deterministic_game<HeapGame>());

template <class G>
SyncTestSession<G> run_sync_test(int depth, int frames, std::uint64_t seed, std::size_t& most_bodies) {
    auto s = SyncTestSession<G>::create(SyncTestConfig{4, depth}, typename G::State{}).value();
    for (int f = 0; f < frames && s.first_mismatch() == kNullFrame; ++f) {
        for (int p = 0; p < 4; ++p) EXPECT_TRUE(s.add_local_input(p, toy::scripted_input(seed, p, f)).ok());
        s.advance();
        most_bodies = std::max(most_bodies, s.state().bodies.size());
    }
    return s;
}

TEST(HeapState, SyncTestPassesAtEveryDepth) {
    constexpr std::uint64_t kSeed = 31;
    for (int depth = 1; depth <= 8; ++depth) {
        SCOPED_TRACE("seed=" + std::to_string(kSeed) + " depth=" + std::to_string(depth));
        std::size_t most = 0;
        auto s = run_sync_test<HeapGame>(depth, 10'000, kSeed, most);
        EXPECT_EQ(s.first_mismatch(), kNullFrame);
        EXPECT_EQ(s.current_frame(), 10'000);
        EXPECT_GE(s.checksums_compared(), static_cast<std::uint64_t>((10'000 - depth) * depth));
        EXPECT_GE(most, 10u) << "the world really grew on the heap";
    }
}

TEST(HeapState, ABrokenLoadIsCaught) {
    std::size_t most = 0;
    auto s = run_sync_test<heap::LossyHeapGame>(3, 2000, 31, most);
    ASSERT_NE(s.first_mismatch(), kNullFrame);
    EXPECT_TRUE(s.mismatch_report().local_state.empty()) << "no serialize(State): no bytes to show";
}

TEST(HeapState, FourPeersOnALossyMeshNeverDesync) {
    constexpr std::uint64_t kSeed = 8;
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    rwd::transport::LinkConfig link;
    link.latency = rwd::Micros{40'000};
    link.jitter = rwd::Micros{10'000};
    link.loss = 0.05;
    rwd::rollback::P2PConfig base;
    base.checksum_interval = 10;
    rbtest::Mesh<HeapGame> mesh(4, kSeed, link, base);
    mesh.run(rwd::Micros{20'000'000});
    EXPECT_GT(mesh.expect_agreement(), 300u);
    std::uint64_t rollbacks = 0;
    for (int p = 0; p < 4; ++p) {
        EXPECT_EQ(mesh.count_events(p, rwd::rollback::SessionEvent::Type::desync_detected), 0u);
        const auto st = mesh.peer(p).session->stats();
        EXPECT_EQ(st.desyncs, 0u);
        EXPECT_GT(st.confirmed_frame, 900);
        rollbacks += st.rollbacks;
    }
    EXPECT_GT(rollbacks, 0u) << "the hooks were exercised by real rollbacks";
}

}  // namespace
