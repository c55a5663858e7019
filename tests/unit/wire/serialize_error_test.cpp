// Every error path: out-of-range values, over-long lengths and varints, bad padding, sticky errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <rewind/wire/message.hpp>
#include <rewind/wire/serialize.hpp>

#include "unit/wire/wire_test_util.hpp"

namespace rwd::wire {
namespace {

using test::pack;

TEST(SerializeErrors, ReadingAnIntAboveItsRangeFails) {
    const auto bytes = pack({{15, 4}});  // range 0..9 uses 4 bits; 15 is not a valid offset
    ReadStream s(bytes);
    int v = 3;
    EXPECT_FALSE(serialize_int(s, v, 0, 9));
    EXPECT_EQ(s.error(), Errc::value_out_of_range);
    EXPECT_EQ(v, 3);
}

TEST(SerializeErrors, WritingAnOutOfRangeIntFailsInEveryStream) {
    std::array<std::uint8_t, 8> buf{};
    WriteStream w(buf);
    int v = 11;
    EXPECT_FALSE(serialize_int(w, v, 0, 10));
    EXPECT_EQ(w.error(), Errc::value_out_of_range);
    EXPECT_EQ(w.bits_used(), 0u);
    MeasureStream m;
    std::int64_t big = -5;
    EXPECT_FALSE(serialize_int(m, big, std::int64_t{-4}, std::int64_t{4}));
    EXPECT_EQ(m.error(), Errc::value_out_of_range);
    MeasureStream m2;
    int x = 0;
    EXPECT_FALSE(serialize_int(m2, x, 5, 1));
    EXPECT_EQ(m2.error(), Errc::invalid_argument);
}

TEST(SerializeErrors, RawBitsWithHighBitsSetAreRejectedOnWriteAndMeasure) {
    std::array<std::uint8_t, 8> buf{};
    WriteStream w(buf);
    std::uint32_t v = 0x10;
    EXPECT_FALSE(serialize_bits(w, v, 4));
    EXPECT_EQ(w.error(), Errc::value_out_of_range);
    MeasureStream m;
    EXPECT_FALSE(serialize_bits(m, v, 4));
    EXPECT_EQ(m.error(), Errc::value_out_of_range);
    MeasureStream m2;
    EXPECT_FALSE(serialize_bits(m2, v, 33));
    EXPECT_EQ(m2.error(), Errc::invalid_argument);
}

TEST(SerializeErrors, ErrorsAreStickyAndChangeNothing) {
    const auto bytes = pack({{1, 1}, {0xAB, 8}});
    ReadStream s(bytes);
    int v = 0;
    EXPECT_FALSE(serialize_int(s, v, 0, 0x1FFFF));  // needs 17 bits, 16 available
    EXPECT_EQ(s.error(), Errc::end_of_data);
    bool b = false;
    std::uint32_t raw = 77;
    EXPECT_FALSE(serialize_bool(s, b));
    EXPECT_FALSE(serialize_bits(s, raw, 1));
    EXPECT_EQ(raw, 77u);
    EXPECT_FALSE(b);
    EXPECT_EQ(s.bits_used(), 0u);
    s.fail(Errc::malformed);
    EXPECT_EQ(s.error(), Errc::end_of_data);  // the first error wins
}

TEST(SerializeErrors, FullWriteBufferIsOutOfSpace) {
    std::array<std::uint8_t, 2> buf{};
    WriteStream w(buf);
    std::uint64_t v = 1;
    EXPECT_FALSE(serialize_uint64(w, v));
    EXPECT_EQ(w.error(), Errc::out_of_space);
}

TEST(SerializeErrors, OverlongLengthIsRejectedBeforeAllocating) {
    // Declared max 150, length field (8 bits) says 200.
    {
        const auto bytes = pack({{200, bits_required(150)}, {0, 32}, {0, 32}});
        ReadStream s(bytes);
        std::vector<std::uint8_t> v;
        EXPECT_FALSE(serialize_bytes(s, v, 150));
        EXPECT_EQ(s.error(), Errc::length_too_long);
        EXPECT_EQ(v.capacity(), 0u);
    }
    // A huge max (a 64-bit length field) claiming 2^40 bytes from a 9-byte packet.
    {
        std::array<std::uint8_t, 16> buf{};
        WriteStream w(buf);
        std::uint64_t len = std::uint64_t{1} << 40;
        ASSERT_TRUE(serialize_uint64(w, len));
        w.flush();
        ReadStream s(w.data());
        std::string str;
        EXPECT_FALSE(serialize_string(s, str, static_cast<std::size_t>(-1)));
        EXPECT_EQ(s.error(), Errc::length_too_long);
        EXPECT_EQ(str.capacity(), std::string().capacity());
    }
    // Within max, but more than the bytes left.
    {
        const auto bytes = pack({{10, 8}, {0x41, 8}, {0x42, 8}});
        ReadStream s(bytes);
        std::vector<std::uint8_t> v;
        EXPECT_FALSE(serialize_bytes(s, v, 255));
        EXPECT_EQ(s.error(), Errc::length_too_long);
        EXPECT_TRUE(v.empty());
    }
}

TEST(SerializeErrors, WritingAStringLongerThanMaxFails) {
    std::array<std::uint8_t, 64> buf{};
    WriteStream w(buf);
    std::string v = "hello";
    EXPECT_FALSE(serialize_string(w, v, 4));
    EXPECT_EQ(w.error(), Errc::length_too_long);
}

TEST(SerializeErrors, NonZeroPaddingIsMalformed) {
    const auto bytes = pack({{1, 1}, {0x4, 7}});  // 1 data bit, then a pad with a bit set
    ReadStream s(bytes);
    std::uint32_t bit = 0;
    ASSERT_TRUE(serialize_bits(s, bit, 1));
    EXPECT_FALSE(serialize_align(s));
    EXPECT_EQ(s.error(), Errc::malformed);
}

TEST(SerializeErrors, VarintOverlongAndOversizedEncodings) {
    auto read64 = [](std::vector<std::uint8_t> bytes) {
        ReadStream s(bytes);
        std::uint64_t v = 0;
        (void)serialize_varint(s, v);
        return s.error();
    };
    auto read32 = [](std::vector<std::uint8_t> bytes) {
        ReadStream s(bytes);
        std::uint32_t v = 0;
        (void)serialize_varint(s, v);
        return s.error();
    };
    EXPECT_EQ(read64({0x00}), Errc::ok);
    EXPECT_EQ(read64({0xAC, 0x02}), Errc::ok);
    EXPECT_EQ(read64({0x80, 0x00}), Errc::malformed);        // 0 in two groups
    EXPECT_EQ(read64({0xAC, 0x82, 0x00}), Errc::malformed);  // 300 with a trailing zero group
    EXPECT_EQ(read64({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}), Errc::ok);  // 2^64-1
    EXPECT_EQ(read64({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02}), Errc::value_out_of_range);
    EXPECT_EQ(read64({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00}), Errc::malformed);
    EXPECT_EQ(read64({0x80, 0x80}), Errc::end_of_data);
    EXPECT_EQ(read32({0xFF, 0xFF, 0xFF, 0xFF, 0x0F}), Errc::ok);  // 2^32-1
    EXPECT_EQ(read32({0xFF, 0xFF, 0xFF, 0xFF, 0x10}), Errc::value_out_of_range);
    EXPECT_EQ(read32({0x80, 0x80, 0x80, 0x80, 0x80, 0x01}), Errc::malformed);  // six groups
    EXPECT_EQ(read32({0x81, 0x00}), Errc::malformed);
}

TEST(SerializeErrors, RelativeRejectsNonCanonicalAndOverflowingEncodings) {
    auto read = [](std::vector<std::uint8_t> bytes, std::int32_t reference) {
        ReadStream s(bytes);
        std::int32_t v = 0;
        (void)serialize_relative(s, reference, v);
        return s.error();
    };
    EXPECT_EQ(read(pack({{0, 1}, {8 + 3, 4}}), 100), Errc::ok);
    EXPECT_EQ(read(pack({{1, 1}, {0, 1}, {128 + 3, 8}}), 100), Errc::malformed);  // +3 in the 8-bit bucket
    EXPECT_EQ(read(pack({{1, 1}, {1, 1}, {1, 1}, {103, 32}}), 100), Errc::malformed);  // +3 as a full value
    EXPECT_EQ(read(pack({{1, 1}, {1, 1}, {0, 1}, {32768 + 100, 16}}), 100), Errc::malformed);
    EXPECT_EQ(read(pack({{0, 1}, {8 + 7, 4}}), INT32_MAX), Errc::value_out_of_range);
    EXPECT_EQ(read(pack({{1, 1}, {1, 1}}), 0), Errc::end_of_data);
}

TEST(SerializeErrors, QuantizedRejectsStepsBeyondTheRangeAndBadParameters) {
    const auto bytes = pack({{255, 8}});  // [-1, 1] at 0.01 has steps 0..200 in 8 bits
    ReadStream s(bytes);
    float v = 0.5f;
    EXPECT_FALSE(serialize_quantized(s, v, -1.0f, 1.0f, 0.01f));
    EXPECT_EQ(s.error(), Errc::value_out_of_range);
    EXPECT_EQ(v, 0.5f);
    for (auto [lo, hi, res] : {std::array<float, 3>{1.0f, 1.0f, 0.1f},
                               {0.0f, 1.0f, 0.0f},
                               {0.0f, 1.0f, -1.0f},
                               {0.0f, 1e30f, 1e-10f},
                               {0.0f, std::numeric_limits<float>::infinity(), 1.0f}}) {
        MeasureStream m;
        EXPECT_FALSE(serialize_quantized(m, v, lo, hi, res));
        EXPECT_EQ(m.error(), Errc::invalid_argument);
    }
}

TEST(SerializeErrors, AngleAndQuatParameterAndCodeChecks) {
    MeasureStream m;
    float a = 0.0f;
    EXPECT_FALSE(serialize_angle(m, a, 0));
    EXPECT_EQ(m.error(), Errc::invalid_argument);
    MeasureStream m2;
    Quat q;
    EXPECT_FALSE(serialize_unit_quat(m2, q, 1));
    EXPECT_EQ(m2.error(), Errc::invalid_argument);
    const auto bytes = pack({{3, 2}, {0x1FF, 9}, {0, 9}, {0, 9}});  // 0x1FF is the invalid all-ones code
    ReadStream s(bytes);
    EXPECT_FALSE(serialize_unit_quat(s, q, 9));
    EXPECT_EQ(s.error(), Errc::value_out_of_range);
}

enum class Team : std::uint8_t { red, blue, spectator };

TEST(SerializeErrors, EnumOutOfRange) {
    const auto bytes = pack({{3, 2}});
    ReadStream s(bytes);
    Team t = Team::red;
    EXPECT_FALSE(serialize_enum(s, t, Team::spectator));
    EXPECT_EQ(s.error(), Errc::value_out_of_range);
    MeasureStream m;
    auto bad = static_cast<Team>(7);
    EXPECT_FALSE(serialize_enum(m, bad, Team::spectator));
    EXPECT_EQ(m.error(), Errc::value_out_of_range);
}

struct Small {
    int hp = 0;
    bool alive = false;
};
template <class Stream>
bool serialize(Stream& s, Small& m) {
    return serialize_int(s, m.hp, 0, 100) && serialize_bool(s, m.alive);
}

TEST(MessageHelpers, WriteReadMeasureAndTrailingData) {
    Small in{42, true};
    EXPECT_EQ(measure_bits(in), 8u);
    std::array<std::uint8_t, 4> buf{};
    const auto n = write_message(buf, in);
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(*n, 1u);
    Small out;
    ASSERT_TRUE(read_message(std::span<const std::uint8_t>(buf.data(), 1), out).ok());
    EXPECT_EQ(out.hp, 42);
    EXPECT_TRUE(out.alive);
    // A trailing byte, even a zero one, is not part of the message.
    EXPECT_EQ(read_message(std::span<const std::uint8_t>(buf.data(), 2), out).code(), Errc::malformed);
    EXPECT_EQ(read_message(std::span<const std::uint8_t>(buf.data(), 0), out).code(), Errc::end_of_data);
    Small bad{101, false};
    EXPECT_EQ(write_message(buf, bad).code(), Errc::value_out_of_range);
    EXPECT_EQ(write_message(std::span<std::uint8_t>{}, in).code(), Errc::out_of_space);
}

struct Odd {
    std::uint32_t v = 0;
};
template <class Stream>
bool serialize(Stream& s, Odd& m) {
    return serialize_bits(s, m.v, 3);
}

TEST(MessageHelpers, NonZeroTrailingBitsAreMalformed) {
    Odd out;
    const std::array<std::uint8_t, 1> clean{0x05};
    EXPECT_TRUE(read_message(clean, out).ok());
    EXPECT_EQ(out.v, 5u);
    const std::array<std::uint8_t, 1> dirty{0x85};
    EXPECT_EQ(read_message(dirty, out).code(), Errc::malformed);
}

}  // namespace
}  // namespace rwd::wire
