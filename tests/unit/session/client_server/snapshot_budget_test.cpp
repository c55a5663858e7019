/// The snapshot byte budget as a rate with a burst: a join goes out whole, the mean stays at the budget.
#include "toy_harness.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

namespace cs = rwd::client_server;
using rwd::Micros;
using toy::ToyGame;

TEST(SnapshotBudget, BurstBytesMustHoldAtLeastOneSnapshotsBudget) {
    cs::SnapshotConfig c;
    c.budget_bytes = 95;
    c.burst_bytes = 380;
    EXPECT_TRUE(c.validate().ok());
    c.burst_bytes = 94;
    EXPECT_EQ(c.validate().code(), rwd::Errc::invalid_config);
    c.burst_bytes = 70000;
    EXPECT_EQ(c.validate().code(), rwd::Errc::invalid_config);
    c.budget_bytes = 0;  // no budget to be a rate of
    c.burst_bytes = 380;
    EXPECT_EQ(c.validate().code(), rwd::Errc::invalid_config);
}

struct BudgetRun {
    std::uint64_t snapshots = 0, bytes = 0, left_out = 0, limited = 0;
    std::size_t first_bytes = 0, max_bytes = 0;
};

// Eight players moving `step` every tick; one observed client. `burst` 0: every snapshot held to the budget.
BudgetRun run_with(int budget, int burst, std::uint64_t seed, bool range_coded = true, int step = 997) {
    cs::ServerConfig sc;
    sc.snapshots.budget_bytes = budget;
    sc.snapshots.burst_bytes = burst;
    sc.snapshots.range_coded = range_coded;
    toy::Match<> m(seed, {}, sc);
    for (int i = 0; i < 8; ++i) m.connect_client();
    EXPECT_TRUE(m.run_until_playing());
    BudgetRun r;
    const std::uint64_t sent_before = m.server->client_stats(0).snapshots_sent;
    std::uint64_t bytes_before = m.server->client_stats(0).snapshot_bytes_total;
    r.first_bytes = m.server->client_stats(0).max_snapshot_bytes;  // the join's snapshots
    const std::uint64_t left_before = m.server->client_stats(0).entities_left_out_total;
    const std::uint64_t limited_before = m.server->client_stats(0).snapshots_budget_limited;
    m.run(Micros{3'000'000}, [&] {
        for (auto& p : m.server->state().players)
            if (p.present) p.x = (p.x + step) % ToyGame::kBound;  // everyone changes every tick
    });
    const auto& st = m.server->client_stats(0);
    r.snapshots = st.snapshots_sent - sent_before;
    r.bytes = st.snapshot_bytes_total - bytes_before;
    r.left_out = st.entities_left_out_total - left_before;
    r.limited = st.snapshots_budget_limited - limited_before;
    r.max_bytes = st.max_snapshot_bytes;
    return r;
}

TEST(SnapshotBudget, ABurstAllowanceLetsAJoinThroughAndHoldsTheMeanToTheBudget) {
    for (const std::uint64_t seed : {3u, 4u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        // The 14-byte header and a few changed players: below what the moving players take range-coded
        // (about 35 bytes a snapshot), so the rate binds once the starting allowance is spent.
        constexpr int kBudget = 30;
        const BudgetRun capped = run_with(kBudget, 0, seed);
        const BudgetRun burst = run_with(kBudget, 4 * kBudget, seed);
        ASSERT_GT(capped.snapshots, 50u);
        ASSERT_GT(burst.snapshots, 50u);
        // Held to the budget (priced in the bit-packed codec's bits), the join's snapshots are cut; with the
        // allowance they go out whole, and no snapshot takes more than the allowance holds.
        EXPECT_GT(burst.first_bytes, capped.max_bytes);
        EXPECT_LE(capped.max_bytes, static_cast<std::size_t>(kBudget));
        EXPECT_LE(burst.max_bytes, static_cast<std::size_t>(4 * kBudget));
        EXPECT_GT(capped.left_out, 0u);
        // The allowance is spent in real bytes, so the mean comes to the budget and stays within it (plus the
        // allowance it started with and one overshoot of the pick that always goes).
        EXPECT_LE(burst.bytes, burst.snapshots * kBudget + 5 * kBudget);
        EXPECT_GT(burst.bytes, capped.bytes);
        EXPECT_GT(burst.limited, 0u);
    }
}

TEST(SnapshotBudget, ARangeCodedServerPricesTheBudgetInCodedBits) {
    // The planner prices entities in bit-packed bits; a range-coded list of players that all move alike takes
    // far fewer, and the sender learns by how much: under the same budget it leaves fewer entities out, and
    // its snapshots still keep to it.
    for (const std::uint64_t seed : {3u, 4u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        constexpr int kBudget = 38;  // the header and the own player take about 28 bytes
        const BudgetRun packed = run_with(kBudget, 0, seed, false, 3);
        const BudgetRun coded = run_with(kBudget, 0, seed, true, 3);
        ASSERT_GT(packed.left_out, 0u);
        EXPECT_LT(coded.left_out * 2, packed.left_out);
        EXPECT_LE(coded.max_bytes, static_cast<std::size_t>(kBudget));
    }
}

TEST(SnapshotBudget, ThePreviousCodecIsMeasuredOnlyWhenAsked) {
    for (const bool measure : {false, true}) {
        cs::ServerConfig sc;
        sc.snapshots.measure_previous_codec = measure;
        toy::Match<> m(9, {}, sc);
        m.connect_client();
        ASSERT_TRUE(m.run_until_playing());
        m.run(Micros{500'000});
        const auto& st = m.server->client_stats(0);
        ASSERT_GT(st.snapshots_sent, 5u);
        if (measure)
            EXPECT_GT(st.snapshot_unpredicted_bytes_total, st.snapshots_sent * 10) << "a header's worth each";
        else
            EXPECT_EQ(st.snapshot_unpredicted_bytes_total, 0u);
    }
}

}  // namespace
