// Tests for Micros: construction, conversions, arithmetic, comparison and the _us/_ms/_s literals.
#include <rewind/core/time.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace rwd {
namespace {

using namespace rwd::literals;

TEST(Micros, LiteralsAndFactories) {
    static_assert((5_ms).count == 5000);
    EXPECT_EQ((250_us).count, 250);
    EXPECT_EQ((5_ms).count, 5000);
    EXPECT_EQ((2_s).count, 2'000'000);
    EXPECT_EQ(Micros::from_millis(16), 16_ms);
    EXPECT_EQ(Micros::from_seconds(1.5), 1500_ms);
    EXPECT_EQ(Micros::from_seconds(0.0000019), 1_us) << "rounds toward zero";
    EXPECT_EQ(Micros::from_seconds(-0.0000019), Micros{-1});
    EXPECT_EQ(Micros{}.count, 0);
}

TEST(Micros, Conversions) {
    EXPECT_DOUBLE_EQ((1500_ms).seconds(), 1.5);
    EXPECT_DOUBLE_EQ((2500_us).millis(), 2.5);
    EXPECT_DOUBLE_EQ(Micros{-250}.millis(), -0.25);
}

TEST(Micros, Arithmetic) {
    Micros t = 10_ms;
    t += 500_us;
    EXPECT_EQ(t, 10500_us);
    t -= 1_ms;
    EXPECT_EQ(t, 9500_us);
    EXPECT_EQ(1_s + 1_ms, 1001_ms);
    EXPECT_EQ(1_s - 1_ms, 999_ms);
    EXPECT_EQ(3_ms - 5_ms, Micros{-2000}) << "spans may be negative";
    EXPECT_EQ(4_ms * 3, 12_ms);
    EXPECT_EQ(3 * 4_ms, 12_ms);
    EXPECT_EQ(10_ms / 4, 2500_us);
    EXPECT_EQ(1_s / 16_ms, 62);
    EXPECT_EQ(Micros{7} / Micros{2}, 3);
}

TEST(Micros, Ordering) {
    EXPECT_LT(1_ms, 1001_us);
    EXPECT_GT(1_s, 999_ms);
    EXPECT_LE(1_ms, 1000_us);
    EXPECT_GE(1_ms, 1000_us);
    EXPECT_NE(1_ms, 1001_us);
    EXPECT_LT(Micros{-1}, Micros{});
}

RC_GTEST_PROP(Micros, AddSubtractRoundTrip, (std::int32_t a, std::int32_t b)) {
    const Micros x{a};
    const Micros y{b};
    RC_ASSERT((x + y) - y == x);
    RC_ASSERT((x + y) == (y + x));
    RC_ASSERT((x < y) == (a < b));
}

}  // namespace
}  // namespace rwd
