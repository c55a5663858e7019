// Tests for PredictionHistory: confirmation, exact rewind-and-replay, untrusted acks, and the ring bounds.
#include <rewind/core/rng.hpp>
#include <rewind/sync/prediction_history.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <vector>

namespace rwd::sync {
namespace {

/// A toy world: the controlled player's position and a step counter (so replays are visible).
struct World {
    std::int32_t x = 0, y = 0;
    std::uint32_t steps = 0;
    friend bool operator==(const World&, const World&) = default;
};
/// A toy input: a move.
struct Move {
    std::int32_t dx = 0, dy = 0;
};
/// The controlled entity as the game would replicate it.
struct Player {
    std::int32_t x = 0, y = 0;
    friend bool operator==(const Player&, const Player&) = default;
};

void step(World& w, const Move& m, Tick) {
    w.x += m.dx;
    w.y += m.dy;
    ++w.steps;
}

/// The comparison callback: player entity fields (bit 0 x, bit 1 y) and Chebyshev position error.
EntityDiff<Player> compare(const World& predicted, const World& authoritative) {
    EntityDiff<Player> d{Player{predicted.x, predicted.y}, Player{authoritative.x, authoritative.y}};
    d.fields = (predicted.x != authoritative.x ? 1u : 0u) | (predicted.y != authoritative.y ? 2u : 0u);
    d.position_error_q = std::max(std::abs(std::int64_t{predicted.x} - authoritative.x),
                                  std::abs(std::int64_t{predicted.y} - authoritative.y));
    return d;
}

using History = PredictionHistory<World, Move, 128>;

/// Predicts ticks first..last (inclusive, wrap-aware) with input dx = t % 3 - 1.
void predict(History& h, std::uint32_t first, std::uint32_t last) {
    for (std::uint32_t t = first;; ++t) {
        World w = h.latest_state();
        const Move m{static_cast<std::int32_t>(t % 3) - 1, 1};
        step(w, m, Tick{t});
        h.record(Tick{t}, m, w);
        if (t == last) break;
    }
}

TEST(PredictionHistory, NoCorrectionWhenThePredictionWasRight) {
    History h;
    h.reset(Tick{99}, World{});
    World server{};
    predict(h, 100, 130);
    for (std::uint32_t ack = 100; ack <= 120; ++ack) {
        step(server, *h.input_at(Tick{ack}), Tick{ack});  // the server runs the same step on the same inputs
        const auto r = h.reconcile(Tick{ack}, server, compare, step);
        EXPECT_EQ(r.status, ReconcileStatus::confirmed);
    }
    EXPECT_EQ(h.stats().confirmed, 21u);
    EXPECT_EQ(h.stats().corrections, 0u);
    EXPECT_EQ(h.pending(), 10);
}

TEST(PredictionHistory, MispredictionRewindsAndReplaysExactly) {
    History h;
    h.reset(Tick{0}, World{});
    predict(h, 1, 40);
    // The server saw something the client did not: at tick 10 the player is 5 units further right.
    World server = *h.state_at(Tick{10});
    server.x += 5;
    int steps_run = 0;
    auto counting_step = [&](World& w, const Move& m, Tick t) {
        ++steps_run;
        step(w, m, t);
    };
    const auto r = h.reconcile(Tick{10}, server, compare, counting_step);
    ASSERT_EQ(r.status, ReconcileStatus::corrected);
    EXPECT_EQ(r.correction.tick, Tick{10});
    EXPECT_EQ(r.correction.fields, 1u);
    EXPECT_EQ(r.correction.position_error_q, 5);
    EXPECT_EQ(r.correction.predicted.x + 5, r.correction.authoritative.x);
    EXPECT_EQ(r.correction.predicted.y, r.correction.authoritative.y);
    EXPECT_FALSE(r.correction.predicted == r.correction.authoritative);
    EXPECT_EQ(r.correction.replayed_ticks, 30);
    EXPECT_EQ(steps_run, 30);
    // Every stored prediction after the ack is the straight replay from the server state.
    World expect = server;
    for (std::uint32_t t = 11; t <= 40; ++t) {
        step(expect, *h.input_at(Tick{t}), Tick{t});
        EXPECT_EQ(*h.state_at(Tick{t}), expect) << "tick " << t;
    }
    EXPECT_EQ(h.latest_state(), expect);
    EXPECT_EQ(*h.state_at(Tick{10}), server);
    EXPECT_EQ(h.stats().replayed_ticks, 30u);
    // The next ack from the server (now consistent) confirms.
    step(server, *h.input_at(Tick{11}), Tick{11});
    EXPECT_EQ(h.reconcile(Tick{11}, server, compare, step).status, ReconcileStatus::confirmed);
}

TEST(PredictionHistory, UntrustedAcksAreBoundedAndCounted) {
    History h;
    EXPECT_EQ(h.reconcile(Tick{5}, World{}, compare, step).status, ReconcileStatus::empty);
    h.reset(Tick{1000}, World{});
    predict(h, 1001, 1050);
    EXPECT_EQ(h.reconcile(Tick{1051}, World{}, compare, step).status, ReconcileStatus::future_ack);
    EXPECT_EQ(h.reconcile(Tick{0x80000000u}, World{}, compare, step).status, ReconcileStatus::future_ack);
    World at_1020 = *h.state_at(Tick{1020});
    EXPECT_EQ(h.reconcile(Tick{1020}, at_1020, compare, step).status, ReconcileStatus::confirmed);
    EXPECT_EQ(h.reconcile(Tick{1020}, at_1020, compare, step).status, ReconcileStatus::stale_ack);
    EXPECT_EQ(h.reconcile(Tick{1010}, World{}, compare, step).status, ReconcileStatus::stale_ack);
    EXPECT_EQ(h.stats().future_acks, 2u);
    EXPECT_EQ(h.stats().stale_acks, 2u);
    EXPECT_EQ(h.acked_tick(), Tick{1020});
    EXPECT_EQ(h.pending(), 30);
}

TEST(PredictionHistory, AckOlderThanTheRingSnapsAndReplaysWhatIsLeft) {
    History h;
    h.reset(Tick{0}, World{});
    predict(h, 1, 300);  // the ring holds 173..300
    EXPECT_EQ(h.oldest_tick(), Tick{173});
    EXPECT_EQ(h.state_at(Tick{100}), nullptr);
    EXPECT_EQ(h.input_at(Tick{172}), nullptr);
    int steps_run = 0;
    auto counting_step = [&](World& w, const Move& m, Tick t) {
        ++steps_run;
        step(w, m, t);
    };
    const auto r = h.reconcile(Tick{100}, World{1, 2, 3}, compare, counting_step);
    ASSERT_EQ(r.status, ReconcileStatus::corrected);
    EXPECT_TRUE(r.correction.history_missing);
    EXPECT_LE(steps_run, 128);
    EXPECT_EQ(h.stats().history_misses, 1u);
    // An ack 2^31 - 1 ticks back is stale relative to nothing yet known... in a fresh history it is bounded
    // too.
    History fresh;
    fresh.reset(Tick{0}, World{});
    predict(fresh, 1, 200);
    steps_run = 0;
    (void)fresh.reconcile(Tick{200} - 0x7FFFFFFF, World{}, compare, counting_step);
    EXPECT_LE(steps_run, 128);
}

TEST(PredictionHistory, WorksAcrossTheTickWrapAndRestartsOnAGap) {
    History h;
    h.reset(Tick{0xFFFFFFF0u}, World{});
    predict(h, 0xFFFFFFF1u, 0xFFFFFFFFu);
    predict(h, 0, 20);
    EXPECT_EQ(h.newest_tick(), Tick{20});
    World server = *h.state_at(Tick{0xFFFFFFF8u});
    server.y -= 2;
    const auto r = h.reconcile(Tick{0xFFFFFFF8u}, server, compare, step);
    ASSERT_EQ(r.status, ReconcileStatus::corrected);
    EXPECT_EQ(r.correction.fields, 2u);
    EXPECT_EQ(r.correction.replayed_ticks, 28);  // 0xFFFFFFF9..0xFFFFFFFF and 0..20
    // A clock resync jumps the client tick: the history restarts there.
    const auto resets = h.stats().resets;
    h.record(Tick{500}, Move{}, World{9, 9, 9});
    EXPECT_EQ(h.stats().resets, resets + 1);
    EXPECT_EQ(h.newest_tick(), Tick{500});
    EXPECT_EQ(h.state_at(Tick{20}), nullptr);
}

// Whatever the inputs and wherever the server disagrees, after reconcile() the latest prediction equals a
// straight simulation of the pending inputs from the authoritative state.
RC_GTEST_PROP(PredictionHistoryProp, ReplayEqualsStraightSimulation, (std::uint64_t seed)) {
    Rng rng(seed);
    History h;
    const Tick start{rng.next_u32()};
    h.reset(start, World{});
    std::vector<Move> moves;
    const int ticks = 20 + static_cast<int>(rng.uniform(200));
    for (int i = 1; i <= ticks; ++i) {
        World w = h.latest_state();
        const Move m{static_cast<std::int32_t>(rng.uniform(7)) - 3,
                     static_cast<std::int32_t>(rng.uniform(7)) - 3};
        step(w, m, start + i);
        h.record(start + i, m, w);
        moves.push_back(m);
    }
    const int back = static_cast<int>(rng.uniform(static_cast<std::uint32_t>(std::min(ticks, 127))));
    const Tick ack = h.newest_tick() - back;
    const World server{static_cast<std::int32_t>(rng.uniform(100)), 7, 1};
    (void)h.reconcile(ack, server, compare, step);
    World expect = server;
    for (int i = ticks - back + 1; i <= ticks; ++i)
        step(expect, moves[static_cast<std::size_t>(i - 1)], start + i);
    RC_ASSERT(h.latest_state() == expect);
}

}  // namespace
}  // namespace rwd::sync
