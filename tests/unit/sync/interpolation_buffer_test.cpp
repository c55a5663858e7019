// Tests for InterpolationBuffer: bracketing, wrap-aware keys, the extrapolation cap, starvation and delay
// adaptation.
#include <rewind/core/rng.hpp>
#include <rewind/sync/interpolation_buffer.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace rwd::sync {
namespace {

using namespace rwd::literals;

/// A toy snapshot: a position on a line, and the tick it was taken at.
struct Pos {
    double x = 0.0;
    std::uint32_t tick = 0;
};

/// Linear interpolation, as a game's interpolate() would (extrapolates for t > 1).
double lerp(const InterpolationSample<Pos>& s) {
    return s.from->x + (s.to->x - s.from->x) * static_cast<double>(s.t);
}

/// Ticks from whole tick `b` to `a` (keeps braces out of the test macros).
double ticks_after(FracTick a, std::uint32_t b) { return a - FracTick{Tick{b}, 0.0}; }

/// Micros at tick k of a 60 Hz clock.
Micros at_tick(double k) { return Micros{static_cast<std::int64_t>(k * 1e6 / 60.0)}; }

/// A config with a fixed delay of `d` ticks (no slew, no adaptation during the test).
InterpolationBufferConfig fixed_delay(double d) {
    InterpolationBufferConfig c;
    c.min_delay_ticks = d;
    c.max_delay_ticks = d;
    return c;
}

TEST(InterpolationBufferConfig, DefaultsAreValidAndBadValuesAreNamed) {
    EXPECT_TRUE(InterpolationBufferConfig{}.validate().ok());
    InterpolationBufferConfig c;
    c.max_delay_ticks = 0.5;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.max_extrapolation_ticks = -1;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.max_slew = 0;
    EXPECT_FALSE(c.validate().ok());
}

TEST(InterpolationBuffer, InitialDelayIsTwoIntervalsPlusJitter) {
    InterpolationBuffer<Pos> buf;
    EXPECT_DOUBLE_EQ(buf.delay_ticks(), 4.0);  // 2 x 2-tick interval, no jitter observed yet
    EXPECT_EQ(buf.delay(), Micros{66667});
}

TEST(InterpolationBuffer, InterpolatesBetweenTheBracketingPair) {
    InterpolationBuffer<Pos> buf(fixed_delay(4.0));
    for (std::uint32_t k = 100; k <= 110; k += 2)
        ASSERT_TRUE(buf.push(Tick{k}, Pos{k * 10.0, k}, at_tick(k)));
    // Server at 109.5 -> render 105.5: between 104 and 106, 3/4 of the way.
    const auto s = buf.sample_at(FracTick{Tick{109}, 0.5}, at_tick(109.5));
    ASSERT_EQ(s.mode, SampleMode::interpolate);
    EXPECT_EQ(s.from_tick, Tick{104});
    EXPECT_EQ(s.to_tick, Tick{106});
    EXPECT_EQ(s.from->tick, 104u);
    EXPECT_FLOAT_EQ(s.t, 0.75f);
    EXPECT_NEAR(lerp(s), 1055.0, 1e-3);
    EXPECT_EQ(s.view.from, Tick{105});
    EXPECT_EQ(s.view.fraction_q16, 32768);
    EXPECT_NEAR(buf.depth_at(FracTick{Tick{109}, 0.5}), 4.5, 1e-9);
    EXPECT_FALSE(buf.starving());
    EXPECT_EQ(buf.stats().starvations, 0u);
}

TEST(InterpolationBuffer, KeysAreWrapAwareAndOutOfOrderArrivalsAreSorted) {
    InterpolationBuffer<Pos> buf(fixed_delay(2.0));
    const std::uint32_t base = 0xFFFFFFFCu;
    // Arrive out of order across the wrap: -4, 0, -2, 2.
    for (std::uint32_t off : {0u, 4u, 2u, 6u})
        ASSERT_TRUE(buf.push(Tick{base + off}, Pos{static_cast<double>(off), 0}, 0_ms));
    EXPECT_EQ(buf.oldest_tick(), Tick{base});
    EXPECT_EQ(buf.newest_tick(), Tick{base + 6});
    // Server at base+5 -> render base+3: between base+2 and base+4 (= tick 0), halfway.
    const auto s = buf.sample_at(FracTick{Tick{base + 5}, 0.0}, 0_ms);
    ASSERT_EQ(s.mode, SampleMode::interpolate);
    EXPECT_EQ(s.from_tick, Tick{base + 2});
    EXPECT_EQ(s.to_tick, Tick{0});
    EXPECT_NEAR(lerp(s), 3.0, 1e-6);
    EXPECT_FALSE(buf.push(Tick{base + 2}, Pos{}, 0_ms));  // duplicate
    EXPECT_EQ(buf.stats().duplicates, 1u);
}

TEST(InterpolationBuffer, FullBufferEvictsTheOldestAndRefusesOlder) {
    InterpolationBuffer<Pos, 4> buf(fixed_delay(2.0));
    for (std::uint32_t k = 10; k <= 16; k += 2) ASSERT_TRUE(buf.push(Tick{k}, Pos{}, 0_ms));
    EXPECT_TRUE(buf.push(Tick{18}, Pos{}, 0_ms));
    EXPECT_EQ(buf.oldest_tick(), Tick{12});
    EXPECT_TRUE(buf.push(Tick{13}, Pos{}, 0_ms));  // in the middle: evicts 12
    EXPECT_EQ(buf.oldest_tick(), Tick{13});
    EXPECT_FALSE(buf.push(Tick{11}, Pos{}, 0_ms));
    EXPECT_EQ(buf.stats().too_old, 1u);
    EXPECT_EQ(buf.size(), 4);
}

TEST(InterpolationBuffer, ExtrapolatesAtMostTwoTicksThenHolds) {
    InterpolationBuffer<Pos> buf(fixed_delay(4.0));
    buf.push(Tick{100}, Pos{1000.0, 100}, 0_ms);
    buf.push(Tick{102}, Pos{1020.0, 102}, 0_ms);
    // Render 103: one tick past the newest, extrapolated along the last motion.
    auto s = buf.sample_at(FracTick{Tick{107}, 0.0}, 0_ms);
    EXPECT_EQ(s.mode, SampleMode::extrapolate);
    EXPECT_NEAR(lerp(s), 1030.0, 1e-3);
    EXPECT_TRUE(buf.starving());
    EXPECT_EQ(buf.stats().starvations, 1u);
    // Render 110: far past; held at the cap (104), never further.
    s = buf.sample_at(FracTick{Tick{114}, 0.0}, 0_ms);
    EXPECT_EQ(s.mode, SampleMode::hold);
    EXPECT_NEAR(lerp(s), 1040.0, 1e-3);
    EXPECT_NEAR(ticks_after(s.sampled_time, 102), 2.0, 1e-9);
    EXPECT_EQ(s.view.from, Tick{104});
    EXPECT_EQ(buf.stats().starvations, 1u);  // one starvation episode, several starved samples
    EXPECT_EQ(buf.stats().starved_samples, 2u);
    EXPECT_EQ(buf.stats().capped_samples, 1u);
    EXPECT_LT(buf.depth_at(FracTick{Tick{114}, 0.0}), 0.0);
}

RC_GTEST_PROP(InterpolationBufferProp, NeverExtrapolatesPastTheCap,
              (std::uint32_t base, std::uint8_t ahead_q)) {
    InterpolationBuffer<Pos> buf(fixed_delay(4.0));
    buf.push(Tick{base}, Pos{0.0, 0}, 0_ms);
    buf.push(Tick{base + 3}, Pos{300.0, 0}, 0_ms);
    const double ahead = static_cast<double>(ahead_q) / 8.0;  // render up to 32 ticks past the newest
    const auto s = buf.sample_at(FracTick{Tick{base + 3}, 0.0}.plus(4.0 + ahead), 0_ms);
    RC_ASSERT(ticks_after(s.sampled_time, base + 3) <= 2.0 + 1e-9);
    RC_ASSERT(lerp(s) <= 500.0 + 1e-3);  // 100 per tick, 2 ticks past 300
    RC_ASSERT(lerp(s) >= 0.0 - 1e-3);
}

TEST(InterpolationBuffer, SingleSnapshotAndEmptyBufferHold) {
    InterpolationBuffer<Pos> buf;
    auto s = buf.sample_at(FracTick{Tick{50}, 0.0}, 0_ms);
    EXPECT_EQ(s.mode, SampleMode::empty);
    EXPECT_EQ(s.from, nullptr);
    buf.push(Tick{40}, Pos{7.0, 40}, 0_ms);
    s = buf.sample_at(FracTick{Tick{50}, 0.0}, 0_ms);
    EXPECT_EQ(s.mode, SampleMode::hold);
    EXPECT_EQ(s.from, s.to);
    EXPECT_DOUBLE_EQ(lerp(s), 7.0);
    // Render time before the oldest snapshot: held on the oldest, not counted as starvation.
    InterpolationBuffer<Pos> late(fixed_delay(4.0));
    late.push(Tick{100}, Pos{1.0, 100}, 0_ms);
    late.push(Tick{102}, Pos{2.0, 102}, 0_ms);
    s = late.sample_at(FracTick{Tick{98}, 0.0}, 0_ms);
    EXPECT_EQ(s.mode, SampleMode::hold);
    EXPECT_EQ(s.from_tick, Tick{100});
    EXPECT_EQ(late.stats().behind_samples, 1u);
    EXPECT_EQ(late.stats().starvations, 0u);
}

TEST(InterpolationBuffer, FarFutureSnapshotResetsInsteadOfLockingOut) {
    InterpolationBuffer<Pos> buf;
    buf.push(Tick{10}, Pos{}, 0_ms);
    buf.push(Tick{12}, Pos{}, 0_ms);
    EXPECT_TRUE(buf.push(Tick{10 + 5000}, Pos{}, 1_s));
    EXPECT_EQ(buf.stats().resets, 1u);
    EXPECT_EQ(buf.size(), 1);
    EXPECT_EQ(buf.oldest_tick(), Tick{5010});
}

TEST(InterpolationBuffer, StarvationRaisesTheDelaySmoothlyAndHealthLowersItSlowly) {
    InterpolationBuffer<Pos> buf;  // default adaptation
    const double initial = buf.delay_ticks();
    double server = 1000.0;
    std::uint32_t next_snap = 1000;
    double max_step = 0.0;
    double previous_delay = buf.delay_ticks();
    double peak = 0.0;
    // 3 s of 250 ms gaps in the snapshot stream every second (starves), then 40 s of a clean stream.
    for (int frame = 0; frame < 60 * 43; ++frame, server += 1.0) {
        const bool outage = frame < 180 && (frame % 60) >= 40;
        while (next_snap <= static_cast<std::uint32_t>(server)) {
            if (!outage) buf.push(Tick{next_snap}, Pos{}, at_tick(server));
            next_snap += 2;
        }
        (void)buf.sample_at(FracTick::at(Tick{0}, server), at_tick(server));
        max_step = std::max(max_step, std::abs(buf.delay_ticks() - previous_delay));
        previous_delay = buf.delay_ticks();
        peak = std::max(peak, buf.delay_ticks());
    }
    EXPECT_GE(buf.stats().starvations, 2u);
    EXPECT_GT(peak, initial + 1.0);            // raised
    EXPECT_LE(max_step, 0.1 + 1e-4);           // by at most 10 % of a tick per tick: no visible jump
    EXPECT_LT(buf.delay_ticks(), peak - 1.0);  // lowered again once healthy
    EXPECT_GE(buf.delay_ticks(), initial - 1e-9);
}

TEST(InterpolationBuffer, ObservedJitterWidensTheDelay) {
    InterpolationBuffer<Pos> steady, jittery;
    Rng rng(7);
    for (std::uint32_t k = 0; k < 300; k += 2) {
        steady.push(Tick{k}, Pos{}, at_tick(k + 3));
        jittery.push(Tick{k}, Pos{}, at_tick(k + 3 + rng.uniform(4)));  // up to 4 ticks (67 ms) of jitter
    }
    EXPECT_NEAR(steady.jitter_ticks(), 0.0, 1e-3);
    EXPECT_NEAR(steady.interval_ticks(), 2.0, 1e-6);
    EXPECT_GT(jittery.jitter_ticks(), 0.5);
    EXPECT_GT(jittery.target_delay_ticks(), steady.target_delay_ticks() + 0.5);
}

TEST(InterpolationBuffer, SmoothUnderLossAndJitterOnceAdapted) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        Rng rng(seed);
        InterpolationBuffer<Pos> buf;
        // 30 Hz snapshots, 50 ms latency, 0..20 ms jitter, 5 % loss; rendered on the buffer's own arrival
        // clock.
        struct Pending {
            double arrive;
            std::uint32_t tick;
        };
        std::vector<Pending> in_flight;
        std::uint64_t starvations_at_10s = 0;
        for (int frame = 0; frame < 60 * 30; ++frame) {
            const double server = 5000.0 + frame;
            if (frame % 2 == 0 && rng.uniform(100) >= 5)
                in_flight.push_back(
                    {server + 3.0 + rng.uniform(1200) / 1000.0, static_cast<std::uint32_t>(server)});
            for (auto it = in_flight.begin(); it != in_flight.end();) {
                if (it->arrive <= server) {
                    buf.push(Tick{it->tick}, Pos{static_cast<double>(it->tick), it->tick},
                             at_tick(it->arrive));
                    it = in_flight.erase(it);
                } else {
                    ++it;
                }
            }
            const auto s = buf.sample(at_tick(server));
            if (frame == 600) starvations_at_10s = buf.stats().starvations;
            if (s.mode == SampleMode::interpolate) {
                EXPECT_NEAR(lerp(s), ticks_after(s.render_time, 0), 1e-3);
            }
        }
        // After the first 10 s the delay has adapted: starving again is rare.
        EXPECT_LE(buf.stats().starvations - starvations_at_10s, 2u);
        EXPECT_LT(buf.delay_ticks(), 10.0);
    }
}

}  // namespace
}  // namespace rwd::sync

namespace rwd::sync {
namespace {

TEST(InterpolationBuffer, LatencyDoesNotRaiseTheDelay) {
    // The arrival clock trails the server by the latency, so 20 ms and 300 ms one-way need the same delay.
    for (double latency_ticks : {1.2, 18.0}) {
        SCOPED_TRACE("latency_ticks=" + std::to_string(latency_ticks));
        InterpolationBuffer<Pos> buf;
        std::uint32_t next = 0;
        for (int frame = 0; frame < 600; ++frame) {
            const double now = 100.0 + frame;
            while (next + latency_ticks <= now) {
                buf.push(Tick{next}, Pos{static_cast<double>(next), next}, at_tick(next + latency_ticks));
                next += 2;
            }
            const auto s = buf.sample(at_tick(now));
            EXPECT_NE(s.mode, SampleMode::extrapolate);
        }
        EXPECT_EQ(buf.stats().starvations, 0u);
        EXPECT_NEAR(buf.delay_ticks(), 4.0, 0.1);
        EXPECT_GT(buf.depth(at_tick(700.0)), 0.0);  // between 0 and delay, by where in the interval we look
        EXPECT_LE(buf.depth(at_tick(700.0)), 4.1);
        EXPECT_NEAR(ticks_after(buf.server_time(at_tick(700.0)), 0), 700.0 - latency_ticks, 0.5);
    }
}

}  // namespace
}  // namespace rwd::sync
