// Tests for FixedStep: no drift over long runs, time scale, alpha, the spiral-of-death cap, and config
// checks.
#include <rewind/core/fixed_step.hpp>
#include <rewind/core/rng.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <string>

namespace rwd {
namespace {

using namespace rwd::literals;

constexpr std::int64_t kHourUs = 3600LL * 1000 * 1000;

TEST(FixedStepConfig, DefaultsAreValidAndRangesChecked) {
    EXPECT_TRUE(FixedStepConfig{}.validate().ok());
    EXPECT_EQ(FixedStepConfig{}.tick_rate_hz, 60);
    EXPECT_EQ(FixedStepConfig{}.max_ticks_per_update, 8);
    for (int bad : {0, -1, 1001}) {
        FixedStepConfig c;
        c.tick_rate_hz = bad;
        EXPECT_EQ(c.validate().code(), Errc::invalid_config) << bad;
        EXPECT_FALSE(c.validate().error().detail.empty());
        c = {};
        c.max_ticks_per_update = bad;
        EXPECT_EQ(c.validate().code(), Errc::invalid_config) << bad;
    }
    FixedStepConfig edge{1000, 1000};
    EXPECT_TRUE(edge.validate().ok());
}

TEST(FixedStep, OneHourAt60HzIsExactly216000TicksWithMillisecondFrames) {
    FixedStep fs;
    std::int64_t ticks = 0;
    for (std::int64_t t = 0; t < kHourUs; t += 1000) ticks += fs.advance(1_ms);
    EXPECT_EQ(ticks, 216000);
    EXPECT_EQ(fs.dropped_ticks(), 0u);
    EXPECT_EQ(fs.ticks_run(), 216000u);
    EXPECT_EQ(fs.alpha(), 0.0);
}

TEST(FixedStep, OneHourWithRoundedTickFramesDoesNotDrift) {
    // Frames of the rounded tick length (16667 us) plus a final partial frame add up to exactly one hour, so
    // exactly 216000 ticks; a step that accumulated a rounded 16667 us per tick would be 0.72 tick off.
    FixedStep fs;
    std::int64_t ticks = 0;
    std::int64_t elapsed = 0;
    while (elapsed + 16667 <= kHourUs) {
        ticks += fs.advance(Micros{16667});
        elapsed += 16667;
    }
    ticks += fs.advance(Micros{kHourUs - elapsed});
    EXPECT_EQ(ticks, 216000);
}

TEST(FixedStep, IrregularSeededFramesLoseNothing) {
    for (std::uint64_t seed : {1ull, 2ull, 3ull, 12345ull}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        Rng rng(seed);
        FixedStep fs(FixedStepConfig{60, 1000});
        std::int64_t ticks = 0;
        std::int64_t elapsed = 0;
        while (elapsed < kHourUs) {
            std::int64_t frame = rng.range(0, 50000);
            if (elapsed + frame > kHourUs) frame = kHourUs - elapsed;
            ticks += fs.advance(Micros{frame});
            elapsed += frame;
        }
        EXPECT_EQ(ticks, 216000);
        EXPECT_EQ(fs.dropped_ticks(), 0u);
    }
}

TEST(FixedStep, OtherRatesAreExactToo) {
    for (int hz : {1, 7, 30, 64, 120, 144, 1000}) {
        SCOPED_TRACE("hz=" + std::to_string(hz));
        FixedStep fs(FixedStepConfig{hz, 1000});
        std::int64_t ticks = 0;
        for (int frame = 0; frame < 600 * 60; ++frame) ticks += fs.advance(Micros{16667});  // ~600 s
        // Total time is 600.012 s: floor(600.012 * hz) ticks.
        EXPECT_EQ(ticks, (600'012'000LL * hz) / 1'000'000);
    }
}

TEST(FixedStep, TimeScaleRunsFasterOrSlower) {
    for (double scale : {0.95, 0.99, 1.0, 1.01, 1.05}) {
        SCOPED_TRACE("scale=" + std::to_string(scale));
        FixedStep fs;
        fs.set_time_scale(scale);
        EXPECT_DOUBLE_EQ(fs.time_scale(), scale);
        std::int64_t ticks = 0;
        for (std::int64_t t = 0; t < kHourUs; t += 10000) ticks += fs.advance(10_ms);
        EXPECT_EQ(ticks, std::llround(216000 * scale));
    }
}

TEST(FixedStep, TimeScaleChangeMidRunKeepsAccumulatedTime) {
    FixedStep fs;
    EXPECT_EQ(fs.advance(Micros{25000}), 1);  // 1.5 ticks
    fs.set_time_scale(2.0);
    EXPECT_EQ(fs.advance(Micros{25000}), 3);  // 0.5 + 3.0 ticks
    EXPECT_NEAR(fs.alpha(), 0.5, 1e-12);
}

TEST(FixedStep, TimeScaleClampsAndIgnoresNan) {
    FixedStep fs;
    fs.set_time_scale(-1.0);
    EXPECT_EQ(fs.time_scale(), FixedStep::kMinTimeScale);
    EXPECT_EQ(fs.advance(1_s), 0) << "scale 0 pauses";
    fs.set_time_scale(100.0);
    EXPECT_EQ(fs.time_scale(), FixedStep::kMaxTimeScale);
    fs.set_time_scale(std::nan(""));
    EXPECT_EQ(fs.time_scale(), FixedStep::kMaxTimeScale);
}

TEST(FixedStep, AlphaIsMonotonicWithinATickAndInUnitInterval) {
    FixedStep fs;
    double last = fs.alpha();
    EXPECT_EQ(last, 0.0);
    int ticks_seen = 0;
    for (int i = 0; i < 10000; ++i) {
        const int ticks = fs.advance(Micros{97});
        const double a = fs.alpha();
        ASSERT_GE(a, 0.0);
        ASSERT_LT(a, 1.0);
        if (ticks == 0) {
            ASSERT_GT(a, last) << "step " << i;
        } else {
            ASSERT_LT(a, last) << "alpha wraps when a tick completes, step " << i;
            ticks_seen += ticks;
        }
        last = a;
    }
    EXPECT_EQ(ticks_seen, 970000 * 60 / 1000000);
}

TEST(FixedStep, AlphaMeasuresTheFraction) {
    FixedStep fs(FixedStepConfig{100, 8});  // 10 ms ticks
    EXPECT_EQ(fs.advance(Micros{2500}), 0);
    EXPECT_DOUBLE_EQ(fs.alpha(), 0.25);
    EXPECT_EQ(fs.advance(Micros{10000}), 1);
    EXPECT_DOUBLE_EQ(fs.alpha(), 0.25);
    fs.reset_accumulator();
    EXPECT_EQ(fs.alpha(), 0.0);
}

TEST(FixedStep, CapsTicksPerUpdateAndCountsDropped) {
    FixedStep fs;                                        // 60 Hz, cap 8
    EXPECT_EQ(fs.advance(Micros{1'000'000 + 8333}), 8);  // 60.5 ticks of work
    EXPECT_EQ(fs.dropped_ticks(), 52u);
    EXPECT_NEAR(fs.alpha(), 0.5, 1e-3) << "the fraction survives the cap";
    EXPECT_EQ(fs.advance(Micros{16667}), 1);
    EXPECT_EQ(fs.dropped_ticks(), 52u);
    EXPECT_EQ(fs.ticks_run(), 9u);
}

TEST(FixedStep, HugeAndNegativeElapsedAreSafe) {
    FixedStep fs(FixedStepConfig{1000, 4});
    fs.set_time_scale(FixedStep::kMaxTimeScale);
    const std::int64_t year_us = 365LL * 24 * kHourUs;
    EXPECT_EQ(fs.advance(Micros{year_us}), 4);
    EXPECT_EQ(fs.dropped_ticks(), static_cast<std::uint64_t>(year_us / 1000 * 4 - 4));
    EXPECT_EQ(fs.advance(Micros{-5000}), 0);
    EXPECT_EQ(fs.advance(Micros{0}), 0);
    EXPECT_EQ(fs.alpha(), 0.0);
}

TEST(FixedStep, TickDurationIsRoundedNominal) {
    EXPECT_EQ(FixedStep{}.tick_duration(), Micros{16667});
    EXPECT_EQ(FixedStep(FixedStepConfig{30, 8}).tick_duration(), Micros{33333});
    EXPECT_EQ(FixedStep(FixedStepConfig{128, 8}).tick_duration(), Micros{7813});
    EXPECT_EQ(FixedStep(FixedStepConfig{1000, 8}).tick_duration(), 1_ms);
    EXPECT_EQ(FixedStep(FixedStepConfig{144, 8}).tick_rate_hz(), 144);
}

RC_GTEST_PROP(FixedStep, FrameSplitDoesNotChangeTheTotal,
              (std::vector<std::uint16_t> frames, std::uint8_t rate_pick)) {
    const int hz = 1 + rate_pick % 240;
    FixedStep split(FixedStepConfig{hz, 1000});
    std::int64_t ticks = 0;
    std::int64_t total = 0;
    for (std::uint16_t f : frames) {
        ticks += split.advance(Micros{f});
        total += f;
    }
    FixedStep whole(FixedStepConfig{hz, 1000});
    const int at_once = whole.advance(Micros{total});
    RC_ASSERT(ticks == at_once);
    RC_ASSERT(ticks == total * hz / 1'000'000);
    RC_ASSERT(split.alpha() == whole.alpha());
}

}  // namespace
}  // namespace rwd
