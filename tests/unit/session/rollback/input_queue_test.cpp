// InputQueue (src/session/rollback): confirmed bits in frame order, bounded by the frames still needed, used
// bits for misprediction checks, neutral after a disconnect.
#include "session/rollback/input_queue.hpp"

#include <gtest/gtest.h>

namespace {

using rwd::rollback::Frame;
using rwd::rollback::InputBits;
using rwd::rollback::kNullFrame;
using rwd::rollback::detail::InputQueue;

InputBits bits_of(std::uint8_t v) {
    InputBits b;
    b.size = 1;
    b.bytes[0] = v;
    return b;
}

TEST(RollbackInputQueue, AcceptsOnlyTheNextFrame) {
    InputQueue q;
    EXPECT_EQ(q.last_input(), nullptr);
    EXPECT_FALSE(q.push(1, bits_of(1), kNullFrame));  // a gap
    EXPECT_TRUE(q.push(0, bits_of(7), kNullFrame));
    EXPECT_FALSE(q.push(0, bits_of(8), kNullFrame));  // a duplicate
    EXPECT_EQ(q.last_confirmed(), 0);
    ASSERT_TRUE(q.stored(0));
    EXPECT_EQ(q.confirmed(0), bits_of(7));
    ASSERT_NE(q.last_input(), nullptr);
    EXPECT_EQ(*q.last_input(), bits_of(7));
    EXPECT_TRUE(q.known(0));
    EXPECT_FALSE(q.known(1));
}

TEST(RollbackInputQueue, RefusesToOverwriteAFrameStillNeeded) {
    InputQueue q;
    for (Frame f = 0; f < InputQueue::kCapacity; ++f) ASSERT_TRUE(q.push(f, bits_of(1), 0));
    EXPECT_FALSE(q.push(InputQueue::kCapacity, bits_of(2), 0));  // would overwrite frame 0, still needed
    EXPECT_TRUE(q.push(InputQueue::kCapacity, bits_of(2), 1));
    EXPECT_FALSE(q.stored(0));
    EXPECT_TRUE(q.stored(1));
}

TEST(RollbackInputQueue, UsedBitsAreKeptPerFrameAndUnknownStaysUnknown) {
    InputQueue q;
    const InputBits guess = bits_of(3);
    q.set_used(5, &guess);
    ASSERT_NE(q.used(5), nullptr);
    EXPECT_EQ(*q.used(5), guess);
    EXPECT_EQ(q.used(5 + InputQueue::kCapacity), nullptr);  // same slot, another frame
    q.set_used(5, nullptr);                                 // a guess without canonical bits
    EXPECT_EQ(q.used(5), nullptr);
    EXPECT_EQ(q.used(-1), nullptr);
}

TEST(RollbackInputQueue, DisconnectMakesLaterFramesNeutralAndOnlyMovesEarlier) {
    InputQueue q;
    for (Frame f = 0; f <= 10; ++f) ASSERT_TRUE(q.push(f, bits_of(1), kNullFrame));
    EXPECT_TRUE(q.disconnect(8));
    EXPECT_FALSE(q.disconnect(9));  // later than known: ignored
    EXPECT_TRUE(q.disconnect(6));
    EXPECT_EQ(q.disconnect_frame(), 6);
    EXPECT_FALSE(q.neutral(6));
    EXPECT_TRUE(q.neutral(7));
    EXPECT_TRUE(q.known(1000));
}

}  // namespace
