/// 16-bit wrapping sequence numbers (packets, acks): wrap-aware comparison and difference.
#pragma once

#include <cstdint>

namespace rwd {

/// A 16-bit sequence number as carried on the wire.
using Seq16 = std::uint16_t;

/// True when `a` is after `b` going the short way round the 16-bit circle.
constexpr bool seq_greater(Seq16 a, Seq16 b) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(a - b)) > 0;
}
/// True when `a` is before `b` going the short way round the 16-bit circle.
constexpr bool seq_less(Seq16 a, Seq16 b) { return seq_greater(b, a); }
/// Signed distance a - b on the 16-bit circle, in [-32768, 32767].
constexpr std::int32_t seq_diff(Seq16 a, Seq16 b) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(a - b));
}

}  // namespace rwd
