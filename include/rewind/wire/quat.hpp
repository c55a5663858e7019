/// Quat and its "smallest three" quantization, used by serialize_unit_quat.
#pragma once

#include <cstdint>

namespace rwd::wire {

/// A rotation as a unit quaternion (x, y, z, w); q and -q are the same rotation.
struct Quat {
    float x = 0.0f;  ///< vector part x
    float y = 0.0f;  ///< vector part y
    float z = 0.0f;  ///< vector part z
    float w = 1.0f;  ///< scalar part
    /// Exact component-wise equality.
    friend bool operator==(const Quat&, const Quat&) = default;
};

/// A quaternion quantized as "smallest three": the index of the largest-magnitude component (whose
/// sign is made positive) and the other three, in x, y, z, w order, as steps over [-1/sqrt2, 1/sqrt2].
struct SmallestThree {
    std::uint32_t largest = 3;           ///< 0..3: which of x, y, z, w was dropped
    std::uint32_t steps[3] = {0, 0, 0};  ///< 0..smallest_three_max_step(bits) each
};

/// Bits per component accepted by the smallest-three helpers.
inline constexpr int kMinQuatBits = 2;
/// Bits per component accepted by the smallest-three helpers.
inline constexpr int kMaxQuatBits = 31;

/// The highest valid step for `bits` per component: 2^bits - 2 (an even count of intervals, so that 0
/// is exact; the all-ones code is invalid).
constexpr std::uint32_t smallest_three_max_step(int bits) {
    return static_cast<std::uint32_t>((std::uint64_t{1} << bits) - 2);
}

/// Encodes `q` (normalized first; zero-length or non-finite input encodes the identity).
[[nodiscard]] SmallestThree encode_smallest_three(const Quat& q, int bits);

/// Decodes a code (steps must be <= smallest_three_max_step(bits)); the result is renormalized and
/// its largest component is non-negative. Each component is within 3 * smallest_three_half_step(bits) of the
/// (sign-aligned, normalized) input, plus float rounding.
[[nodiscard]] Quat decode_smallest_three(const SmallestThree& code, int bits);

/// Half a quantization step for `bits` per component: (1/sqrt2) / (2^bits - 2).
[[nodiscard]] double smallest_three_half_step(int bits);

}  // namespace rwd::wire
