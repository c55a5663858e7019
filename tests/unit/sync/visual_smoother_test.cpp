// Tests for VisualSmoother: exponential decay over ~100 ms, and smooth versus snap.
#include <rewind/sync/visual_smoother.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace rwd::sync {
namespace {

using namespace rwd::literals;

TEST(VisualSmootherConfig, DefaultsAreValidAndBadValuesAreNamed) {
    EXPECT_TRUE(VisualSmootherConfig{}.validate().ok());
    VisualSmootherConfig c;
    c.time_constant = 0_ms;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.snap_distance_m = -1;
    EXPECT_FALSE(c.validate().ok());
}

TEST(VisualSmoother, SmallCorrectionDecaysExponentially) {
    VisualSmoother s;
    s.on_correction({0.3, -0.4, 0.0});  // 0.5 m
    EXPECT_NEAR(s.magnitude(), 0.5, 1e-12);
    EXPECT_EQ(s.stats().smoothed, 1u);
    s.advance(100_ms);
    EXPECT_NEAR(s.magnitude(), 0.5 * std::exp(-1.0), 1e-9);
    EXPECT_NEAR(s.offset().x, 0.3 * std::exp(-1.0), 1e-9);
    // The same decay whatever the frame split: 10 frames of 10 ms = one of 100 ms.
    VisualSmoother t;
    t.on_correction({0.3, -0.4, 0.0});
    for (int i = 0; i < 10; ++i) t.advance(10_ms);
    EXPECT_NEAR(t.magnitude(), s.magnitude(), 1e-9);
    // After a second it is gone (below the rest distance: exactly zero).
    s.advance(1_s);
    EXPECT_EQ(s.magnitude(), 0.0);
    s.advance(Micros{-5});  // negative time does nothing
    EXPECT_EQ(s.magnitude(), 0.0);
}

TEST(VisualSmoother, LargeCorrectionSnaps) {
    VisualSmoother s;
    s.on_correction({0.5, 0.0, 0.0});
    s.on_correction({2.5, 0.0, 0.0});
    EXPECT_EQ(s.magnitude(), 0.0);
    EXPECT_EQ(s.stats().snapped, 1u);
    // Small corrections that pile up beyond the threshold snap too.
    s.on_correction({1.5, 0.0, 0.0});
    s.on_correction({0.0, 1.5, 0.0});
    EXPECT_EQ(s.stats().snapped, 2u);
    EXPECT_EQ(s.magnitude(), 0.0);
    s.on_correction({std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0});
    EXPECT_EQ(s.stats().snapped, 3u);
    EXPECT_EQ(s.stats().smoothed, 2u);
}

TEST(VisualSmoother, ConfigurableThresholdAndTimeConstant) {
    VisualSmoother s({Micros{50'000}, 0.1, 1e-6});
    s.on_correction({0.05, 0.0, 0.0});
    s.advance(50_ms);
    EXPECT_NEAR(s.offset().x, 0.05 * std::exp(-1.0), 1e-9);
    s.on_correction({0.2, 0.0, 0.0});
    EXPECT_EQ(s.stats().snapped, 1u);
    s.on_correction({0.01, 0.0, 0.0});
    s.reset();
    EXPECT_EQ(s.magnitude(), 0.0);
}

}  // namespace
}  // namespace rwd::sync
