// Random message compositions: measure == write == read exactly, and every truncation fails cleanly.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <rewind/wire/message.hpp>
#include <rewind/wire/serialize.hpp>

namespace rwd::wire {
namespace {

enum class Kind : std::uint8_t {
    bits,
    boolean,
    int_range,
    uint64,
    varint,
    varint32,
    relative,
    quantized,
    angle,
    quat,
    bytes,
    string,
    align,
    enumeration
};
constexpr auto kLastKind = Kind::enumeration;

// One field: its kind, its parameters (shared by writer and reader) and its value.
struct Field {
    Kind kind = Kind::bits;
    int bits = 1;
    std::int64_t lo = 0, hi = 0;
    std::int32_t reference = 0;
    std::size_t max_len = 0;
    std::uint32_t u32 = 0;
    std::int64_t i64 = 0;
    std::uint64_t u64 = 0;
    std::int32_t i32 = 0;
    bool flag = false;
    float f = 0.0f;
    Quat q{};
    std::vector<std::uint8_t> data;
    std::string text;
    Kind e = Kind::bits;
};

template <class Stream>
bool serialize(Stream& s, Field& f) {
    switch (f.kind) {
        case Kind::bits:
            return serialize_bits(s, f.u32, f.bits);
        case Kind::boolean:
            return serialize_bool(s, f.flag);
        case Kind::int_range:
            return serialize_int(s, f.i64, f.lo, f.hi);
        case Kind::uint64:
            return serialize_uint64(s, f.u64);
        case Kind::varint:
            return serialize_varint(s, f.u64);
        case Kind::varint32:
            return serialize_varint(s, f.u32);
        case Kind::relative:
            return serialize_relative(s, f.reference, f.i32);
        case Kind::quantized:
            return serialize_quantized(s, f.f, -10.0f, 10.0f, 0.001f);
        case Kind::angle:
            return serialize_angle(s, f.f, f.bits);
        case Kind::quat:
            return serialize_unit_quat(s, f.q, f.bits);
        case Kind::bytes:
            return serialize_bytes(s, f.data, f.max_len);
        case Kind::string:
            return serialize_string(s, f.text, f.max_len);
        case Kind::align:
            return serialize_align(s);
        case Kind::enumeration:
            return serialize_enum(s, f.e, kLastKind);
    }
    return false;
}

struct Composite {
    std::vector<Field> fields;
};

template <class Stream>
bool serialize(Stream& s, Composite& m) {
    for (Field& f : m.fields) {
        if (!serialize(s, f)) return false;
    }
    return true;
}

Field gen_field() {
    Field f;
    f.kind = static_cast<Kind>(*rc::gen::inRange(0, static_cast<int>(kLastKind) + 1));
    switch (f.kind) {
        case Kind::bits:
            f.bits = *rc::gen::inRange(0, 33);
            f.u32 = *rc::gen::arbitrary<std::uint32_t>();
            if (f.bits < 32) f.u32 &= (std::uint32_t{1} << f.bits) - 1;
            break;
        case Kind::boolean:
            f.flag = *rc::gen::arbitrary<bool>();
            break;
        case Kind::int_range:
            f.lo = *rc::gen::inRange<std::int64_t>(-100000, 100000);
            f.hi = f.lo + *rc::gen::inRange<std::int64_t>(0, 1000000);
            f.i64 = *rc::gen::inRange<std::int64_t>(f.lo, f.hi + 1);
            break;
        case Kind::uint64:
        case Kind::varint:
            f.u64 = *rc::gen::arbitrary<std::uint64_t>() >> *rc::gen::inRange(0, 64);
            break;
        case Kind::varint32:
            f.u32 = *rc::gen::arbitrary<std::uint32_t>() >> *rc::gen::inRange(0, 32);
            break;
        case Kind::relative:
            f.reference = *rc::gen::inRange(-1000000, 1000000);
            f.i32 = f.reference + (*rc::gen::inRange(-40000, 40000) >> *rc::gen::inRange(0, 16));
            break;
        case Kind::quantized:
            f.f = static_cast<float>(*rc::gen::inRange(-12000, 12000)) * 0.001f;
            break;
        case Kind::angle:
            f.bits = *rc::gen::inRange(1, 33);
            f.f = static_cast<float>(*rc::gen::inRange(-7000, 7000)) * 0.001f;
            break;
        case Kind::quat:
            f.bits = *rc::gen::inRange(kMinQuatBits, kMaxQuatBits + 1);
            f.q = {0.5f, -0.5f, static_cast<float>(*rc::gen::inRange(-100, 100)) * 0.01f, 0.5f};
            break;
        case Kind::bytes:
            f.data = *rc::gen::container<std::vector<std::uint8_t>>(*rc::gen::inRange(0, 40),
                                                                    rc::gen::arbitrary<std::uint8_t>());
            f.max_len = f.data.size() + *rc::gen::inRange<std::size_t>(0, 300);
            break;
        case Kind::string:
            f.text = *rc::gen::arbitrary<std::string>();
            f.max_len = f.text.size() + *rc::gen::inRange<std::size_t>(0, 3);
            break;
        case Kind::align:
            break;
        case Kind::enumeration:
            f.e = static_cast<Kind>(*rc::gen::inRange(0, static_cast<int>(kLastKind) + 1));
            break;
    }
    return f;
}

Composite gen_composite() {
    Composite m;
    const int n = *rc::gen::inRange(0, 24);
    for (int i = 0; i < n; ++i) m.fields.push_back(gen_field());
    return m;
}

RC_GTEST_PROP(Composite, MeasureEqualsWriteEqualsRead, ()) {
    Composite m = gen_composite();
    const std::size_t measured = measure_bits(m);
    std::vector<std::uint8_t> buf(8192);
    const auto written = write_message(buf, m);
    RC_ASSERT(written.ok());
    RC_ASSERT(*written == (measured + 7) / 8);
    // A buffer of exactly the measured size is enough; one byte less is not.
    std::vector<std::uint8_t> exact((measured + 7) / 8);
    RC_ASSERT(write_message(exact, m).ok());
    if (!exact.empty()) {
        RC_ASSERT(write_message(std::span(exact.data(), exact.size() - 1), m).code() == Errc::out_of_space);
    }
    Composite out = m;  // same parameters; values are overwritten by the read
    RC_ASSERT(read_message(std::span<const std::uint8_t>(buf.data(), *written), out).ok());
    for (std::size_t i = 0; i < m.fields.size(); ++i) {
        const Field& a = m.fields[i];
        const Field& b = out.fields[i];
        RC_ASSERT(a.u32 == b.u32);
        RC_ASSERT(a.u64 == b.u64);
        RC_ASSERT(a.i64 == b.i64);
        RC_ASSERT(a.i32 == b.i32);
        RC_ASSERT(a.flag == b.flag);
        RC_ASSERT(a.data == b.data);
        RC_ASSERT(a.text == b.text);
        RC_ASSERT(a.e == b.e);
    }
}

// Truncation cuts the data: the reader runs out (end_of_data), or, when the cut falls inside a byte
// string, the length check sees fewer bytes left than announced (length_too_long).
RC_GTEST_PROP(Composite, EveryTruncationIsEndOfData, ()) {
    Composite m = gen_composite();
    bool has_strings = false;
    for (const Field& f : m.fields) has_strings |= f.kind == Kind::bytes || f.kind == Kind::string;
    std::vector<std::uint8_t> buf(8192);
    const auto written = write_message(buf, m);
    RC_ASSERT(written.ok());
    for (std::size_t len = 0; len < *written; ++len) {
        // A fresh heap copy of exactly `len` bytes, so ASan catches any read past it.
        const std::vector<std::uint8_t> prefix(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(len));
        Composite out = m;
        const Errc code = read_message(prefix, out).code();
        RC_ASSERT(code == Errc::end_of_data || (has_strings && code == Errc::length_too_long));
    }
}

}  // namespace
}  // namespace rwd::wire
