/// The serialize helpers: one template per encoding, the same code path for write, read and measure.
#pragma once

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <rewind/core/result.hpp>
#include <rewind/wire/detail/always_inline.hpp>
#include <rewind/wire/quantize.hpp>
#include <rewind/wire/quat.hpp>
#include <rewind/wire/stream.hpp>

namespace rwd::wire {

/// Bits needed to send any value in 0..range (0 when range is 0).
constexpr int bits_required(std::uint64_t range) { return static_cast<int>(std::bit_width(range)); }

/// A WriteStream, ReadStream or MeasureStream.
template <class S>
concept BitStream = requires(S& s, std::uint32_t& v, int bits, Errc e) {
    { S::is_writing } -> std::convertible_to<bool>;
    { S::is_reading } -> std::convertible_to<bool>;
    { S::is_measuring } -> std::convertible_to<bool>;
    { s.serialize_bits(v, bits) } -> std::same_as<bool>;
    { s.ok() } -> std::same_as<bool>;
    { s.error() } -> std::same_as<Errc>;
    s.fail(e);
    { s.bits_used() } -> std::same_as<std::size_t>;
    { s.bits_remaining() } -> std::same_as<std::size_t>;
};

namespace detail {

/// 0..64 bits of a uint64, low 32 bits first. Writing a value that does not fit fails.
template <BitStream Stream>
RWD_ALWAYS_INLINE bool serialize_u64_bits(Stream& s, std::uint64_t& v, int bits) {
    if (!s.ok()) return false;
    if (bits < 0 || bits > 64) return s.fail(Errc::invalid_argument), false;
    if constexpr (!Stream::is_reading) {
        if (bits < 64 && (v >> bits) != 0) return s.fail(Errc::value_out_of_range), false;
    }
    const int lo_bits = bits < 32 ? bits : 32;
    const int hi_bits = bits - lo_bits;
    std::uint32_t lo = Stream::is_reading ? 0u : static_cast<std::uint32_t>(v);
    std::uint32_t hi = Stream::is_reading ? 0u : static_cast<std::uint32_t>(v >> 32);
    if (!s.serialize_bits(lo, lo_bits)) return false;
    if (hi_bits > 0 && !s.serialize_bits(hi, hi_bits)) return false;
    if constexpr (Stream::is_reading) v = (std::uint64_t{hi} << 32) | lo;
    return true;
}

/// LEB128 inside the bit stream: 8-bit groups, low 7 bits payload, bit 7 set when more follow. The
/// reader rejects a zero final group (over-long) and more than `max_groups` groups (Errc::malformed),
/// and payload bits beyond 64 (Errc::value_out_of_range).
template <BitStream Stream>
bool serialize_varint_groups(Stream& s, std::uint64_t& v, int max_groups) {
    if constexpr (!Stream::is_reading) {
        std::uint64_t rest = v;
        do {
            std::uint32_t group = static_cast<std::uint32_t>(rest & 0x7F);
            rest >>= 7;
            if (rest != 0) group |= 0x80;
            if (!s.serialize_bits(group, 8)) return false;
        } while (rest != 0);
        return true;
    } else {
        std::uint64_t result = 0;
        for (int i = 0; i < max_groups; ++i) {
            std::uint32_t group = 0;
            if (!s.serialize_bits(group, 8)) return false;
            const std::uint64_t payload = group & 0x7F;
            const int shift = 7 * i;
            if (shift > 57 && (payload >> (64 - shift)) != 0) {
                return s.fail(Errc::value_out_of_range), false;  // bits past 2^63
            }
            result |= payload << shift;
            if ((group & 0x80) == 0) {
                if (payload == 0 && i > 0) return s.fail(Errc::malformed), false;  // over-long
                v = result;
                return true;
            }
        }
        return s.fail(Errc::malformed), false;  // too many groups
    }
}

/// The relative-integer buckets: a delta in [lo, hi] is sent in `bits` bits as delta - lo.
struct RelativeBucket {
    int bits;
    std::int64_t lo;
    std::int64_t hi;
};
inline constexpr RelativeBucket kRelativeBuckets[3] = {{4, -8, 7}, {8, -128, 127}, {16, -32768, 32767}};

/// The smallest bucket holding `delta`, or 3 for the full-value fallback.
constexpr int relative_bucket(std::int64_t delta) {
    for (int b = 0; b < 3; ++b) {
        if (delta >= kRelativeBuckets[b].lo && delta <= kRelativeBuckets[b].hi) return b;
    }
    return 3;
}

/// A byte container (vector<uint8_t> or string): length in bits_required(max_len) bits, then bytes.
template <BitStream Stream, class Container>
bool serialize_byte_container(Stream& s, Container& v, std::size_t max_len) {
    using Byte = typename Container::value_type;
    std::uint64_t len = Stream::is_reading ? 0 : v.size();
    if constexpr (!Stream::is_reading) {
        if (len > max_len) return s.fail(Errc::length_too_long), false;
    }
    if (!serialize_u64_bits(s, len, bits_required(max_len))) return false;
    if constexpr (Stream::is_reading) {
        // The length is attacker-controlled: check it against the declared maximum and against the
        // data actually left BEFORE allocating, so a 3-byte packet cannot make us reserve gigabytes.
        if (len > max_len || len > s.bits_remaining() / 8) return s.fail(Errc::length_too_long), false;
        v.resize(static_cast<std::size_t>(len));
    }
    const auto n = static_cast<std::size_t>(len);
    std::size_t i = 0;
    // Four bytes as one 32-bit field: the stream is LSB-first, so the bits are identical to four
    // 8-bit fields.
    for (; i + 4 <= n; i += 4) {
        std::uint32_t word = 0;
        if constexpr (!Stream::is_reading) {
            for (int k = 0; k < 4; ++k) {
                word |= std::uint32_t{static_cast<std::uint8_t>(v[i + k])} << (8 * k);
            }
        }
        if (!s.serialize_bits(word, 32)) return false;
        if constexpr (Stream::is_reading) {
            for (int k = 0; k < 4; ++k)
                v[i + k] = static_cast<Byte>(static_cast<std::uint8_t>(word >> (8 * k)));
        }
    }
    for (; i < n; ++i) {
        std::uint32_t byte = Stream::is_reading ? 0u : std::uint32_t{static_cast<std::uint8_t>(v[i])};
        if (!s.serialize_bits(byte, 8)) return false;
        if constexpr (Stream::is_reading) v[i] = static_cast<Byte>(static_cast<std::uint8_t>(byte));
    }
    return true;
}

}  // namespace detail

/// `bits` raw bits (0..32).
template <BitStream Stream>
RWD_ALWAYS_INLINE bool serialize_bits(Stream& s, std::uint32_t& v, int bits) {
    s.serialize_bits(v, bits);
    return s.ok();
}

/// One bit.
template <BitStream Stream>
RWD_ALWAYS_INLINE bool serialize_bool(Stream& s, bool& v) {
    std::uint32_t bit = 0;
    if constexpr (!Stream::is_reading) bit = v ? 1u : 0u;
    if (!s.serialize_bits(bit, 1)) return false;
    if constexpr (Stream::is_reading) v = bit != 0;
    return s.ok();
}

/// An integer in [min, max], sent as v - min in bits_required(max - min) bits. Reading an offset above
/// max - min, or writing a value outside [min, max], fails with Errc::value_out_of_range; min > max
/// fails with Errc::invalid_argument.
template <BitStream Stream, std::integral T>
requires(!std::same_as<T, bool>) RWD_ALWAYS_INLINE
    bool serialize_int(Stream& s, T& v, std::type_identity_t<T> min, std::type_identity_t<T> max) {
    if (!s.ok()) return false;
    if (max < min) return s.fail(Errc::invalid_argument), false;
    if constexpr (sizeof(T) <= 4) {
        // At most 32 bits: one stream call, no 64-bit split (the same bits as the general path below).
        const std::uint32_t range = static_cast<std::uint32_t>(max) - static_cast<std::uint32_t>(min);
        std::uint32_t offset = 0;
        if constexpr (!Stream::is_reading) {
            if (v < min || v > max) return s.fail(Errc::value_out_of_range), false;
            offset = static_cast<std::uint32_t>(v) - static_cast<std::uint32_t>(min);
        }
        if (!s.serialize_bits(offset, bits_required(range))) return false;
        if constexpr (Stream::is_reading) {
            if (offset > range) return s.fail(Errc::value_out_of_range), false;
            v = static_cast<T>(static_cast<std::uint32_t>(min) + offset);
        }
        return true;
    }
    // Unsigned arithmetic modulo 2^64 gives the right offset for signed and unsigned T alike.
    const std::uint64_t range = static_cast<std::uint64_t>(max) - static_cast<std::uint64_t>(min);
    std::uint64_t offset = 0;
    if constexpr (!Stream::is_reading) {
        if (v < min || v > max) return s.fail(Errc::value_out_of_range), false;
        offset = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(min);
    }
    if (!detail::serialize_u64_bits(s, offset, bits_required(range))) return false;
    if constexpr (Stream::is_reading) {
        if (offset > range) return s.fail(Errc::value_out_of_range), false;
        v = static_cast<T>(static_cast<std::uint64_t>(min) + offset);
    }
    return s.ok();
}

/// A full 64-bit value (64 bits, low half first).
template <BitStream Stream>
bool serialize_uint64(Stream& s, std::uint64_t& v) {
    detail::serialize_u64_bits(s, v, 64);
    return s.ok();
}

/// A variable-length uint64: 1..10 LEB128 groups of 8 bits (7 payload bits + continuation bit).
template <BitStream Stream>
bool serialize_varint(Stream& s, std::uint64_t& v) {
    if (!s.ok()) return false;
    detail::serialize_varint_groups(s, v, 10);
    return s.ok();
}

/// A variable-length uint32: 1..5 LEB128 groups; a decoded value above 2^32 - 1 is value_out_of_range.
template <BitStream Stream>
bool serialize_varint(Stream& s, std::uint32_t& v) {
    if (!s.ok()) return false;
    std::uint64_t wide = 0;
    if constexpr (!Stream::is_reading) wide = v;
    if (!detail::serialize_varint_groups(s, wide, 5)) return false;
    if constexpr (Stream::is_reading) {
        if (wide > 0xFFFFFFFFu) return s.fail(Errc::value_out_of_range), false;
        v = static_cast<std::uint32_t>(wide);
    }
    return s.ok();
}

/// An int32 sent relative to `reference` (both sides know it). With d = v - reference:
///   `0`   + 4 bits  (d + 8)       if d in [-8, 7]            -> 5 bits
///   `10`  + 8 bits  (d + 128)     if d in [-128, 127]        -> 10 bits
///   `110` + 16 bits (d + 32768)   if d in [-32768, 32767]    -> 19 bits
///   `111` + 32 bits v itself (two's complement)               -> 35 bits
/// Prefix bits are read one at a time, first bit first. The writer always picks the smallest bucket and
/// the reader rejects any other choice (Errc::malformed), so every value has exactly one encoding.
template <BitStream Stream>
bool serialize_relative(Stream& s, std::int32_t reference, std::int32_t& v) {
    if (!s.ok()) return false;
    const std::int64_t delta = Stream::is_reading ? 0 : std::int64_t{v} - reference;
    int bucket = Stream::is_reading ? 0 : detail::relative_bucket(delta);
    int b = 0;
    while (b < 3) {
        std::uint32_t more = b < bucket ? 1u : 0u;
        if (!s.serialize_bits(more, 1)) return false;
        if (more == 0) break;
        ++b;
    }
    bucket = b;
    std::int64_t decoded = 0;
    if (bucket < 3) {
        const detail::RelativeBucket& k = detail::kRelativeBuckets[bucket];
        std::uint32_t payload = Stream::is_reading ? 0u : static_cast<std::uint32_t>(delta - k.lo);
        if (!s.serialize_bits(payload, k.bits)) return false;
        decoded = reference + k.lo + std::int64_t{payload};
    } else {
        std::uint32_t raw = Stream::is_reading ? 0u : static_cast<std::uint32_t>(v);
        if (!s.serialize_bits(raw, 32)) return false;
        decoded = static_cast<std::int32_t>(raw);
    }
    if constexpr (Stream::is_reading) {
        if (decoded < INT32_MIN || decoded > INT32_MAX) return s.fail(Errc::value_out_of_range), false;
        if (detail::relative_bucket(decoded - reference) != bucket) return s.fail(Errc::malformed), false;
        v = static_cast<std::int32_t>(decoded);
    }
    return s.ok();
}

/// A float in [min, max] rounded to the nearest multiple of `resolution` above min, sent in
/// bits_required(quantized_max_step(...)) bits. Error bound: |decoded - clamp(v)| <= resolution / 2
/// (plus float rounding). On write, out-of-range values clamp, -inf/NaN become min, +inf max; decoded
/// values always lie in [min, max]. Bad parameters fail with Errc::invalid_argument.
template <BitStream Stream>
bool serialize_quantized(Stream& s, float& v, float min, float max, float resolution) {
    if (!s.ok()) return false;
    const Result<std::uint32_t> max_step = quantized_max_step(min, max, resolution);
    if (!max_step) return s.fail(Errc::invalid_argument), false;
    std::uint32_t step = 0;
    if constexpr (!Stream::is_reading) step = quantize_float(v, min, max, resolution, *max_step);
    if (!s.serialize_bits(step, bits_required(*max_step))) return false;
    if constexpr (Stream::is_reading) {
        if (step > *max_step) return s.fail(Errc::value_out_of_range), false;
        v = dequantize_float(step, min, max, resolution);
    }
    return s.ok();
}

/// An angle in `bits` bits (1..32): wrapped to [-pi, pi), rounded to the nearest of 2^bits steps of
/// 2*pi / 2^bits. Error bound (around the circle): pi / 2^bits, plus float rounding. Non-finite -> 0.
template <BitStream Stream>
bool serialize_angle(Stream& s, float& radians, int bits) {
    if (!s.ok()) return false;
    if (bits < 1 || bits > 32) return s.fail(Errc::invalid_argument), false;
    std::uint32_t step = Stream::is_reading ? 0u : quantize_angle(radians, bits);
    if (!s.serialize_bits(step, bits)) return false;
    if constexpr (Stream::is_reading) radians = dequantize_angle(step, bits);
    return s.ok();
}

/// A unit quaternion as "smallest three": 2 bits for the index of the largest component, then the
/// other three in x, y, z, w order, each in `bits_per_component` bits (kMinQuatBits..kMaxQuatBits)
/// over [-1/sqrt2, 1/sqrt2]. The decoded quaternion is renormalized with a non-negative largest
/// component (the same rotation). A component step of 2^bits - 1 is invalid (Errc::value_out_of_range).
template <BitStream Stream>
bool serialize_unit_quat(Stream& s, Quat& q, int bits_per_component) {
    if (!s.ok()) return false;
    if (bits_per_component < kMinQuatBits || bits_per_component > kMaxQuatBits) {
        return s.fail(Errc::invalid_argument), false;
    }
    SmallestThree code;
    if constexpr (!Stream::is_reading) code = encode_smallest_three(q, bits_per_component);
    if (!s.serialize_bits(code.largest, 2)) return false;
    for (std::uint32_t& step : code.steps) {
        if (!s.serialize_bits(step, bits_per_component)) return false;
    }
    if constexpr (Stream::is_reading) {
        const std::uint32_t max_step = smallest_three_max_step(bits_per_component);
        for (std::uint32_t step : code.steps) {
            if (step > max_step) return s.fail(Errc::value_out_of_range), false;
        }
        q = decode_smallest_three(code, bits_per_component);
    }
    return s.ok();
}

/// A byte string of at most `max_len` bytes: its length in bits_required(max_len) bits, then the
/// bytes, 8 bits each. A length over max_len, or (reading) over the bytes left, fails with
/// Errc::length_too_long before anything is allocated.
template <BitStream Stream>
bool serialize_bytes(Stream& s, std::vector<std::uint8_t>& v, std::size_t max_len) {
    if (!s.ok()) return false;
    detail::serialize_byte_container(s, v, max_len);
    return s.ok();
}

/// A string of at most `max_len` bytes, encoded exactly like serialize_bytes (no charset check).
template <BitStream Stream>
bool serialize_string(Stream& s, std::string& v, std::size_t max_len) {
    if (!s.ok()) return false;
    detail::serialize_byte_container(s, v, max_len);
    return s.ok();
}

/// Zero bits up to the next byte boundary; the reader rejects non-zero padding (Errc::malformed).
template <BitStream Stream>
bool serialize_align(Stream& s) {
    if (!s.ok()) return false;
    const int pad = static_cast<int>((8 - s.bits_used() % 8) % 8);
    std::uint32_t zero = 0;
    if (!s.serialize_bits(zero, pad)) return false;
    if constexpr (Stream::is_reading) {
        if (zero != 0) return s.fail(Errc::malformed), false;
    }
    return s.ok();
}

/// An enum whose values are 0..max_value, sent like serialize_int on its underlying type.
template <BitStream Stream, class E>
requires std::is_enum_v<E>
bool serialize_enum(Stream& s, E& v, std::type_identity_t<E> max_value) {
    using U = std::underlying_type_t<E>;
    U u = Stream::is_reading ? U{0} : static_cast<U>(v);
    if (!serialize_int(s, u, U{0}, static_cast<U>(max_value))) return false;
    if constexpr (Stream::is_reading) v = static_cast<E>(u);
    return s.ok();
}

}  // namespace rwd::wire
