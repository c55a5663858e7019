/// Shared helpers of the range coder tests: random schemas of mixed fields, the measure bound, heap streams.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include <rewind/wire/context.hpp>
#include <rewind/wire/range_coder.hpp>
#include <rewind/wire/serialize.hpp>

namespace rwd::wire::range_test {

static_assert(BitStream<RangeWriteStream> && BitStream<RangeReadStream> && BitStream<RangeMeasureStream>);

using Bytes = std::vector<std::uint8_t>;

// A deterministic generator for the fixed (non-property) inputs.
struct XorShift {
    std::uint32_t x = 0x9E3779B9u;
    std::uint32_t next() {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        return x;
    }
    bool chance(std::uint32_t percent) { return next() % 100 < percent; }
};

enum class Kind : int { bits, integer, relative, boolean, varint, context, align, uniform };
constexpr int kKinds = 8;

// One field of a schema: its kind and parameters (shared by writer and reader) and its value.
struct Field {
    Kind kind = Kind::bits;
    int width = 0;
    std::int64_t lo = 0, hi = 0;
    std::int32_t reference = 0;
    std::uint32_t group = 0;
    std::uint64_t u = 0;  // bits, varint
    std::int64_t i = 0;   // integer
    std::int32_t r = 0;   // relative
    bool b = false;       // boolean
};

template <class Stream>
bool serialize_field(Stream& s, Field& f) {
    switch (f.kind) {
        case Kind::bits: {
            auto v = static_cast<std::uint32_t>(f.u);
            if (!serialize_bits(s, v, f.width)) return false;
            f.u = v;
            return true;
        }
        case Kind::integer:
            return serialize_int(s, f.i, f.lo, f.hi);
        case Kind::relative:
            return serialize_relative(s, f.reference, f.r);
        case Kind::boolean:
            return serialize_bool(s, f.b);
        case Kind::varint:
            return serialize_varint(s, f.u);
        case Kind::context:
            set_context(s, f.group);
            return s.ok();
        case Kind::align:
            return serialize_align(s);
        case Kind::uniform: {
            auto v = static_cast<std::uint32_t>(f.u);
            if (!serialize_uniform_bits(s, v, f.width)) return false;
            f.u = v;
            return true;
        }
    }
    return false;
}

template <class Stream>
bool serialize_schema(Stream& s, std::vector<Field>& fields) {
    for (Field& f : fields) {
        if (!serialize_field(s, f)) return false;
    }
    return s.ok();
}

// The schema with every value cleared: what a reader starts from.
inline std::vector<Field> blank(std::vector<Field> fields) {
    for (Field& f : fields) {
        f.u = 0;
        f.i = 0;
        f.r = 0;
        f.b = false;
    }
    return fields;
}

inline bool same_values(const std::vector<Field>& a, const std::vector<Field>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if (a[k].u != b[k].u || a[k].i != b[k].i || a[k].r != b[k].r || a[k].b != b[k].b) return false;
    }
    return true;
}

// A random field; with `skewed`, most values are small (what the range coder is for).
inline Field random_field(bool skewed) {
    Field f;
    f.kind = static_cast<Kind>(*rc::gen::inRange(0, kKinds));
    const bool small = skewed && *rc::gen::inRange(0, 10) < 8;
    switch (f.kind) {
        case Kind::bits:
        case Kind::uniform:
            f.width = *rc::gen::inRange(0, 33);
            f.u = small ? *rc::gen::inRange<std::uint32_t>(0, 4) : *rc::gen::arbitrary<std::uint32_t>();
            if (f.width < 32) f.u &= (std::uint64_t{1} << f.width) - 1;
            break;
        case Kind::integer: {
            f.lo = *rc::gen::arbitrary<std::int64_t>();
            f.hi = *rc::gen::arbitrary<std::int64_t>();
            if (f.hi < f.lo) std::swap(f.lo, f.hi);
            const std::uint64_t range = static_cast<std::uint64_t>(f.hi) - static_cast<std::uint64_t>(f.lo);
            std::uint64_t offset =
                small ? *rc::gen::inRange<std::uint64_t>(0, 3) : *rc::gen::arbitrary<std::uint64_t>();
            if (range != std::numeric_limits<std::uint64_t>::max()) offset %= range + 1;
            f.i = static_cast<std::int64_t>(static_cast<std::uint64_t>(f.lo) + offset);
            break;
        }
        case Kind::relative: {
            f.reference = *rc::gen::arbitrary<std::int32_t>();
            const std::int64_t delta = small ? *rc::gen::inRange(-3, 4) : *rc::gen::arbitrary<std::int32_t>();
            f.r = static_cast<std::int32_t>(
                std::clamp<std::int64_t>(std::int64_t{f.reference} + delta, INT32_MIN, INT32_MAX));
            break;
        }
        case Kind::boolean:
            f.b = skewed ? *rc::gen::inRange(0, 20) == 0 : *rc::gen::arbitrary<bool>();
            break;
        case Kind::varint:
            f.u = small ? *rc::gen::inRange<std::uint64_t>(0, 10) : *rc::gen::arbitrary<std::uint64_t>();
            break;
        case Kind::context:
            f.group = *rc::gen::inRange<std::uint32_t>(0, 40);  // beyond kRangeGroups: wraps
            break;
        case Kind::align:
            break;
    }
    return f;
}

inline std::vector<Field> random_schema() {
    const bool skewed = *rc::gen::arbitrary<bool>();
    const int n = *rc::gen::inRange(0, 150);
    std::vector<Field> fields;
    for (int k = 0; k < n; ++k) fields.push_back(random_field(skewed));
    return fields;
}

// The documented bound between RangeMeasureStream::bits_used() (B) and the real size.
inline bool within_measure_bound(std::size_t real_bits, std::size_t b, std::size_t coded) {
    return real_bits + b / 128 + coded / 8192 + 1 >= b && real_bits <= b + 8 + coded / 2048;
}

// Streams are ~88 KiB each: keep them off the test's stack.
template <class Stream, class... Args>
std::unique_ptr<Stream> make(Args&&... args) {
    return std::make_unique<Stream>(std::forward<Args>(args)...);
}

}  // namespace rwd::wire::range_test
