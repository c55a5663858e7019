// Float and angle quantization: the arithmetic is done in double so the stated bounds hold for floats.
#include <rewind/wire/quantize.hpp>

#include <cmath>
#include <numbers>

namespace rwd::wire {

namespace {
constexpr double kTwoPi = 2.0 * std::numbers::pi;
// Tolerance on (max - min) / resolution, so a range that is a whole number of steps up to float
// rounding (e.g. 1.0 / 0.1f) does not get one extra, nearly empty step.
constexpr double kStepSlack = 1e-6;
}  // namespace

Result<std::uint32_t> quantized_max_step(float min, float max, float resolution) {
    if (!std::isfinite(min) || !std::isfinite(max) || !std::isfinite(resolution) || !(min < max) ||
        !(resolution > 0.0f)) {
        return Error{Errc::invalid_argument, "quantized range needs finite min < max and resolution > 0"};
    }
    const double steps = std::ceil((double{max} - double{min}) / double{resolution} - kStepSlack);
    if (steps > 4294967295.0) return Error{Errc::invalid_argument, "quantized range needs > 32 bits"};
    return steps < 1.0 ? std::uint32_t{1} : static_cast<std::uint32_t>(steps);
}

std::uint32_t quantize_float(float value, float min, float max, float resolution, std::uint32_t max_step) {
    double v = value;
    if (std::isnan(v) || v < min) v = min;  // NaN and -inf clamp to min
    if (v > max) v = max;                   // +inf clamps to max
    const double t = std::nearbyint((v - double{min}) / double{resolution});
    if (t <= 0.0) return 0;
    if (t >= static_cast<double>(max_step)) return max_step;
    const auto step = static_cast<std::uint32_t>(t);
    // The last step decodes to max, which may be nearer than step min + step * resolution.
    if (step + 1 == max_step && double{max} - v < v - (double{min} + t * double{resolution})) return max_step;
    return step;
}

float dequantize_float(std::uint32_t step, float min, float max, float resolution) {
    double v = double{min} + static_cast<double>(step) * double{resolution};
    // The last step (and anything beyond) is max exactly, so a range's ends survive a round trip.
    if (v >= double{max} - kStepSlack * double{resolution}) v = max;
    // min and max are floats, so rounding v (within [min, max]) to float stays within [min, max].
    return static_cast<float>(v);
}

float wrap_angle(float radians) {
    if (!std::isfinite(radians)) return 0.0f;
    const double a = radians;
    double w = a - kTwoPi * std::floor((a + std::numbers::pi) / kTwoPi);
    if (w >= std::numbers::pi) w -= kTwoPi;
    auto f = static_cast<float>(w);
    if (f >= kPiF) f = std::nextafter(kPiF, 0.0f);
    return f;
}

std::uint32_t quantize_angle(float radians, int bits) {
    if (!std::isfinite(radians)) radians = 0.0f;
    const double a = radians;
    const double turns = (a + std::numbers::pi) / kTwoPi;  // any real; only the fraction matters
    const double frac = turns - std::floor(turns);         // [0, 1]
    const double scale = std::ldexp(1.0, bits);
    const auto step = static_cast<std::uint64_t>(std::nearbyint(frac * scale));
    return static_cast<std::uint32_t>(step & ((std::uint64_t{1} << bits) - 1));  // 2^bits wraps to 0
}

float dequantize_angle(std::uint32_t step, int bits) {
    const double a = -std::numbers::pi + static_cast<double>(step) * kTwoPi / std::ldexp(1.0, bits);
    auto f = static_cast<float>(a);
    if (f >= kPiF) f = std::nextafter(kPiF, 0.0f);  // the last steps may round up to float(pi)
    return f;
}

}  // namespace rwd::wire
