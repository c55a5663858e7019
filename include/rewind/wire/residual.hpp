/// wire::serialize_residual(): an int32 sent as its difference from a value both sides predict.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include <rewind/core/result.hpp>
#include <rewind/wire/context.hpp>
#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream.hpp>

namespace rwd::wire {

/// Whether `Stream` models its fields by context (the Range*Stream family): then residuals are coded by
/// magnitude class, which an adaptive model prices close to the residual's real distribution.
template <class Stream>
inline constexpr bool kModelsContext = requires(Stream& s) {
    s.set_context(0u, 0u);
};

/// Model slots serialize_residual() uses in its group: ordinals first..first + kResidualOrdinals - 1.
inline constexpr std::uint32_t kResidualOrdinals = 3 + 33;

/// `v` as d = v - reference. On a context-modelling stream, in model group `group` from ordinal `first`
/// (0..64 - kResidualOrdinals; the ordinals restart for every residual, so every residual of a group shares
/// one model of each part):
///   - ordinal first: the class c = min(n, 15) in 4 bits, n = bit_width(|d|) (0 for d == 0);
///   - ordinal first + 1, when c == 15: n - 15 in 5 bits (n <= 32);
///   - when n > 0: ordinal first + 2: the sign (1: negative), then ordinal first + 3 + n: the top
///     min(n - 1, modelled_bits) bits of |d| below its leading 1 bit (a model per class: a small class's top
///     bits are skewed), then the rest of them as uniform bits (serialize_uniform_bits): pass a small
///     `modelled_bits` (0..32) for a value whose low bits carry no pattern, to code them in fewer steps.
/// One encoding per value: a decoded class above 32, or v outside int32, fails the stream
/// (Errc::malformed, Errc::value_out_of_range). On every other stream it is serialize_relative(), unchanged.
template <BitStream Stream>
bool serialize_residual(Stream& s, std::uint32_t group, std::int32_t reference, std::int32_t& v,
                        std::uint32_t first = 0, int modelled_bits = 32) {
    if constexpr (!kModelsContext<Stream>) {
        (void)group, (void)first, (void)modelled_bits;
        return serialize_relative(s, reference, v);
    } else {
        if (!s.ok()) return false;
        const std::int64_t d = Stream::is_reading ? 0 : std::int64_t{v} - reference;
        const auto magnitude = static_cast<std::uint64_t>(d < 0 ? -d : d);         // < 2^32
        const auto width = static_cast<std::uint32_t>(std::bit_width(magnitude));  // 0 on read
        s.set_context(group, first);
        std::uint32_t n = width < 15 ? width : 15;
        if (!s.serialize_bits(n, 4)) return false;
        if (n == 15) {
            s.set_context(group, first + 1);
            std::uint32_t extra = Stream::is_reading ? 0u : width - 15;
            if (!s.serialize_bits(extra, 5)) return false;
            n = 15 + extra;
            if (n > 32) return s.fail(Errc::malformed), false;
        }
        std::int64_t decoded = 0;
        if (n > 0) {
            s.set_context(group, first + 2);
            std::uint32_t negative = d < 0 ? 1u : 0u;
            if (!s.serialize_bits(negative, 1)) return false;
            s.set_context(group, first + 3 + n);
            // The mantissa's top bits carry the class's skew; the ones below are as good as random.
            const auto width_bits = static_cast<int>(n - 1);
            const int modelled = std::clamp(modelled_bits, 0, width_bits);
            const int uniform = width_bits - modelled;
            const auto mantissa =
                static_cast<std::uint32_t>(magnitude & ((std::uint64_t{1} << width_bits) - 1));
            std::uint32_t top = mantissa >> uniform;
            std::uint32_t low = mantissa & ((std::uint32_t{1} << uniform) - 1);  // uniform <= 31
            if (!s.serialize_bits(top, modelled)) return false;
            if (uniform > 0 && !serialize_uniform_bits(s, low, uniform)) return false;
            const std::int64_t m = static_cast<std::int64_t>((std::uint64_t{1} << width_bits) |
                                                             (std::uint64_t{top} << uniform) | low);
            decoded = negative != 0 ? -m : m;
        }
        if constexpr (Stream::is_reading) {
            const std::int64_t value = std::int64_t{reference} + decoded;
            if (value < INT32_MIN || value > INT32_MAX) return s.fail(Errc::value_out_of_range), false;
            v = static_cast<std::int32_t>(value);
        }
        return s.ok();
    }
}

}  // namespace rwd::wire
