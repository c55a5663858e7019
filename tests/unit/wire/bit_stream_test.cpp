// BitWriter and BitReader: bit order, word boundaries, partial last words, overflow and truncation.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

#include <rewind/wire/bit_reader.hpp>
#include <rewind/wire/bit_writer.hpp>

namespace rwd::wire {
namespace {

std::uint32_t low_bits(std::uint32_t v, int bits) {
    return bits >= 32 ? v : v & ((std::uint32_t{1} << bits) - 1);
}

TEST(BitWriter, FirstBitGoesToBitZeroOfByteZero) {
    std::array<std::uint8_t, 2> buf{0xEE, 0xEE};
    BitWriter w(buf);
    w.write_bits(0x5, 3);
    w.write_bits(0x1, 1);
    w.write_bits(0xAB, 8);
    w.flush();
    EXPECT_TRUE(w.ok());
    EXPECT_EQ(w.bits_written(), 12u);
    EXPECT_EQ(w.bytes_written(), 2u);
    EXPECT_EQ(buf[0], 0xBD);
    EXPECT_EQ(buf[1], 0x0A);  // unused high bits of the last byte are zero
}

TEST(BitWriter, FullWordsAreLittleEndian) {
    std::array<std::uint8_t, 8> buf{};
    BitWriter w(buf);
    w.write_bits(0x04030201u, 32);
    w.write_bits(0x08070605u, 32);
    w.flush();
    const std::array<std::uint8_t, 8> expected{1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_EQ(buf, expected);
}

TEST(BitWriter, FieldsStraddlingWordBoundariesRoundTrip) {
    // Every split of a 32-bit field across the first word boundary.
    for (int first = 1; first <= 31; ++first) {
        SCOPED_TRACE("first=" + std::to_string(first));
        std::array<std::uint8_t, 12> buf{};
        BitWriter w(buf);
        w.write_bits(0x12345678u, first);
        w.write_bits(0xDEADBEEFu, 32);
        w.write_bits(0xCAFEu, 16);
        w.flush();
        ASSERT_TRUE(w.ok());
        BitReader r(std::span<const std::uint8_t>(buf.data(), w.bytes_written()));
        std::uint32_t a = 0, b = 0, c = 0;
        ASSERT_TRUE(r.read_bits(first, a));
        ASSERT_TRUE(r.read_bits(32, b));
        ASSERT_TRUE(r.read_bits(16, c));
        EXPECT_EQ(a, low_bits(0x12345678u, first));
        EXPECT_EQ(b, 0xDEADBEEFu);
        EXPECT_EQ(c, 0xCAFEu);
    }
}

TEST(BitWriter, OverflowSetsErrorAndNeverWritesPastTheEnd) {
    std::array<std::uint8_t, 5> storage{};
    storage.fill(0x77);
    std::span<std::uint8_t> buf(storage.data(), 3);  // storage[3..4] are a guard
    BitWriter w(buf);
    w.write_bits(0xFFFFu, 16);
    w.write_bits(0x7Fu, 7);
    EXPECT_TRUE(w.ok());
    w.write_bits(0x3u, 2);  // 25 bits > 24
    EXPECT_FALSE(w.ok());
    EXPECT_EQ(w.error(), Errc::out_of_space);
    EXPECT_EQ(w.bits_written(), 23u);
    w.write_bits(0x1u, 1);  // sticky: even a field that would fit is refused
    EXPECT_EQ(w.bits_written(), 23u);
    w.flush();
    EXPECT_EQ(storage[3], 0x77);
    EXPECT_EQ(storage[4], 0x77);
}

TEST(BitWriter, RejectsBadBitCounts) {
    std::array<std::uint8_t, 8> buf{};
    BitWriter w(buf);
    w.write_bits(1, 0);
    EXPECT_TRUE(w.ok());
    EXPECT_EQ(w.bits_written(), 0u);
    w.write_bits(1, 33);
    EXPECT_EQ(w.error(), Errc::invalid_argument);
    BitWriter w2(buf);
    w2.write_bits(1, -1);
    EXPECT_EQ(w2.error(), Errc::invalid_argument);
}

TEST(BitWriter, ZeroSizedBufferAcceptsNothing) {
    BitWriter w(std::span<std::uint8_t>{});
    w.write_bits(1, 1);
    EXPECT_EQ(w.error(), Errc::out_of_space);
    w.flush();
    EXPECT_EQ(w.bytes_written(), 0u);
}

TEST(BitWriter, FlushIsIdempotentAndWritingContinues) {
    std::array<std::uint8_t, 8> a{}, b{};
    BitWriter wa(a), wb(b);
    for (int i = 0; i < 10; ++i) {
        wa.write_bits(static_cast<std::uint32_t>(i * 37), 7);
        wa.flush();
        wb.write_bits(static_cast<std::uint32_t>(i * 37), 7);
    }
    wb.flush();
    EXPECT_EQ(a, b);
}

TEST(BitReader, ReadsPartialLastWordWithoutTouchingBeyond) {
    // Sizes 1..7 exercise every partial-word tail; ASan would flag any read past the vector.
    for (std::size_t size = 1; size <= 7; ++size) {
        SCOPED_TRACE("size=" + std::to_string(size));
        std::vector<std::uint8_t> data;
        for (std::size_t i = 0; i < size; ++i) data.push_back(static_cast<std::uint8_t>(0x11 * (i + 1)));
        BitReader r(data);
        for (std::size_t i = 0; i < size; ++i) {
            std::uint32_t byte = 0;
            ASSERT_TRUE(r.read_bits(8, byte));
            EXPECT_EQ(byte, data[i]);
        }
        EXPECT_EQ(r.bits_remaining(), 0u);
        std::uint32_t more = 12345;
        EXPECT_FALSE(r.read_bits(1, more));
        EXPECT_EQ(more, 12345u);
        EXPECT_EQ(r.error(), Errc::end_of_data);
    }
}

TEST(BitReader, RunningPastTheEndIsStickyAndConsumesNothing) {
    const std::array<std::uint8_t, 3> data{0xFF, 0x00, 0xAA};
    BitReader r(data);
    std::uint32_t v = 0;
    ASSERT_TRUE(r.read_bits(20, v));
    EXPECT_EQ(r.bits_remaining(), 4u);
    EXPECT_FALSE(r.read_bits(5, v));
    EXPECT_EQ(r.error(), Errc::end_of_data);
    EXPECT_EQ(r.bits_remaining(), 4u);
    EXPECT_FALSE(r.read_bits(4, v));  // would fit, but the error is sticky
    EXPECT_EQ(r.bits_read(), 20u);
}

TEST(BitReader, EmptyInput) {
    BitReader r(std::span<const std::uint8_t>{});
    std::uint32_t v = 7;
    EXPECT_TRUE(r.read_bits(0, v));
    EXPECT_EQ(v, 0u);
    EXPECT_FALSE(r.read_bits(1, v));
    EXPECT_EQ(r.error(), Errc::end_of_data);
}

RC_GTEST_PROP(BitWriterReader, ArbitraryFieldSequencesRoundTrip, ()) {
    const auto widths = *rc::gen::container<std::vector<int>>(rc::gen::inRange(1, 33));
    std::vector<std::uint32_t> values;
    for (int bits : widths) values.push_back(low_bits(*rc::gen::arbitrary<std::uint32_t>(), bits));
    std::size_t total = 0;
    for (int bits : widths) total += static_cast<std::size_t>(bits);
    std::vector<std::uint8_t> buf((total + 7) / 8);
    BitWriter w(buf);
    for (std::size_t i = 0; i < widths.size(); ++i) w.write_bits(values[i], widths[i]);
    w.flush();
    RC_ASSERT(w.ok());
    RC_ASSERT(w.bits_written() == total);
    RC_ASSERT(w.bytes_written() == buf.size());
    BitReader r(buf);
    for (std::size_t i = 0; i < widths.size(); ++i) {
        std::uint32_t v = 0;
        RC_ASSERT(r.read_bits(widths[i], v));
        RC_ASSERT(v == values[i]);
    }
    RC_ASSERT(r.bits_remaining() == buf.size() * 8 - total);
}

}  // namespace
}  // namespace rwd::wire
