// Tests for Rng: PCG32 reference outputs, determinism, unbiased bounded draws and their edge cases.
#include <rewind/core/rng.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace rwd {
namespace {

static_assert(std::is_trivially_copyable_v<Rng>);
static_assert(std::has_unique_object_representations_v<Rng>, "games checksum Rng inside their State");
static_assert(sizeof(Rng) == 16);

TEST(Rng, MatchesPcg32ReferenceDemo) {
    // pcg32-demo (pcg-c-basic): pcg32_srandom_r(&rng, 42u, 54u), first six pcg32_random_r outputs.
    Rng rng(42u, 54u);
    const std::array<std::uint32_t, 6> expected = {0xa15c02b7u, 0x7b47f409u, 0xba1d3330u,
                                                   0x83d2f293u, 0xbfa4784bu, 0xcbed606eu};
    for (std::uint32_t want : expected) EXPECT_EQ(rng.next_u32(), want);
}

TEST(Rng, WorksAtCompileTime) {
    constexpr std::uint32_t first = [] {
        Rng r(42u, 54u);
        return r.next_u32();
    }();
    static_assert(first == 0xa15c02b7u);
    EXPECT_EQ(first, 0xa15c02b7u);
}

TEST(Rng, NextU64IsTwoDrawsHighFirst) {
    Rng a(42u, 54u);
    Rng b(42u, 54u);
    const std::uint64_t hi = b.next_u32();
    const std::uint64_t lo = b.next_u32();
    EXPECT_EQ(a.next_u64(), (hi << 32) | lo);
    EXPECT_EQ(a.next_u64(), 0xba1d333083d2f293ull);
    EXPECT_EQ(b.next_u64(), 0xba1d333083d2f293ull);
    EXPECT_EQ(a, b);
}

TEST(Rng, SameSeedSameSequenceDifferentSeedOrStreamDiffers) {
    Rng a(1234, 7);
    Rng b(1234, 7);
    Rng c(1235, 7);
    Rng d(1234, 8);
    EXPECT_EQ(a, b);
    EXPECT_FALSE(a == c);
    EXPECT_FALSE(a == d);
    int same_c = 0;
    int same_d = 0;
    for (int i = 0; i < 1000; ++i) {
        const std::uint32_t x = a.next_u32();
        EXPECT_EQ(x, b.next_u32());
        same_c += x == c.next_u32();
        same_d += x == d.next_u32();
    }
    EXPECT_LT(same_c, 3);
    EXPECT_LT(same_d, 3);
}

TEST(Rng, CopyContinuesIdentically) {
    Rng a(99);
    for (int i = 0; i < 17; ++i) (void)a.next_u32();
    Rng saved = a;  // what a rollback snapshot does
    std::array<std::uint32_t, 32> first{};
    for (auto& x : first) x = a.next_u32();
    EXPECT_FALSE(saved == a);
    Rng bytes(0);
    std::memcpy(&bytes, &saved, sizeof(Rng));
    for (std::uint32_t x : first) EXPECT_EQ(bytes.next_u32(), x);
    EXPECT_EQ(bytes, a);
}

TEST(Rng, UniformBoundZeroAndOne) {
    Rng r(5);
    const Rng before = r;
    EXPECT_EQ(r.uniform(0), 0u);
    EXPECT_EQ(r, before) << "bound 0 consumes nothing";
    for (int i = 0; i < 100; ++i) EXPECT_EQ(r.uniform(1), 0u);
}

RC_GTEST_PROP(Rng, UniformStaysBelowBound, (std::uint64_t seed, std::uint32_t bound)) {
    RC_PRE(bound > 0u);
    Rng r(seed);
    for (int i = 0; i < 50; ++i) RC_ASSERT(r.uniform(bound) < bound);
}

RC_GTEST_PROP(Rng, RangeIsInclusiveAndOrderFree, (std::uint64_t seed, std::int32_t lo, std::int32_t hi)) {
    Rng r(seed);
    const std::int32_t mn = std::min(lo, hi);
    const std::int32_t mx = std::max(lo, hi);
    for (int i = 0; i < 50; ++i) {
        const std::int32_t v = r.range(lo, hi);
        RC_ASSERT(v >= mn);
        RC_ASSERT(v <= mx);
    }
}

TEST(Rng, RangeHitsBothEndsAndFullRangeWorks) {
    Rng r(2024);
    bool lo_seen = false;
    bool hi_seen = false;
    for (int i = 0; i < 1000; ++i) {
        const std::int32_t v = r.range(-3, 3);
        lo_seen |= v == -3;
        hi_seen |= v == 3;
    }
    EXPECT_TRUE(lo_seen);
    EXPECT_TRUE(hi_seen);
    EXPECT_EQ(r.range(7, 7), 7);
    bool negative = false;
    bool positive = false;
    for (int i = 0; i < 200; ++i) {
        const std::int32_t v = r.range(INT32_MIN, INT32_MAX);
        negative |= v < 0;
        positive |= v > 0;
    }
    EXPECT_TRUE(negative);
    EXPECT_TRUE(positive);
}

TEST(Rng, UniformIsFlatChiSquare) {
    // 10 buckets x 100000 draws: chi-square with 9 degrees of freedom; 27.88 is the 0.999 quantile.
    constexpr int kBuckets = 10;
    constexpr int kDraws = 100000;
    for (std::uint64_t seed : {1ull, 42ull, 0xdeadbeefull}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        Rng r(seed);
        std::array<int, kBuckets> counts{};
        for (int i = 0; i < kDraws; ++i) ++counts[r.uniform(kBuckets)];
        double chi2 = 0;
        const double expected = kDraws / double(kBuckets);
        for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
        EXPECT_LT(chi2, 27.88);
    }
}

TEST(Rng, UniformHasNoModuloBiasForHugeBound) {
    // bound = 3 * 2^30: plain "next % bound" would put half again as many draws below 2^30 as in each other
    // third; an unbiased draw puts one third in each.
    const std::uint32_t bound = 3u << 30;
    Rng r(77);
    std::array<int, 3> thirds{};
    constexpr int kDraws = 60000;
    for (int i = 0; i < kDraws; ++i) ++thirds[r.uniform(bound) >> 30];
    for (int c : thirds) EXPECT_NEAR(c, kDraws / 3, kDraws / 100);
}

TEST(Rng, ChanceMatchesProbability) {
    Rng r(31337);
    int hits = 0;
    constexpr int kDraws = 100000;
    for (int i = 0; i < kDraws; ++i) hits += r.chance(1, 4);
    EXPECT_NEAR(hits, kDraws / 4, 800);  // sd ~137
    const Rng before = r;
    EXPECT_FALSE(r.chance(5, 0));
    EXPECT_EQ(r, before);
    for (int i = 0; i < 100; ++i) {
        EXPECT_FALSE(r.chance(0, 10));
        EXPECT_TRUE(r.chance(10, 10));
        EXPECT_TRUE(r.chance(11, 10));
    }
}

TEST(Rng, NextDoubleInUnitIntervalWithSaneMean) {
    Rng r(8);
    double sum = 0;
    double mn = 1;
    double mx = 0;
    constexpr int kDraws = 100000;
    for (int i = 0; i < kDraws; ++i) {
        const double d = r.next_double();
        ASSERT_GE(d, 0.0);
        ASSERT_LT(d, 1.0);
        sum += d;
        mn = std::min(mn, d);
        mx = std::max(mx, d);
    }
    EXPECT_NEAR(sum / kDraws, 0.5, 0.005);  // sd of the mean ~0.0009
    EXPECT_LT(mn, 0.001);
    EXPECT_GT(mx, 0.999);
}

TEST(Rng, BitsAreBalanced) {
    Rng r(3);
    std::array<int, 32> ones{};
    constexpr int kDraws = 20000;
    for (int i = 0; i < kDraws; ++i) {
        const std::uint32_t x = r.next_u32();
        for (int b = 0; b < 32; ++b) ones[b] += (x >> b) & 1u;
    }
    for (int b = 0; b < 32; ++b) EXPECT_NEAR(ones[b], kDraws / 2, 500) << "bit " << b;  // sd ~71
}

}  // namespace
}  // namespace rwd
