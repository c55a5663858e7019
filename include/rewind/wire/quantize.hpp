/// Float quantization used by serialize_quantized and serialize_angle: values to integer steps and back.
#pragma once

#include <cstdint>

#include <rewind/core/result.hpp>

namespace rwd::wire {

/// pi rounded to float (3.14159274f, a hair above pi): decoded angles lie in [-kPiF, kPiF).
inline constexpr float kPiF = 3.14159265358979323846f;

/// The highest step index for [min, max] at `resolution` (steps are min + i * resolution, the last
/// one clamped to max). Errc::invalid_argument unless min < max, resolution > 0, all finite, and the
/// step count fits in 32 bits.
[[nodiscard]] Result<std::uint32_t> quantized_max_step(float min, float max, float resolution);

/// The step whose decoded value is nearest to `value` (clamped to [min, max]; NaN counts as min).
[[nodiscard]] std::uint32_t quantize_float(float value, float min, float max, float resolution,
                                           std::uint32_t max_step);

/// The value of step `step`: min + step * resolution; the last step (max_step) is exactly max.
[[nodiscard]] float dequantize_float(std::uint32_t step, float min, float max, float resolution);

/// `radians` wrapped into [-pi, pi); non-finite input gives 0.
[[nodiscard]] float wrap_angle(float radians);

/// The nearest of 2^bits evenly spaced angles (bits 1..32), step 0 being -pi.
[[nodiscard]] std::uint32_t quantize_angle(float radians, int bits);

/// The angle of step `step` of 2^bits, in [-kPiF, kPiF).
[[nodiscard]] float dequantize_angle(std::uint32_t step, int bits);

}  // namespace rwd::wire
