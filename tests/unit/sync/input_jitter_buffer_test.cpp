// Tests for InputJitterBuffer: order, redundancy, duplicates, late and missing inputs, floods, rate limit,
// offsets.
#include <rewind/core/rng.hpp>
#include <rewind/sync/input_jitter_buffer.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace rwd::sync {
namespace {

using namespace rwd::literals;

/// A toy input: the tick it was made for (so tests see exactly which input was played).
struct In {
    std::uint32_t made_for = 0;
    friend bool operator==(const In&, const In&) = default;
};

/// A redundant packet like a client sends: inputs for newest, newest-1, ... newest-(count-1).
std::vector<In> packet(std::uint32_t newest, int count = 4) {
    std::vector<In> v;
    for (int i = 0; i < count; ++i) v.push_back(In{newest - static_cast<std::uint32_t>(i)});
    return v;
}

TEST(InputJitterBufferConfig, DefaultsAreValidAndBadValuesAreNamed) {
    EXPECT_TRUE(InputJitterBufferConfig{}.validate().ok());
    InputJitterBufferConfig c;
    c.buffer_ticks = 17;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.max_future_ticks = 64;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.burst_packets = 0.5;
    EXPECT_FALSE(c.validate().ok());
}

TEST(InputJitterBuffer, PlaysOneInputPerTickInOrder) {
    InputJitterBuffer<In> buf({}, Tick{100});
    // Packets arrive 2 ticks early, each with 3 redundant copies.
    for (std::uint32_t t = 100; t < 102; ++t)
        ASSERT_EQ(buf.push(Tick{t}, packet(t), 0_ms), PacketVerdict::accepted);
    for (std::uint32_t t = 100; t < 200; ++t) {
        ASSERT_EQ(buf.push(Tick{t + 2}, packet(t + 2), Micros{t * 16667}), PacketVerdict::accepted);
        const In in = buf.pop(Tick{t});
        EXPECT_EQ(in.made_for, t);
        EXPECT_FALSE(buf.last_pop_repeated());
        EXPECT_EQ(buf.last_popped_tick(), Tick{t});
    }
    EXPECT_EQ(buf.stats().missing, 0u);
    EXPECT_EQ(buf.stats().popped, 100u);
    EXPECT_EQ(buf.depth(), 2);
    // Each packet repeats 3 older inputs: some were queued, the rest already played.
    EXPECT_GT(buf.stats().redundant_inputs, 200u);
    EXPECT_EQ(buf.stats().late_inputs, 0u);
    // Copies of ticks before the first one ever played (97..99 in the first packets) are not "late".
    EXPECT_EQ(buf.stats().too_old_inputs, 6u);
    EXPECT_NEAR(buf.arrival_offset_ticks(), 2.0, 1e-3);
    EXPECT_NEAR(static_cast<double>(buf.arrival_offset().count), 33333.0, 2.0);
}

TEST(InputJitterBuffer, ReordersPacketsAndDropsDuplicates) {
    InputJitterBuffer<In> buf({}, Tick{10});
    EXPECT_EQ(buf.push(Tick{12}, packet(12, 1), 0_ms), PacketVerdict::accepted);
    EXPECT_EQ(buf.push(Tick{10}, packet(10, 1), 0_ms), PacketVerdict::accepted);
    EXPECT_EQ(buf.push(Tick{11}, packet(11, 1), 0_ms), PacketVerdict::accepted);
    EXPECT_EQ(buf.push(Tick{11}, packet(11, 1), 0_ms), PacketVerdict::accepted);  // duplicated datagram
    EXPECT_EQ(buf.stats().redundant_inputs, 1u);
    EXPECT_EQ(buf.depth(), 3);
    EXPECT_EQ(buf.pop(Tick{10}).made_for, 10u);
    EXPECT_EQ(buf.pop(Tick{11}).made_for, 11u);
    EXPECT_EQ(buf.pop(Tick{12}).made_for, 12u);
    // An already-played tick arriving again is a duplicate, not late.
    (void)buf.push(Tick{11}, packet(11, 1), 0_ms);
    EXPECT_EQ(buf.stats().redundant_inputs, 2u);
    EXPECT_EQ(buf.stats().late_inputs, 0u);
}

TEST(InputJitterBuffer, MissingInputRepeatsTheLastAndRedundancyRecoversLoss) {
    InputJitterBuffer<In> buf({}, Tick{0});
    (void)buf.push(Tick{0}, packet(0, 1), 0_ms);
    EXPECT_EQ(buf.pop(Tick{0}).made_for, 0u);
    // Tick 1's input never came: tick 0's input is repeated, counted.
    EXPECT_EQ(buf.pop(Tick{1}).made_for, 0u);
    EXPECT_TRUE(buf.last_pop_repeated());
    EXPECT_EQ(buf.stats().missing, 1u);
    // The packet for tick 2 was lost, but tick 3's packet carries it again.
    (void)buf.push(Tick{3}, packet(3), 0_ms);
    EXPECT_EQ(buf.stats().late_inputs, 1u);  // tick 1's copy: too late, counted once
    EXPECT_EQ(buf.pop(Tick{2}).made_for, 2u);
    EXPECT_EQ(buf.pop(Tick{3}).made_for, 3u);
    (void)buf.push(Tick{4}, packet(4), 0_ms);  // carries tick 1 again: still counted once
    EXPECT_EQ(buf.stats().late_inputs, 1u);
    EXPECT_EQ(buf.stats().missing, 1u);
}

TEST(InputJitterBuffer, NothingBeforeTheFirstInputPlaysTheNeutralInput) {
    InputJitterBuffer<In> buf({}, Tick{5});
    EXPECT_EQ(buf.pop(Tick{5}), In{});
    EXPECT_TRUE(buf.last_pop_repeated());
}

TEST(InputJitterBuffer, RejectsTicksTooFarInTheFuture) {
    InputJitterBuffer<In> buf({}, Tick{1000});
    EXPECT_EQ(buf.push(Tick{1000 + 33}, packet(1033), 0_ms), PacketVerdict::too_far_in_future);
    EXPECT_EQ(buf.push(Tick{0x80000000u}, packet(0x80000000u), 0_ms), PacketVerdict::too_far_in_future);
    EXPECT_EQ(buf.push(Tick{1000 + 32}, packet(1032, 1), 0_ms), PacketVerdict::accepted);
    EXPECT_EQ(buf.stats().future_rejected, 2u);
    EXPECT_EQ(buf.depth(), 1);
}

TEST(InputJitterBuffer, VeryOldTicksAreIgnored) {
    InputJitterBuffer<In> buf({}, Tick{1000});
    EXPECT_EQ(buf.push(Tick{900}, packet(900), 0_ms), PacketVerdict::accepted);
    EXPECT_EQ(buf.stats().too_old_inputs, 4u);
    EXPECT_EQ(buf.depth(), 0);
    // ... and their offset sample is clamped, not -100.
    EXPECT_EQ(buf.last_arrival_offset_ticks(), -32);
}

TEST(InputJitterBuffer, FloodGainsNothingAndIsFlagged) {
    // A client sending 4 new inputs per tick (a speed hack) still gets exactly one played per tick.
    InputJitterBuffer<In> buf({}, Tick{0});
    std::uint32_t sent = 0;
    std::uint32_t played = 0;
    for (std::uint32_t t = 0; t < 60; ++t) {
        for (int k = 0; k < 4; ++k) {
            sent += 1;
            (void)buf.push(Tick{sent}, packet(sent, 1), Micros{t * 16667});
        }
        const In in = buf.pop(Tick{t});
        EXPECT_LE(in.made_for, t);       // never an input made for a later tick
        EXPECT_GE(in.made_for, played);  // in tick order
        played = in.made_for;
        EXPECT_LE(buf.depth(), 8);
    }
    EXPECT_EQ(buf.stats().popped, 60u);
    EXPECT_GT(buf.stats().overflow_dropped + buf.stats().future_rejected + buf.stats().rate_limited, 100u);
    EXPECT_GT(buf.stats().overflow_dropped, 0u);
    EXPECT_TRUE(buf.flood_flagged());
    buf.clear_flood_flag();
    EXPECT_FALSE(buf.flood_flagged());
}

TEST(InputJitterBuffer, OverflowKeepsTheNearestTicks) {
    InputJitterBufferConfig cfg;
    cfg.max_queue = 3;
    InputJitterBuffer<In> buf(cfg, Tick{0});
    (void)buf.push(Tick{5}, packet(5, 1), 0_ms);
    (void)buf.push(Tick{7}, packet(7, 1), 0_ms);
    (void)buf.push(Tick{9}, packet(9, 1), 0_ms);
    (void)buf.push(Tick{1}, packet(1, 1), 0_ms);    // nearer than 9: 9 is evicted
    (void)buf.push(Tick{20}, packet(20, 1), 0_ms);  // farther than all: dropped
    EXPECT_EQ(buf.stats().overflow_dropped, 2u);
    EXPECT_EQ(buf.depth(), 3);
    EXPECT_EQ(buf.pop(Tick{1}).made_for, 1u);
    EXPECT_EQ(buf.pop(Tick{5}).made_for, 5u);
    EXPECT_EQ(buf.pop(Tick{7}).made_for, 7u);
    EXPECT_EQ(buf.pop(Tick{9}).made_for, 7u);  // 9 was evicted: repeat
    EXPECT_EQ(buf.stats().skipped_ticks, 6u);  // 0, 2, 3, 4, 6 and 8, jumped over by the caller
}

TEST(InputJitterBuffer, OversizedPacketsUseOnlyTheNewestInputs) {
    InputJitterBuffer<In> buf({}, Tick{0});
    (void)buf.push(Tick{10}, packet(10, 9), 0_ms);
    EXPECT_EQ(buf.stats().oversized_packets, 1u);
    EXPECT_EQ(buf.depth(), 4);  // ticks 7..10 only
    EXPECT_EQ(buf.push(Tick{3}, std::span<const In>{}, 0_ms), PacketVerdict::empty);
    EXPECT_EQ(buf.stats().empty_packets, 1u);
}

TEST(InputJitterBuffer, TokenBucketLimitsPacketRate) {
    InputJitterBufferConfig cfg;
    cfg.packets_per_second = 100;
    cfg.burst_packets = 5;
    InputJitterBuffer<In> buf(cfg, Tick{0});
    int accepted = 0;
    for (int i = 0; i < 10; ++i) accepted += buf.push(Tick{1}, packet(1, 1), 0_ms) == PacketVerdict::accepted;
    EXPECT_EQ(accepted, 5);  // the burst
    EXPECT_EQ(buf.stats().rate_limited, 5u);
    // One second at 1000 packets per second offered: about 100 get through.
    accepted = 0;
    for (int i = 1; i <= 1000; ++i)
        accepted += buf.push(Tick{1}, packet(1, 1), Micros{i * 1000}) == PacketVerdict::accepted;
    EXPECT_NEAR(accepted, 100, 2);
    // A clock that steps back refills nothing.
    const auto limited = buf.stats().rate_limited;
    (void)buf.push(Tick{1}, packet(1, 1), 0_ms);
    EXPECT_EQ(buf.stats().rate_limited, limited + 1);
}

TEST(InputJitterBuffer, ArrivalOffsetIsSmoothedAndSigned) {
    InputJitterBuffer<In> buf({}, Tick{100});
    for (int i = 0; i < 50; ++i) (void)buf.push(Tick{103}, packet(103, 1), Micros{i * 10000});
    EXPECT_NEAR(buf.arrival_offset_ticks(), 3.0, 1e-9);
    for (int i = 50; i < 110; ++i)
        (void)buf.push(Tick{98}, packet(98, 1), Micros{i * 10000});  // 2 ticks late
    EXPECT_EQ(buf.stats().rate_limited, 0u);
    EXPECT_NEAR(buf.arrival_offset_ticks(), -2.0, 0.01);
    EXPECT_EQ(buf.last_arrival_offset_ticks(), -2);
    EXPECT_LT(buf.arrival_offset().count, 0);
}

TEST(InputJitterBuffer, FirstArrivalOffsetShowsTheTicksALostPacketCost) {
    InputJitterBuffer<In> buf({}, Tick{100});
    // Every tick a packet of the 4 newest inputs, 3 ticks early: only the newest input is new each time.
    std::uint32_t newest = 103;
    Micros now{};
    const auto send = [&] {
        (void)buf.push(Tick{newest}, packet(newest), now);
        (void)buf.pop(Tick{newest - 3});
        ++newest;
        now += Micros{16'667};
    };
    for (int i = 0; i < 10; ++i) send();
    EXPECT_EQ(buf.last_arrival_offset_ticks(), 3);
    EXPECT_EQ(buf.last_first_arrival_offset_ticks(), 3);
    // Two packets lost: the next one brings three new inputs, the oldest of them only 1 tick early.
    ++newest, ++newest;
    (void)buf.pop(Tick{newest - 5}), (void)buf.pop(Tick{newest - 4});
    send();
    EXPECT_EQ(buf.last_arrival_offset_ticks(), 3);
    EXPECT_EQ(buf.last_first_arrival_offset_ticks(), 1);
    send();
    EXPECT_EQ(buf.last_first_arrival_offset_ticks(), 3);
    EXPECT_TRUE(buf.last_push_brought_new());
    // A duplicate brings nothing new: as early as its newest input, and said so.
    (void)buf.push(Tick{newest - 1}, packet(newest - 1), now);
    EXPECT_EQ(buf.last_first_arrival_offset_ticks(), buf.last_arrival_offset_ticks());
    EXPECT_FALSE(buf.last_push_brought_new());
    // A packet whose oldest new input was already needed: negative.
    InputJitterBuffer<In> late({}, Tick{100});
    (void)late.push(Tick{100}, packet(100, 1), 0_ms);
    for (std::uint32_t t = 100; t < 104; ++t) (void)late.pop(Tick{t});
    (void)late.push(Tick{104}, packet(104, 4), 0_ms);  // 101..103 were needed already
    EXPECT_EQ(late.last_first_arrival_offset_ticks(), -3);
    EXPECT_EQ(late.last_arrival_offset_ticks(), 0);
}

TEST(InputJitterBuffer, WorksAcrossTheTickWrap) {
    InputJitterBuffer<In> buf({}, Tick{0xFFFFFFFEu});
    for (std::uint32_t k = 0; k < 6; ++k) {
        const std::uint32_t t = 0xFFFFFFFEu + k;
        (void)buf.push(Tick{t + 1}, packet(t + 1), 0_ms);
        if (k == 0) (void)buf.push(Tick{t}, packet(t, 1), 0_ms);
        EXPECT_EQ(buf.pop(Tick{t}).made_for, t);
    }
    EXPECT_EQ(buf.stats().missing, 0u);
}

TEST(InputJitterBuffer, PopBackwardsOrLargeJumpsAreSafe) {
    InputJitterBuffer<In> buf({}, Tick{50});
    (void)buf.push(Tick{50}, packet(50, 1), 0_ms);
    EXPECT_EQ(buf.pop(Tick{50}).made_for, 50u);
    EXPECT_EQ(buf.pop(Tick{40}).made_for, 50u);  // backwards: same input, no change
    EXPECT_EQ(buf.stats().popped, 1u);
    (void)buf.pop(Tick{50 + 1000});
    EXPECT_EQ(buf.next_tick(), Tick{50 + 1001});
    EXPECT_GE(buf.stats().skipped_ticks, 999u);
}

// Whatever the packets (random ticks, sizes, times), the buffer never plays out of order, never holds more
// than max_queue, and every pop returns either the input made for that tick or the one played before.
RC_GTEST_PROP(InputJitterBufferProp, NeverCrashesAndPlaysInOrder, (std::uint64_t seed)) {
    Rng rng(seed);
    InputJitterBuffer<In> buf({}, Tick{rng.next_u32()});
    Tick server = buf.next_tick();
    In previous{};
    for (int step = 0; step < 400; ++step) {
        const std::uint32_t kind = rng.uniform(4);
        const std::uint32_t base = kind == 0 ? rng.next_u32() : server.value + rng.uniform(40) - 8;
        (void)buf.push(Tick{base}, packet(base, static_cast<int>(rng.uniform(7))), Micros{step * 4000});
        RC_ASSERT(buf.depth() <= 8);
        if (rng.uniform(3) == 0) {
            const In in = buf.pop(server);
            RC_ASSERT(in.made_for == server.value || in == previous);
            previous = in;
            ++server;
        }
    }
}

TEST(InputJitterBuffer, LateInputsAreKeptForAReplayAndCanBecomeTheRepeatedOne) {
    InputJitterBuffer<In> buf({}, Tick{0});
    (void)buf.push(Tick{0}, packet(0, 1), 0_ms);
    (void)buf.pop(Tick{0});
    (void)buf.pop(Tick{1});  // missing: tick 0's input repeated
    (void)buf.pop(Tick{2});  // missing again
    EXPECT_TRUE(buf.missing_within(2));
    EXPECT_FALSE(buf.missing_within(0));
    (void)buf.push(Tick{2}, packet(2, 2), 0_ms);  // ticks 1 and 2, both late
    ASSERT_EQ(buf.late_inputs().size(), 2u);
    EXPECT_EQ(buf.late_inputs()[0].tick, Tick{1});
    EXPECT_EQ(buf.late_inputs()[0].input.made_for, 1u);
    EXPECT_EQ(buf.late_inputs()[1].tick, Tick{2});
    EXPECT_FALSE(buf.missing_within(3));          // every played tick has its input now
    (void)buf.push(Tick{2}, packet(2, 2), 0_ms);  // redundant copies are not kept again
    EXPECT_EQ(buf.late_inputs().size(), 2u);
    buf.clear_late_inputs();
    EXPECT_TRUE(buf.late_inputs().empty());
    // Without a replay, tick 3 would repeat tick 0's input; after one, it repeats the newest applied.
    buf.late_input_applied(Tick{1}, In{1});
    buf.late_input_applied(Tick{2}, In{2});
    buf.late_input_applied(Tick{1}, In{1});  // older than the one applied: changes nothing
    EXPECT_EQ(buf.pop(Tick{3}).made_for, 2u);
    EXPECT_TRUE(buf.last_pop_repeated());
}

TEST(InputJitterBuffer, AtMostSixteenLateInputsAreKeptAtOnce) {
    InputJitterBuffer<In> buf({}, Tick{0});
    (void)buf.push(Tick{0}, packet(0, 1), 0_ms);
    for (std::uint32_t t = 0; t <= 20; ++t) (void)buf.pop(Tick{t});
    for (std::uint32_t t = 4; t <= 20; t += 4) (void)buf.push(Tick{t}, packet(t), 0_ms);  // ticks 1..20 late
    EXPECT_EQ(buf.stats().late_inputs, 20u);
    EXPECT_EQ(buf.late_inputs().size(), 16u);
    EXPECT_EQ(buf.stats().late_unkept, 4u);
}

}  // namespace
}  // namespace rwd::sync
