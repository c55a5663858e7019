// Tests for PriorityAccumulator and select_within_budget: accumulation, reset, forgetting, forced-first
// packing.
#include <rewind/sync/priority_accumulator.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace rwd::sync {
namespace {

TEST(PriorityConfig, ValidatesWeights) {
    EXPECT_TRUE(PriorityConfig{}.validate().ok());
    EXPECT_FALSE((PriorityConfig{1.0f, 0.0f}).validate().ok());  // far 0 would let far entities starve
    EXPECT_FALSE((PriorityConfig{1.0f, 2.0f}).validate().ok());
    EXPECT_FALSE((PriorityConfig{0.0f, 0.0f}).validate().ok());
}

TEST(DistanceWeight, FallsLinearlyFromNearToFar) {
    const PriorityConfig c{1.0f, 0.25f};
    EXPECT_FLOAT_EQ(distance_weight(c, 0, 100), 1.0f);
    EXPECT_FLOAT_EQ(distance_weight(c, 50 * 50, 100), 0.625f);
    EXPECT_FLOAT_EQ(distance_weight(c, 100 * 100, 100), 0.25f);
    EXPECT_FLOAT_EQ(distance_weight(c, 500 * 500, 100), 0.25f);
    EXPECT_FLOAT_EQ(distance_weight(c, 500 * 500, 0), 1.0f);  // no area of interest
}

TEST(PriorityAccumulator, AccumulatesResetsAndForgets) {
    PriorityAccumulator p;
    const std::vector<std::uint32_t> ids{1, 5, 9};
    const std::vector<float> w{1.0f, 0.5f, 0.25f};
    p.accumulate(ids, w);
    p.accumulate(ids, w);
    EXPECT_FLOAT_EQ(p.priority(5), 1.0f);
    p.reset(5);
    EXPECT_FLOAT_EQ(p.priority(5), 0.0f);
    EXPECT_FLOAT_EQ(p.priority(9), 0.5f);
    const std::vector<std::uint32_t> fewer{1, 9};
    p.accumulate(fewer, std::vector<float>{1.0f, 1.0f});
    EXPECT_EQ(p.size(), 2u);
    EXPECT_FLOAT_EQ(p.priority(5), 0.0f);  // left relevance: forgotten
    EXPECT_FLOAT_EQ(p.priority(1), 3.0f);
}

TEST(PriorityAccumulator, ByPositionIsTheIdAtThatPlaceOfTheLastAccumulate) {
    PriorityAccumulator p;
    const std::vector<std::uint32_t> ids{2, 7, 40};
    p.accumulate(ids, std::vector<float>{1.0f, 2.0f, 3.0f});
    p.accumulate(ids, std::vector<float>{1.0f, 2.0f, 3.0f});
    for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_FLOAT_EQ(p.priority_at(i), p.priority(ids[i])) << i;
    p.reset_at(1);
    EXPECT_FLOAT_EQ(p.priority(7), 0.0f);
    EXPECT_FLOAT_EQ(p.priority(2), 2.0f);
    EXPECT_FLOAT_EQ(p.priority(40), 6.0f);
    // A smaller set renumbers: position 1 is now id 40.
    p.accumulate(std::vector<std::uint32_t>{2, 40}, std::vector<float>{1.0f, 1.0f});
    EXPECT_FLOAT_EQ(p.priority_at(1), 7.0f);
    p.reset_at(0);
    EXPECT_FLOAT_EQ(p.priority(2), 0.0f);
}

TEST(SelectWithinBudget, ForcedFirstThenPriorityWhileItFits) {
    std::vector<PriorityCandidate> c{
        {0, 5.0f, 40, false}, {1, 1.0f, 10, true}, {2, 4.0f, 100, false}, {3, 3.0f, 30, false}};
    const std::size_t n = select_within_budget(c, 80);
    ASSERT_EQ(n, 3u);
    EXPECT_EQ(c[0].index, 1u);  // forced
    EXPECT_EQ(c[1].index, 0u);  // highest priority
    EXPECT_EQ(c[2].index, 3u);  // 2 does not fit (10 + 40 + 100 > 80), 3 does
}

TEST(SelectWithinBudget, TheTopCandidateGoesEvenOverBudget) {
    std::vector<PriorityCandidate> c{{0, 1.0f, 500, false}, {1, 2.0f, 400, false}};
    EXPECT_EQ(select_within_budget(c, 0), 1u);
    EXPECT_EQ(c[0].index, 1u);
    std::vector<PriorityCandidate> all{{0, 1.0f, 500, false}, {1, 2.0f, 400, false}};
    EXPECT_EQ(select_within_budget(all, -1), 2u);  // no budget
}

}  // namespace
}  // namespace rwd::sync
