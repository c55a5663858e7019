// Quantized floats, angles and "smallest three" quaternions: round trips stay within their stated bounds.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <rewind/wire/serialize.hpp>

#include "unit/wire/wire_test_util.hpp"

namespace rwd::wire {
namespace {

using test::round_trip;

constexpr float kFloatEps = std::numeric_limits<float>::epsilon();

// Float parameters from integers, so ranges are sane but arbitrary.
float gen_float(int lo, int hi, float scale) { return static_cast<float>(*rc::gen::inRange(lo, hi)) * scale; }

RC_GTEST_PROP(SerializeQuantized, ErrorWithinHalfResolution, ()) {
    const float min = gen_float(-100000, 100000, 0.01f);
    const float span = gen_float(1, 200000, 0.01f);
    const float max = min + span;
    const float resolution = span / gen_float(1, 1 << 20, 1.0f) * gen_float(50, 150, 0.01f);
    RC_PRE(min < max && resolution > 0.0f);
    // Inputs inside, at and beyond the range.
    const float v = min + span * gen_float(-200, 1201, 0.001f);
    const auto r =
        round_trip(v, [&](auto& s, float& x) { return serialize_quantized(s, x, min, max, resolution); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out >= min);
    RC_ASSERT(r.out <= max);
    const double clamped = std::clamp(double{v}, double{min}, double{max});
    const double bound =
        resolution / 2.0 * (1.0 + 1e-5) + 2.0 * kFloatEps * std::max(std::fabs(min), std::fabs(max));
    RC_ASSERT(std::fabs(double{r.out} - clamped) <= bound);
    // Re-encoding a decoded value is exact: decoding is a fixed point.
    const auto r2 =
        round_trip(r.out, [&](auto& s, float& x) { return serialize_quantized(s, x, min, max, resolution); });
    RC_ASSERT(r2.out == r.out);
}

TEST(SerializeQuantized, NonFiniteInputsClamp) {
    auto enc = [](float v) {
        return round_trip(v, [](auto& s, float& x) { return serialize_quantized(s, x, -1.0f, 1.0f, 0.01f); });
    };
    EXPECT_EQ(enc(std::numeric_limits<float>::infinity()).out, 1.0f);
    EXPECT_EQ(enc(-std::numeric_limits<float>::infinity()).out, -1.0f);
    EXPECT_EQ(enc(std::numeric_limits<float>::quiet_NaN()).out, -1.0f);
    EXPECT_EQ(enc(5.0f).out, 1.0f);
    const auto zero = enc(0.0f);
    EXPECT_TRUE(zero.consistent());
    EXPECT_NEAR(zero.out, 0.0f, 1e-6f);
    EXPECT_EQ(zero.written_bits, 8u);  // 200 steps
}

TEST(SerializeQuantized, RangeNotAMultipleOfResolutionClampsTheLastStep) {
    // [0, 1] at 0.3: steps 0, 0.3, 0.6, 0.9, and 1.0 (clamped 1.2).
    const auto r =
        round_trip(0.97f, [](auto& s, float& x) { return serialize_quantized(s, x, 0.0f, 1.0f, 0.3f); });
    EXPECT_TRUE(r.consistent());
    EXPECT_EQ(r.out, 1.0f);
    EXPECT_EQ(r.written_bits, 3u);
}

// Distance around the circle.
double angular_distance(double a, double b) {
    double d = std::fmod(std::fabs(a - b), 2.0 * std::numbers::pi);
    return std::min(d, 2.0 * std::numbers::pi - d);
}

RC_GTEST_PROP(SerializeAngle, ErrorWithinHalfStepAndWrapped, ()) {
    const int bits = *rc::gen::inRange(1, 33);
    const float a = gen_float(-2000000, 2000001, 0.00001f);  // about +-20 rad: several turns
    const auto r = round_trip(a, [&](auto& s, float& x) { return serialize_angle(s, x, bits); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.written_bits == static_cast<std::size_t>(bits));
    RC_ASSERT(r.out >= -kPiF);
    RC_ASSERT(r.out < kPiF);
    const double bound = std::numbers::pi / std::ldexp(1.0, bits) + 8.0 * kFloatEps * (1.0 + std::fabs(a));
    RC_ASSERT(angular_distance(r.out, a) <= bound);
}

TEST(SerializeAngle, WrapsIntoMinusPiToPi) {
    EXPECT_NEAR(wrap_angle(3.0f * std::numbers::pi_v<float>), -std::numbers::pi_v<float>, 1e-5f);
    EXPECT_NEAR(wrap_angle(-0.5f + 4.0f * std::numbers::pi_v<float>), -0.5f, 1e-5f);
    EXPECT_LT(wrap_angle(std::numbers::pi_v<float>), kPiF);
    EXPECT_EQ(wrap_angle(std::numeric_limits<float>::quiet_NaN()), 0.0f);
    const auto r = round_trip(std::numeric_limits<float>::infinity(),
                              [](auto& s, float& x) { return serialize_angle(s, x, 10); });
    EXPECT_NEAR(r.out, 0.0f, 1e-6f);
}

Quat normalized(Quat q) {
    const double n = std::sqrt(double{q.x} * q.x + double{q.y} * q.y + double{q.z} * q.z + double{q.w} * q.w);
    return {static_cast<float>(q.x / n), static_cast<float>(q.y / n), static_cast<float>(q.z / n),
            static_cast<float>(q.w / n)};
}

RC_GTEST_PROP(SerializeUnitQuat, RoundTripsWithinBound, ()) {
    const int bits = *rc::gen::inRange(kMinQuatBits, kMaxQuatBits + 1);
    Quat q{gen_float(-1000, 1001, 0.001f), gen_float(-1000, 1001, 0.001f), gen_float(-1000, 1001, 0.001f),
           gen_float(-1000, 1001, 0.001f)};
    RC_PRE(std::fabs(q.x) + std::fabs(q.y) + std::fabs(q.z) + std::fabs(q.w) > 0.01f);
    q = normalized(q);
    const auto r = round_trip(q, [&](auto& s, Quat& x) { return serialize_unit_quat(s, x, bits); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.written_bits == static_cast<std::size_t>(2 + 3 * bits));
    const Quat& d = r.out;
    const double norm =
        std::sqrt(double{d.x} * d.x + double{d.y} * d.y + double{d.z} * d.z + double{d.w} * d.w);
    RC_ASSERT(std::fabs(norm - 1.0) < 1e-6);
    // q and -q are the same rotation: align signs before comparing components.
    const double dot = double{q.x} * d.x + double{q.y} * d.y + double{q.z} * d.z + double{q.w} * d.w;
    const double sign = dot < 0 ? -1.0 : 1.0;
    const double bound = 3.0 * smallest_three_half_step(bits) + 1e-6;
    RC_ASSERT(std::fabs(sign * d.x - q.x) <= bound);
    RC_ASSERT(std::fabs(sign * d.y - q.y) <= bound);
    RC_ASSERT(std::fabs(sign * d.z - q.z) <= bound);
    RC_ASSERT(std::fabs(sign * d.w - q.w) <= bound);
}

TEST(SerializeUnitQuat, IdentityIsExactAndDegenerateInputEncodesIdentity) {
    auto rt = [](Quat q) {
        return round_trip(q, [](auto& s, Quat& x) { return serialize_unit_quat(s, x, 9); }).out;
    };
    EXPECT_EQ(rt(Quat{0, 0, 0, 1}), (Quat{0, 0, 0, 1}));
    EXPECT_EQ(rt(Quat{0, 0, 0, -1}), (Quat{0, 0, 0, 1}));  // sign normalized
    EXPECT_EQ(rt(Quat{0, 0, 0, 0}), (Quat{0, 0, 0, 1}));
    EXPECT_EQ(rt(Quat{std::numeric_limits<float>::quiet_NaN(), 0, 0, 1}), (Quat{0, 0, 0, 1}));
    EXPECT_EQ(rt(Quat{0, 2, 0, 0}), (Quat{0, 1, 0, 0}));  // normalized before encoding
}

}  // namespace
}  // namespace rwd::wire
