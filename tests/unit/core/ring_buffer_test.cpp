// Tests for RingBuffer: FIFO order, refusing vs overwriting when full, indexing and iteration across the
// wrap.
#include <rewind/core/ring_buffer.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <deque>
#include <iterator>
#include <memory>
#include <numeric>
#include <ranges>
#include <string>

namespace rwd {
namespace {

using Ring4 = RingBuffer<int, 4>;
static_assert(std::random_access_iterator<Ring4::iterator>);
static_assert(std::random_access_iterator<Ring4::const_iterator>);
static_assert(std::ranges::random_access_range<Ring4>);
static_assert(std::is_convertible_v<Ring4::iterator, Ring4::const_iterator>);
static_assert(sizeof(Ring4) <= sizeof(int) * 4 + 2 * sizeof(std::size_t), "storage is inline");

TEST(RingBuffer, StartsEmpty) {
    Ring4 r;
    EXPECT_TRUE(r.empty());
    EXPECT_FALSE(r.full());
    EXPECT_EQ(r.size(), 0u);
    EXPECT_EQ(r.capacity(), 4u);
    EXPECT_EQ(r.begin(), r.end());
}

TEST(RingBuffer, PushBackRefusesWhenFull) {
    Ring4 r;
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(r.push_back(i));
    EXPECT_TRUE(r.full());
    EXPECT_FALSE(r.push_back(99));
    EXPECT_EQ(r.size(), 4u);
    EXPECT_EQ(r.front(), 0);
    EXPECT_EQ(r.back(), 3);
}

TEST(RingBuffer, PushOverwriteEvictsOldest) {
    Ring4 r;
    for (int i = 0; i < 4; ++i) EXPECT_FALSE(r.push_overwrite(i));
    EXPECT_TRUE(r.push_overwrite(4));
    EXPECT_TRUE(r.push_overwrite(5));
    EXPECT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0], 2);
    EXPECT_EQ(r[1], 3);
    EXPECT_EQ(r[2], 4);
    EXPECT_EQ(r[3], 5);
}

TEST(RingBuffer, FifoAcrossTheWrapWithIteration) {
    Ring4 r;
    int next_in = 0;
    int next_out = 0;
    for (int round = 0; round < 50; ++round) {
        while (r.push_back(next_in)) ++next_in;
        EXPECT_EQ(next_in - next_out, 4);
        int expect = next_out;
        for (int v : r) EXPECT_EQ(v, expect++);
        const auto& cr = r;
        EXPECT_TRUE(std::equal(cr.begin(), cr.end(), r.begin()));
        EXPECT_EQ(std::distance(cr.begin(), cr.end()), 4);
        const int take = 1 + round % 4;
        for (int k = 0; k < take; ++k) {
            EXPECT_EQ(r.front(), next_out++);
            r.pop_front();
        }
    }
}

TEST(RingBuffer, PopBackAndClear) {
    Ring4 r;
    for (int i = 0; i < 6; ++i) r.push_overwrite(i);
    r.pop_back();
    EXPECT_EQ(r.back(), 4);
    EXPECT_EQ(r.size(), 3u);
    r.clear();
    EXPECT_TRUE(r.empty());
    EXPECT_TRUE(r.push_back(42));
    EXPECT_EQ(r.front(), 42);
}

TEST(RingBuffer, MutableIterationAndRandomAccess) {
    RingBuffer<int, 5> r;
    for (int i = 0; i < 7; ++i) r.push_overwrite(i);  // holds 2..6, head in the middle of storage
    for (int& v : r) v *= 10;
    EXPECT_EQ(std::accumulate(r.begin(), r.end(), 0), 200);
    auto it = r.begin() + 3;
    EXPECT_EQ(*it, 50);
    EXPECT_EQ(it[-1], 40);
    EXPECT_EQ(r.end() - it, 2);
    EXPECT_TRUE(r.begin() < it);
    std::reverse(r.begin(), r.end());
    EXPECT_EQ(r.front(), 60);
    EXPECT_EQ(r.back(), 20);
    EXPECT_EQ(*std::ranges::max_element(r), 60);
}

TEST(RingBuffer, HoldsMoveOnlyAndNonTrivialTypes) {
    RingBuffer<std::unique_ptr<int>, 2> r;
    EXPECT_TRUE(r.push_back(std::make_unique<int>(1)));
    EXPECT_TRUE(r.push_back(std::make_unique<int>(2)));
    EXPECT_TRUE(r.push_overwrite(std::make_unique<int>(3)));
    EXPECT_EQ(*r.front(), 2);
    r.pop_front();
    EXPECT_EQ(*r.front(), 3);
    RingBuffer<std::string, 3> s;
    for (const char* w : {"a", "b", "c", "d"}) s.push_overwrite(w);
    EXPECT_EQ(s[0] + s[1] + s[2], "bcd");
}

RC_GTEST_PROP(RingBuffer, AgreesWithDequeModel, (std::vector<std::pair<std::uint8_t, int>> ops)) {
    RingBuffer<int, 7> r;
    std::deque<int> model;
    for (auto [op, v] : ops) {
        switch (op % 4) {
            case 0: {
                const bool ok = r.push_back(v);
                RC_ASSERT(ok == (model.size() < 7));
                if (ok) model.push_back(v);
                break;
            }
            case 1: {
                const bool evicted = r.push_overwrite(v);
                RC_ASSERT(evicted == (model.size() == 7));
                if (evicted) model.pop_front();
                model.push_back(v);
                break;
            }
            case 2:
                if (!model.empty()) {
                    r.pop_front();
                    model.pop_front();
                }
                break;
            default:
                if (!model.empty()) {
                    r.pop_back();
                    model.pop_back();
                }
                break;
        }
        RC_ASSERT(r.size() == model.size());
        RC_ASSERT(std::equal(r.begin(), r.end(), model.begin(), model.end()));
    }
}

}  // namespace
}  // namespace rwd
