// Tests for InterestGrid: queries match brute force, bounds adapt, huge worlds cap the cell count.
#include <rewind/core/rng.hpp>
#include <rewind/sync/interest_grid.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace rwd::sync {
namespace {

std::vector<std::uint32_t> brute(const std::vector<GridPoint>& pts, GridPoint c, std::int64_t r) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < pts.size(); ++i)
        if (distance_squared(pts[i], c) <= static_cast<std::uint64_t>(r * r)) out.push_back(i);
    return out;
}

TEST(InterestGridConfig, ValidatesFields) {
    EXPECT_TRUE(InterestGridConfig{}.validate().ok());
    EXPECT_FALSE((InterestGridConfig{0, 256}).validate().ok());
    EXPECT_FALSE((InterestGridConfig{10, 0}).validate().ok());
}

TEST(InterestGrid, FindsExactlyThePointsInsideTheCircle) {
    const std::vector<GridPoint> pts{{0, 0}, {100, 0}, {101, 0}, {0, -100}, {70, 71}, {-5000, 9000}};
    InterestGrid g(InterestGridConfig{64, 256});
    g.build(pts);
    std::vector<std::uint32_t> out;
    EXPECT_EQ(g.query({0, 0}, 100, out), 4u);
    EXPECT_EQ(
        out, (std::vector<std::uint32_t>{0, 1, 3, 4}));  // the edge counts; (70, 71) is 99.7 away, 101 is not
}

TEST(InterestGrid, EmptyAndNegativeRadius) {
    InterestGrid g;
    std::vector<std::uint32_t> out{1, 2};
    g.build({});
    EXPECT_EQ(g.query({0, 0}, 1000, out), 0u);
    EXPECT_TRUE(out.empty());
    const std::vector<GridPoint> pts{{0, 0}};
    g.build(pts);
    EXPECT_EQ(g.query({0, 0}, -1, out), 0u);
}

TEST(InterestGrid, HugeBoundsGrowTheCellsInsteadOfTheirCount) {
    const std::vector<GridPoint> pts{{INT32_MIN, INT32_MIN}, {INT32_MAX, INT32_MAX}, {0, 0}};
    InterestGrid g(InterestGridConfig{1, 16});
    g.build(pts);
    EXPECT_LE(g.cells_x(), 16);
    EXPECT_LE(g.cells_y(), 16);
    std::vector<std::uint32_t> out;
    g.query({0, 0}, std::int64_t{1} << 40, out);  // a radius beyond any distance finds everything
    EXPECT_EQ(out.size(), 3u);
}

RC_GTEST_PROP(InterestGridProp, MatchesBruteForce, (std::uint64_t seed)) {
    Rng rng(seed);
    const int n = static_cast<int>(rng.uniform(300));
    const std::int32_t span = static_cast<std::int32_t>(1 + rng.uniform(200000));
    std::vector<GridPoint> pts;
    for (int i = 0; i < n; ++i) pts.push_back({rng.range(-span, span), rng.range(-span, span)});
    InterestGrid g(InterestGridConfig{static_cast<std::int32_t>(1 + rng.uniform(50000)),
                                      static_cast<int>(1 + rng.uniform(300))});
    g.build(pts);
    std::vector<std::uint32_t> out;
    for (int q = 0; q < 10; ++q) {
        const GridPoint c{rng.range(-2 * span, 2 * span), rng.range(-2 * span, 2 * span)};
        const std::int64_t r = rng.uniform(static_cast<std::uint32_t>(span));
        g.query(c, r, out);
        RC_ASSERT(out == brute(pts, c, r));
    }
}

}  // namespace
}  // namespace rwd::sync
