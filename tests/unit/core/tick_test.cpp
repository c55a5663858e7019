// Tests for Tick and 16-bit sequence arithmetic, especially at the wrap boundary.
#include <rewind/core/sequence.hpp>
#include <rewind/core/tick.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace rwd {
namespace {

TEST(Tick, OrdersAcrossTheWrap) {
    Tick last{0xFFFFFFFFu};
    Tick first{0u};
    EXPECT_TRUE(last < first);
    EXPECT_TRUE(first > last);
    EXPECT_EQ(first - last, 1);
    EXPECT_EQ(last - first, -1);
    EXPECT_EQ(last + 1, first);
    EXPECT_EQ(first - 1, last);
    EXPECT_EQ(tick_max(last, first), first);
    EXPECT_EQ(tick_min(last, first), last);
}

TEST(Tick, IncrementWraps) {
    Tick t{0xFFFFFFFEu};
    ++t;
    EXPECT_EQ(t.value, 0xFFFFFFFFu);
    t++;
    EXPECT_EQ(t.value, 0u);
}

TEST(Tick, HalfwayIsTheLimit) {
    Tick a{0};
    Tick b{0x7FFFFFFFu};
    EXPECT_TRUE(a < b);
    EXPECT_EQ(b - a, 0x7FFFFFFF);
    Tick c{0x80000001u};
    EXPECT_TRUE(c < a);  // the short way round is backwards
}

RC_GTEST_PROP(Tick, DistanceRoundTrips, (std::uint32_t base, std::int32_t delta)) {
    RC_PRE(delta != INT32_MIN);
    Tick a{base};
    Tick b = a + delta;
    RC_ASSERT(b - a == delta);
    RC_ASSERT((delta > 0) == (a < b));
    RC_ASSERT((delta < 0) == (b < a));
}

TEST(Seq16, OrdersAcrossTheWrap) {
    EXPECT_TRUE(seq_greater(0, 65535));
    EXPECT_TRUE(seq_less(65535, 0));
    EXPECT_EQ(seq_diff(0, 65535), 1);
    EXPECT_EQ(seq_diff(65535, 0), -1);
    EXPECT_TRUE(seq_greater(100, 65500));
    EXPECT_FALSE(seq_greater(5, 5));
    EXPECT_EQ(seq_diff(32767, 0), 32767);
    EXPECT_EQ(seq_diff(32768, 0), -32768);
}

RC_GTEST_PROP(Seq16, DiffMatchesGreater, (std::uint16_t a, std::uint16_t b)) {
    RC_ASSERT(seq_greater(a, b) == (seq_diff(a, b) > 0));
}

}  // namespace
}  // namespace rwd
