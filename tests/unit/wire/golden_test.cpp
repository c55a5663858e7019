// Byte-exact golden encodings: the wire format cannot drift silently (docs/PROTOCOL.md lists the same bytes).
#include <gtest/gtest.h>

#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include <rewind/wire/serialize.hpp>

#include "unit/wire/wire_test_util.hpp"

namespace rwd::wire {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Encodes `v` with `fn`, checks that it decodes back to `expect_decoded`, and returns the bytes.
template <class T, class Fn>
Bytes golden(T v, Fn fn, const T& expect_decoded) {
    const auto r = test::round_trip(v, fn);
    EXPECT_TRUE(r.consistent());
    EXPECT_EQ(r.out, expect_decoded);
    return r.bytes;
}

TEST(Golden, IntInRange) {
    EXPECT_EQ(golden(
                  -3, [](auto& s, int& x) { return serialize_int(s, x, -10, 10); }, -3),
              (Bytes{0x07}));
}

TEST(Golden, Uint64IsLowHalfFirst) {
    const std::uint64_t v = 0x0102030405060708ull;
    EXPECT_EQ(golden(
                  v, [](auto& s, std::uint64_t& x) { return serialize_uint64(s, x); }, v),
              (Bytes{0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
}

TEST(Golden, VarintIsLeb128) {
    auto enc = [](std::uint64_t v) {
        return golden(
            v, [](auto& s, std::uint64_t& x) { return serialize_varint(s, x); }, v);
    };
    EXPECT_EQ(enc(0), (Bytes{0x00}));
    EXPECT_EQ(enc(127), (Bytes{0x7F}));
    EXPECT_EQ(enc(300), (Bytes{0xAC, 0x02}));
    EXPECT_EQ(enc(~std::uint64_t{0}), (Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
}

TEST(Golden, RelativeBuckets) {
    auto enc = [](std::int32_t v) {
        return golden(
            v, [](auto& s, std::int32_t& x) { return serialize_relative(s, 100, x); }, v);
    };
    EXPECT_EQ(enc(103), (Bytes{0x16}));
    EXPECT_EQ(enc(50), (Bytes{0x39, 0x01}));
    EXPECT_EQ(enc(1100), (Bytes{0x43, 0x1F, 0x04}));
    EXPECT_EQ(enc(2000000000), (Bytes{0x07, 0xA0, 0xAC, 0xB9, 0x03}));
}

TEST(Golden, QuantizedAndAngle) {
    const auto q = test::round_trip(
        0.5f, [](auto& s, float& x) { return serialize_quantized(s, x, -1.0f, 1.0f, 0.01f); });
    EXPECT_EQ(q.bytes, (Bytes{0x96}));
    EXPECT_NEAR(q.out, 0.5f, 1e-6f);  // 0.01f is not exactly 0.01
    const float half_pi = std::numbers::pi_v<float> / 2;
    const auto r = test::round_trip(half_pi, [](auto& s, float& x) { return serialize_angle(s, x, 8); });
    EXPECT_EQ(r.bytes, (Bytes{0xC0}));
    EXPECT_NEAR(r.out, half_pi, 1e-6f);
}

TEST(Golden, UnitQuatIdentity) {
    EXPECT_EQ(golden(
                  Quat{0, 0, 0, 1}, [](auto& s, Quat& x) { return serialize_unit_quat(s, x, 9); },
                  Quat{0, 0, 0, 1}),
              (Bytes{0xFF, 0xFB, 0xF7, 0x0F}));
}

TEST(Golden, StringIsLengthThenBytes) {
    EXPECT_EQ(golden(
                  std::string("hi"), [](auto& s, std::string& x) { return serialize_string(s, x, 15); },
                  std::string("hi")),
              (Bytes{0x82, 0x96, 0x06}));
}

TEST(Golden, BoolAlignByte) {
    const auto r = test::round_trip(0x5Au, [](auto& s, unsigned& x) {
        bool flag = true;
        std::uint32_t v = x;
        const bool ok = serialize_bool(s, flag) && serialize_align(s) && serialize_bits(s, v, 8);
        x = v;
        return ok;
    });
    EXPECT_EQ(r.bytes, (Bytes{0x01, 0x5A}));
}

}  // namespace
}  // namespace rwd::wire
