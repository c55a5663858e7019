// Integer math: isqrt is exact, the sine table tracks sin() closely, atan2_angle inverts it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstdint>

#include "arena/fixed_math.hpp"

namespace arena {
namespace {

RC_GTEST_PROP(FixedMath, IsqrtIsFloorOfSqrt, (std::uint64_t v)) {
    const std::uint64_t r = isqrt(v);
    RC_ASSERT(r <= 0xFFFFFFFFull);
    RC_ASSERT(r * r <= v);
    const std::uint64_t n = r + 1;
    RC_ASSERT(n > 0xFFFFFFFFull || n * n > v);
}

TEST(FixedMath, IsqrtEdges) {
    EXPECT_EQ(isqrt(0), 0u);
    EXPECT_EQ(isqrt(1), 1u);
    EXPECT_EQ(isqrt(15), 3u);
    EXPECT_EQ(isqrt(16), 4u);
    EXPECT_EQ(isqrt(~std::uint64_t{0}), 0xFFFFFFFFull);
    EXPECT_EQ(length_of(3, 4), 5);
}

TEST(FixedMath, SineTableMatchesSinEverywhere) {
    for (std::uint32_t a = 0; a < 65536; a += 7) {
        const double rad = a * 2.0 * 3.14159265358979323846 / 65536.0;
        const auto angle = static_cast<std::uint16_t>(a);
        // Table quantization (1/16384 turn) bounds the error by about 2^14 * 2*pi/16384/2 ~ 3.2 units.
        EXPECT_NEAR(sin_q14(angle), std::sin(rad) * kTrigOne, 4.0) << a;
        EXPECT_NEAR(cos_q14(angle), std::cos(rad) * kTrigOne, 4.0) << a;
    }
    EXPECT_EQ(sin_q14(0), 0);
    EXPECT_EQ(sin_q14(16384), kTrigOne);
    EXPECT_EQ(cos_q14(32768), -kTrigOne);
    EXPECT_EQ(sin_q14(49152), -kTrigOne);
}

TEST(FixedMath, Atan2InvertsTheTable) {
    for (std::uint32_t a = 0; a < 65536; a += 4) {
        const auto angle = static_cast<std::uint16_t>(a);
        const std::uint16_t back = atan2_angle(sin_q14(angle) * 1000, cos_q14(angle) * 1000);
        EXPECT_LE(std::abs(angle_delta(back, angle)), 8) << a;
    }
    EXPECT_EQ(atan2_angle(0, 0), 0);
    EXPECT_EQ(atan2_angle(0, 5), 0);
    EXPECT_EQ(atan2_angle(5, 0), 16384);
    EXPECT_EQ(atan2_angle(0, -5), 32768);
    EXPECT_EQ(atan2_angle(-5, 0), 49152);
    EXPECT_EQ(atan2_angle(7, 7), 8192);
}

TEST(FixedMath, AngleDeltaTakesTheShortWay) {
    EXPECT_EQ(angle_delta(10, 65530), 16);
    EXPECT_EQ(angle_delta(65530, 10), -16);
    EXPECT_EQ(angle_delta(32768, 0), -32768);
}

}  // namespace
}  // namespace arena
