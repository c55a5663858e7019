// Tests for SnapshotWindow: storage by sequence, eviction, the 16-bit wrap, and the acknowledged baseline.
#include <rewind/sync/snapshot_window.hpp>

#include <gtest/gtest.h>

#include <cstdint>

namespace rwd::sync {
namespace {

using Window = SnapshotWindow<int>;

void push(Window& w, std::uint16_t seq, std::uint32_t tick) {
    w.push(seq, Tick{tick}).push_back(static_cast<int>(tick));
}

TEST(SnapshotWindow, StoresAndFindsBySequenceAndTick) {
    Window w(32);
    for (std::uint16_t s = 0; s < 10; ++s) push(w, s, 100u + 2u * s);
    ASSERT_NE(w.find(3), nullptr);
    EXPECT_EQ(w.find(3)->tick, Tick{106});
    EXPECT_EQ(w.find(3)->entities.front(), 106);
    ASSERT_NE(w.find_tick(Tick{118}), nullptr);
    EXPECT_EQ(w.find_tick(Tick{118})->sequence, 9);
    EXPECT_EQ(w.find_tick(Tick{107}), nullptr);
    EXPECT_EQ(w.find(10), nullptr);
}

TEST(SnapshotWindow, FirstAfterIsTheEarliestLaterSnapshotStillHeld) {
    Window w(4);
    for (std::uint16_t s = 0; s < 6; ++s) push(w, s, 100u + 2u * s);  // ticks 100..110; 104..110 held
    ASSERT_NE(w.first_after(Tick{105}), nullptr);
    EXPECT_EQ(w.first_after(Tick{105})->tick, Tick{106});
    EXPECT_EQ(w.first_after(Tick{106})->tick, Tick{108});  // strictly later
    EXPECT_EQ(w.first_after(Tick{90})->tick, Tick{104});   // the oldest held, not an evicted one
    EXPECT_EQ(w.first_after(Tick{110}), nullptr);          // not sent yet
    push(w, 6, 109);                                       // a resent older tick still counts
    EXPECT_EQ(w.first_after(Tick{108})->tick, Tick{109});
}

TEST(SnapshotWindow, EvictsBeyondCapacityEvenWhenSlotsAreMore) {
    Window w(20);  // 32 slots, 20 kept
    for (std::uint16_t s = 0; s < 50; ++s) push(w, s, s);
    EXPECT_EQ(w.find(29), nullptr);  // 49 - 29 = 20: too old
    EXPECT_NE(w.find(30), nullptr);
    EXPECT_EQ(w.find_tick(Tick{29}), nullptr);
    EXPECT_NE(w.find_tick(Tick{30}), nullptr);
}

TEST(SnapshotWindow, SurvivesTheSixteenBitWrap) {
    Window w(32);
    for (std::uint32_t i = 0; i < 70; ++i) push(w, static_cast<std::uint16_t>(65500u + i), 1000u + i);
    const std::uint16_t newest = static_cast<std::uint16_t>(65500u + 69u);
    EXPECT_EQ(w.newest_sequence(), newest);
    for (std::uint32_t age = 0; age < 32; ++age) {
        const auto* e = w.find(static_cast<std::uint16_t>(newest - age));
        ASSERT_NE(e, nullptr) << age;
        EXPECT_EQ(e->tick, Tick{1069u - age});
    }
    EXPECT_EQ(w.find(static_cast<std::uint16_t>(newest - 32)), nullptr);
}

TEST(SnapshotWindow, JumpAheadDropsEverythingPassed) {
    Window w(8);
    for (std::uint16_t s = 0; s < 8; ++s) push(w, s, s);
    push(w, 1000, 1000);
    for (std::uint16_t s = 0; s < 8; ++s) EXPECT_EQ(w.find(s), nullptr);
    EXPECT_NE(w.find(1000), nullptr);
}

TEST(SnapshotWindow, BaselineIsTheNewestAckStillHeld) {
    Window w(4);
    EXPECT_EQ(w.baseline(), nullptr);  // nothing acknowledged
    for (std::uint16_t s = 0; s < 4; ++s) push(w, s, 10u * s);
    EXPECT_TRUE(w.ack(Tick{10}));
    ASSERT_NE(w.baseline(), nullptr);
    EXPECT_EQ(w.baseline()->sequence, 1);
    EXPECT_FALSE(w.ack(Tick{0}));  // older acks (reordered packets) never move it back
    EXPECT_EQ(w.baseline()->sequence, 1);
    EXPECT_TRUE(w.ack(Tick{30}));
    EXPECT_EQ(w.baseline()->sequence, 3);
    // Too old: four newer snapshots push the acknowledged one out.
    for (std::uint16_t s = 4; s < 8; ++s) push(w, s, 10u * s);
    EXPECT_EQ(w.baseline(), nullptr);
}

TEST(SnapshotWindow, UnknownOrFutureAcksGiveNoBaseline) {
    Window w(8);
    for (std::uint16_t s = 0; s < 4; ++s) push(w, s, 10u * s);
    EXPECT_TRUE(w.ack(Tick{15}));  // a tick never sent (a lost or forged ack)
    EXPECT_EQ(w.baseline(), nullptr);
    EXPECT_FALSE(w.ack(Tick{1'000'000}));  // beyond anything sent: ignored, cannot pin the baseline
    EXPECT_TRUE(w.ack(Tick{20}));
    ASSERT_NE(w.baseline(), nullptr);
    EXPECT_EQ(w.baseline()->tick, Tick{20});
}

TEST(SnapshotWindow, AnAckBeforeAnySnapshotIsIgnored) {
    // A bogus future ack in the gap before the first snapshot must not pin the baseline either.
    Window w(8);
    EXPECT_FALSE(w.ack(Tick{1'000'000}));
    EXPECT_FALSE(w.has_ack());
    for (std::uint16_t s = 0; s < 4; ++s) push(w, s, 10u * s);
    EXPECT_TRUE(w.ack(Tick{20}));
    ASSERT_NE(w.baseline(), nullptr);
    EXPECT_EQ(w.baseline()->tick, Tick{20});
}

TEST(SnapshotWindow, ResetForgetsSnapshotsAndAck) {
    Window w(8);
    push(w, 1, 1);
    EXPECT_TRUE(w.ack(Tick{1}));
    w.reset();
    EXPECT_EQ(w.find(1), nullptr);
    EXPECT_FALSE(w.has_ack());
    EXPECT_EQ(w.baseline(), nullptr);
}

TEST(SnapshotWindow, CapacityIsClamped) {
    EXPECT_EQ(Window(0).capacity(), 1u);
    EXPECT_EQ(Window(1000).capacity(), kMaxSnapshotWindow);
}

}  // namespace
}  // namespace rwd::sync
