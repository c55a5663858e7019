// SampleRuns: the lab's run-length samples give distribution()'s figures for the same samples.
#include "sample_runs.hpp"
#include "stats_util.hpp"

#include <rewind/core/rng.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace lab {
namespace {

TEST(SampleRuns, MatchesTheSampleBySampleDistribution) {
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        rwd::Rng rng(seed, 3);
        SampleRuns runs;
        std::vector<double> all;
        const std::uint32_t n = 1 + rng.uniform(3000);
        const std::uint32_t distinct = 1 + rng.uniform(40);
        double value = 0.0;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (i == 0 || rng.uniform(4) == 0) value = static_cast<double>(rng.uniform(distinct)) * 16.67;
            runs.add(value);
            all.push_back(value);
        }
        const Dist want = distribution(all);
        const Dist got = runs.distribution();
        SCOPED_TRACE(testing::Message() << "seed " << seed);
        EXPECT_EQ(runs.count(), all.size());
        EXPECT_EQ(got.count, want.count);
        EXPECT_EQ(got.median, want.median);
        EXPECT_EQ(got.p95, want.p95);
        EXPECT_EQ(got.p99, want.p99);
        EXPECT_EQ(got.max, want.max);
        EXPECT_NEAR(got.mean, want.mean, 1e-9 * (1.0 + want.mean));
    }
}

TEST(SampleRuns, EmptyIsAllZero) {
    const Dist d = SampleRuns{}.distribution();
    EXPECT_EQ(d.count, 0u);
    EXPECT_EQ(d.max, 0.0);
    EXPECT_EQ(d.median, 0.0);
}

TEST(SampleRuns, OneRunOfManySamples) {
    SampleRuns r;
    for (int i = 0; i < 1000; ++i) r.add(2.5);
    r.add(7.0);
    const Dist d = r.distribution();
    EXPECT_EQ(d.count, 1001u);
    EXPECT_EQ(d.median, 2.5);
    EXPECT_EQ(d.p99, 2.5);
    EXPECT_EQ(d.max, 7.0);
}

}  // namespace
}  // namespace lab
