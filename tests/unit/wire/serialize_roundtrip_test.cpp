// Property tests: every serialize helper round-trips arbitrary values, and measure == write == read size.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <rewind/wire/serialize.hpp>

#include "unit/wire/wire_test_util.hpp"

namespace rwd::wire {
namespace {

using test::round_trip;

// An arbitrary [min, max] of T and a value inside it, biased to small and to full ranges alike.
template <class T>
void check_int_round_trip() {
    T lo = *rc::gen::arbitrary<T>();
    T hi = *rc::gen::arbitrary<T>();
    if (hi < lo) std::swap(lo, hi);
    const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    std::uint64_t offset = *rc::gen::arbitrary<std::uint64_t>();
    if (range != std::numeric_limits<std::uint64_t>::max()) offset %= range + 1;
    const T v = static_cast<T>(static_cast<std::uint64_t>(lo) + offset);
    const auto r = round_trip(v, [&](auto& s, T& x) { return serialize_int(s, x, lo, hi); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
    RC_ASSERT(r.written_bits == static_cast<std::size_t>(bits_required(range)));
}

RC_GTEST_PROP(SerializeInt, RoundTripsInt8, ()) { check_int_round_trip<std::int8_t>(); }
RC_GTEST_PROP(SerializeInt, RoundTripsUint8, ()) { check_int_round_trip<std::uint8_t>(); }
RC_GTEST_PROP(SerializeInt, RoundTripsInt16, ()) { check_int_round_trip<std::int16_t>(); }
RC_GTEST_PROP(SerializeInt, RoundTripsUint16, ()) { check_int_round_trip<std::uint16_t>(); }
RC_GTEST_PROP(SerializeInt, RoundTripsInt32, ()) { check_int_round_trip<std::int32_t>(); }
RC_GTEST_PROP(SerializeInt, RoundTripsUint32, ()) { check_int_round_trip<std::uint32_t>(); }
RC_GTEST_PROP(SerializeInt, RoundTripsInt64, ()) { check_int_round_trip<std::int64_t>(); }
RC_GTEST_PROP(SerializeInt, RoundTripsUint64, ()) { check_int_round_trip<std::uint64_t>(); }

RC_GTEST_PROP(SerializeBits, RoundTripsEveryWidth, ()) {
    const int bits = *rc::gen::inRange(0, 33);
    std::uint32_t v = *rc::gen::arbitrary<std::uint32_t>();
    if (bits < 32) v &= (std::uint32_t{1} << bits) - 1;
    const auto r = round_trip(v, [&](auto& s, std::uint32_t& x) { return serialize_bits(s, x, bits); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
    RC_ASSERT(r.written_bits == static_cast<std::size_t>(bits));
}

RC_GTEST_PROP(SerializeBool, RoundTrips, (bool v)) {
    const auto r = round_trip(
        v, [](auto& s, bool& x) { return serialize_bool(s, x); }, !v);
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
    RC_ASSERT(r.written_bits == 1u);
}

RC_GTEST_PROP(SerializeUint64, RoundTrips, (std::uint64_t v)) {
    const auto r = round_trip(v, [](auto& s, std::uint64_t& x) { return serialize_uint64(s, x); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
    RC_ASSERT(r.written_bits == 64u);
}

// A value whose bit width is uniform in 0..64, so every varint length is exercised.
std::uint64_t any_width_u64() {
    const int width = *rc::gen::inRange(0, 65);
    const std::uint64_t raw = *rc::gen::arbitrary<std::uint64_t>();
    return width == 64 ? raw : (raw & ((std::uint64_t{1} << width) - 1));
}

RC_GTEST_PROP(SerializeVarint, RoundTrips64WithLeb128Length, ()) {
    const std::uint64_t v = any_width_u64();
    const auto r = round_trip(v, [](auto& s, std::uint64_t& x) { return serialize_varint(s, x); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
    const int groups = v == 0 ? 1 : (bits_required(v) + 6) / 7;
    RC_ASSERT(r.written_bits == static_cast<std::size_t>(8 * groups));
}

RC_GTEST_PROP(SerializeVarint, RoundTrips32, ()) {
    const auto v = static_cast<std::uint32_t>(any_width_u64() & 0xFFFFFFFFu);
    const auto r = round_trip(v, [](auto& s, std::uint32_t& x) { return serialize_varint(s, x); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
    RC_ASSERT(r.written_bits <= 40u);
}

RC_GTEST_PROP(SerializeRelative, RoundTripsAndUsesTheSmallestBucket, ()) {
    const auto reference = *rc::gen::arbitrary<std::int32_t>();
    // Deltas of every magnitude class, clamped into int32.
    const int width = *rc::gen::inRange(0, 34);
    const std::int64_t magnitude =
        width == 0 ? 0 : static_cast<std::int64_t>(any_width_u64() % (std::uint64_t{1} << width));
    const std::int64_t delta = *rc::gen::arbitrary<bool>() ? magnitude : -magnitude;
    std::int64_t target = std::int64_t{reference} + delta;
    target = std::clamp<std::int64_t>(target, INT32_MIN, INT32_MAX);
    const auto v = static_cast<std::int32_t>(target);
    const auto r =
        round_trip(v, [&](auto& s, std::int32_t& x) { return serialize_relative(s, reference, x); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
    const std::int64_t d = std::int64_t{v} - reference;
    const std::size_t expected = d >= -8 && d <= 7           ? 5
                                 : d >= -128 && d <= 127     ? 10
                                 : d >= -32768 && d <= 32767 ? 19
                                                             : 35;
    RC_ASSERT(r.written_bits == expected);
}

RC_GTEST_PROP(SerializeBytes, RoundTripsWithinMaxLen, (std::vector<std::uint8_t> v)) {
    const std::size_t max_len = v.size() + *rc::gen::inRange<std::size_t>(0, 1000);
    const auto r =
        round_trip(v, [&](auto& s, std::vector<std::uint8_t>& x) { return serialize_bytes(s, x, max_len); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
    RC_ASSERT(r.written_bits == static_cast<std::size_t>(bits_required(max_len)) + 8 * v.size());
}

RC_GTEST_PROP(SerializeString, RoundTripsWithinMaxLen, (std::string v)) {
    const std::size_t max_len = v.size() + *rc::gen::inRange<std::size_t>(0, 70000);
    const auto r = round_trip(v, [&](auto& s, std::string& x) { return serialize_string(s, x, max_len); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == v);
}

RC_GTEST_PROP(SerializeAlign, PadsToTheNextByteWithZeros, ()) {
    const int lead = *rc::gen::inRange(0, 40);
    const auto r = round_trip(std::uint32_t{0}, [&](auto& s, std::uint32_t& x) {
        std::uint32_t ones = lead >= 32 ? 0xFFFFFFFFu : (std::uint32_t{1} << lead) - 1;
        int left = lead;
        while (left > 0 && s.ok()) {  // `lead` one-bits, then align, then one marker bit
            const int n = left > 32 ? 32 : left;
            std::uint32_t chunk = n == 32 ? 0xFFFFFFFFu : (ones & ((std::uint32_t{1} << n) - 1));
            s.serialize_bits(chunk, n);
            left -= n;
        }
        return serialize_align(s) && serialize_bits(s, x, 1);
    });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.written_bits == static_cast<std::size_t>((lead + 7) / 8 * 8 + 1));
    // The pad bits really are zero.
    if (lead % 8 != 0) RC_ASSERT((r.bytes[static_cast<std::size_t>(lead / 8)] >> (lead % 8)) == 0);
}

enum class Weapon : std::uint8_t { fist, pistol, rocket, railgun };
enum class Offset : std::int16_t { a = 0, b = 700 };

RC_GTEST_PROP(SerializeEnum, RoundTrips, ()) {
    const auto w = static_cast<Weapon>(*rc::gen::inRange(0, 4));
    const auto r = round_trip(w, [](auto& s, Weapon& x) { return serialize_enum(s, x, Weapon::railgun); });
    RC_ASSERT(r.consistent());
    RC_ASSERT(r.out == w);
    RC_ASSERT(r.written_bits == 2u);
    const auto o = static_cast<Offset>(*rc::gen::inRange(0, 701));
    const auto r2 = round_trip(o, [](auto& s, Offset& x) { return serialize_enum(s, x, Offset::b); });
    RC_ASSERT(r2.consistent());
    RC_ASSERT(r2.out == o);
}

}  // namespace
}  // namespace rwd::wire
