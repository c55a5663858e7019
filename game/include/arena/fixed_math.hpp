/// Integer-only math for the simulation: square root, sine/cosine and atan2 on 16-bit angles.
#pragma once

#include <cstdint>

namespace arena {

/// Fixed-point one for sin_q14/cos_q14 results.
inline constexpr std::int32_t kTrigOne = 1 << 14;

/// floor(sqrt(v)), exact for every 64-bit value.
constexpr std::uint64_t isqrt(std::uint64_t v) {
    std::uint64_t result = 0;
    std::uint64_t bit = std::uint64_t{1} << 62u;
    while (bit > v) bit >>= 2u;
    while (bit != 0) {
        if (v >= result + bit) {
            v -= result + bit;
            result = (result >> 1u) + bit;
        } else {
            result >>= 1u;
        }
        bit >>= 2u;
    }
    return result;
}

/// Length of the vector (x, y), rounded down.
constexpr std::int64_t length_of(std::int64_t x, std::int64_t y) {
    return static_cast<std::int64_t>(isqrt(static_cast<std::uint64_t>(x * x + y * y)));
}

/// sin of an angle (65536 = full turn, 0 = +x axis, 16384 = +y axis) in Q14 (16384 = 1.0).
/// Table-based with 16384 steps per turn; the table is computed at compile time with integer arithmetic only.
std::int32_t sin_q14(std::uint16_t angle);
/// cos of an angle (65536 = full turn) in Q14.
std::int32_t cos_q14(std::uint16_t angle);
/// The angle (65536 = full turn) of the vector (x, y), accurate to 1/16384 turn; 0 for the zero vector.
std::uint16_t atan2_angle(std::int64_t y, std::int64_t x);

/// Signed difference a - b between two angles, in [-32768, 32767]: the short way round.
constexpr std::int32_t angle_delta(std::uint16_t a, std::uint16_t b) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(a - b));
}

}  // namespace arena
