// wire::serialize_residual: round trips on the range streams, one encoding per value, refused garbage, and
// the bucket format unchanged on the bit-packing streams.
#include "range_coder_test_util.hpp"

#include <rewind/wire/range_training.hpp>
#include <rewind/wire/residual.hpp>

#include <array>
#include <cstdint>
#include <limits>

namespace rwd::wire {
namespace {

using range_test::Bytes;
using range_test::make;

constexpr std::uint32_t kGroup = 5;

// Every residual of `values` against `refs`, round-tripped through the range coder.
void round_trip(const std::vector<std::int32_t>& refs, const std::vector<std::int32_t>& values,
                int modelled_bits = 32) {
    Bytes buf(64 + values.size() * 8);
    auto w = make<RangeWriteStream>(buf);
    for (std::size_t k = 0; k < values.size(); ++k) {
        std::int32_t v = values[k];
        ASSERT_TRUE(serialize_residual(*w, kGroup, refs[k], v, 0, modelled_bits)) << k;
    }
    w->flush();
    ASSERT_TRUE(w->ok());
    auto r = make<RangeReadStream>(w->data());
    for (std::size_t k = 0; k < values.size(); ++k) {
        std::int32_t v = 12345;
        ASSERT_TRUE(serialize_residual(*r, kGroup, refs[k], v, 0, modelled_bits)) << k;
        EXPECT_EQ(v, values[k]) << "ref " << refs[k];
    }
    EXPECT_TRUE(r->finish());
    EXPECT_EQ(r->bits_used(), w->bits_used());
}

TEST(Residual, ExtremesRoundTrip) {
    constexpr std::int32_t lo = std::numeric_limits<std::int32_t>::min();
    constexpr std::int32_t hi = std::numeric_limits<std::int32_t>::max();
    const std::vector<std::int32_t> refs = {0, 0, 0, 0, 100, 100, lo, hi, lo, hi, -1, 1, 0, 0, 7, 7};
    const std::vector<std::int32_t> values = {0,  1, -1, 16384, 99, 100 + 32767,   hi,           lo, lo,
                                              hi, 0, 0,  lo,    hi, 7 + (1 << 14), 7 - (1 << 15)};
    round_trip(refs, values);
}

RC_GTEST_PROP(Residual, AnyResidualRoundTrips, ()) {
    const auto n = *rc::gen::inRange<std::size_t>(1, 40);
    std::vector<std::int32_t> refs, values;
    for (std::size_t k = 0; k < n; ++k) {
        refs.push_back(*rc::gen::arbitrary<std::int32_t>());
        values.push_back(
            *rc::gen::arbitrary<bool>()
                ? *rc::gen::arbitrary<std::int32_t>()
                : static_cast<std::int32_t>(std::clamp<std::int64_t>(
                      std::int64_t{refs.back()} + *rc::gen::inRange(-300, 300), INT32_MIN, INT32_MAX)));
    }
    round_trip(refs, values);
    RC_ASSERT(!::testing::Test::HasFailure());
}

RC_GTEST_PROP(Residual, AnyResidualRoundTripsWithItsLowBitsUniform, ()) {
    const auto n = *rc::gen::inRange<std::size_t>(1, 40);
    const int modelled = *rc::gen::inRange(-2, 35);  // below 0 counts as 0, above 31 as all of them
    std::vector<std::int32_t> refs, values;
    for (std::size_t k = 0; k < n; ++k) {
        refs.push_back(*rc::gen::arbitrary<std::int32_t>());
        values.push_back(*rc::gen::arbitrary<std::int32_t>());
    }
    round_trip(refs, values, modelled);
    RC_ASSERT(!::testing::Test::HasFailure());
}

TEST(Residual, LowMantissaBitsAreUniformAndTakeNoSlot) {
    // d = -300 = -(0b1'0010'1100): class 9, sign 1, mantissa 0b0010'1100 in 8 bits; with two modelled bits
    // the top two (0b00) go through slot (kGroup, 3 + 9) and the six below (0b10'1100) are uniform bits.
    Bytes buf(64);
    auto w = make<RangeWriteStream>(buf);
    std::int32_t v = 700;
    ASSERT_TRUE(serialize_residual(*w, kGroup, 1000, v, 0, 2));
    std::uint32_t after = 1;
    ASSERT_TRUE(w->serialize_bits(after, 1));  // the next ordinal of the group: 3 + 9 + 1
    w->flush();
    Bytes hand_buf(64);
    auto h = make<RangeWriteStream>(hand_buf);
    std::uint32_t cls = 9, sign = 1, top = 0, low = 0b10'1100;
    h->set_context(kGroup, 0);
    ASSERT_TRUE(h->serialize_bits(cls, 4));
    h->set_context(kGroup, 2);
    ASSERT_TRUE(h->serialize_bits(sign, 1));
    h->set_context(kGroup, 3 + 9);
    ASSERT_TRUE(h->serialize_bits(top, 2));
    ASSERT_TRUE(h->serialize_uniform_bits(low, 6));
    ASSERT_TRUE(h->serialize_bits(after, 1));
    h->flush();
    EXPECT_EQ(Bytes(w->data().begin(), w->data().end()), Bytes(h->data().begin(), h->data().end()));
    EXPECT_EQ(w->coded_bits(), h->coded_bits());
    // What goes through models: class 4 + sign 1 + the modelled mantissa bits + `after`; all eight by
    // default.
    RangeModelTrainer two, all;
    RangeTrainingStream t2(two), ta(all);
    ASSERT_TRUE(serialize_residual(t2, kGroup, 1000, v, 0, 2));
    ASSERT_TRUE(serialize_residual(ta, kGroup, 1000, v));
    EXPECT_EQ(two.bits(), 4u + 1u + 2u);
    EXPECT_EQ(all.bits(), 4u + 1u + 8u);
}

// The class field alone, coded by hand, then what follows it.
Bytes coded(std::uint32_t cls, std::uint32_t extra, std::uint32_t sign, std::uint32_t mantissa, int bits) {
    Bytes buf(64);
    auto w = make<RangeWriteStream>(buf);
    w->set_context(kGroup, 0);
    EXPECT_TRUE(w->serialize_bits(cls, 4));
    if (cls == 15) {
        w->set_context(kGroup, 1);
        EXPECT_TRUE(w->serialize_bits(extra, 5));
    }
    w->set_context(kGroup, 2);
    EXPECT_TRUE(w->serialize_bits(sign, 1));
    w->set_context(kGroup, 3 + (cls == 15 ? 15 + extra : cls));
    EXPECT_TRUE(w->serialize_bits(mantissa, bits));
    w->flush();
    return {w->data().begin(), w->data().end()};
}

TEST(Residual, HandCodedValueDecodesAndBadOnesAreRefused) {
    // Class 3, positive, mantissa 0b01: 5.
    {
        const Bytes b = coded(3, 0, 0, 1, 2);
        auto r = make<RangeReadStream>(b);
        std::int32_t v = 0;
        ASSERT_TRUE(serialize_residual(*r, kGroup, 10, v));
        EXPECT_EQ(v, 15);
        EXPECT_TRUE(r->finish());
    }
    // A class above 32 (15 + 18) is malformed.
    {
        const Bytes b = coded(15, 18, 0, 0, 31);
        auto r = make<RangeReadStream>(b);
        std::int32_t v = 0;
        EXPECT_FALSE(serialize_residual(*r, kGroup, 0, v));
        EXPECT_EQ(r->error(), Errc::malformed);
    }
    // A result outside int32: reference max plus one.
    {
        const Bytes b = coded(1, 0, 0, 0, 0);
        auto r = make<RangeReadStream>(b);
        std::int32_t v = 77;
        EXPECT_FALSE(serialize_residual(*r, kGroup, std::numeric_limits<std::int32_t>::max(), v));
        EXPECT_EQ(r->error(), Errc::value_out_of_range);
        EXPECT_EQ(v, 77);
    }
}

TEST(Residual, OneEncodingPerValue) {
    // Every encodable (class, sign, mantissa) decodes to a value that re-encodes to the same bytes.
    for (std::uint32_t cls = 1; cls <= 20; ++cls) {
        for (std::uint32_t sign = 0; sign < 2; ++sign) {
            const int bits = static_cast<int>(cls - 1);
            const std::uint32_t mantissa = bits == 0 ? 0u : (0x5A5A5u & ((1u << bits) - 1));
            const Bytes b =
                cls < 15 ? coded(cls, 0, sign, mantissa, bits) : coded(15, cls - 15, sign, mantissa, bits);
            auto r = make<RangeReadStream>(b);
            std::int32_t v = 0;
            ASSERT_TRUE(serialize_residual(*r, kGroup, 0, v)) << cls;
            ASSERT_TRUE(r->finish());
            Bytes again(64);
            auto w = make<RangeWriteStream>(again);
            ASSERT_TRUE(serialize_residual(*w, kGroup, 0, v));
            w->flush();
            EXPECT_TRUE(std::ranges::equal(w->data(), b)) << "class " << cls << " sign " << sign;
        }
    }
}

TEST(Residual, SmallResidualsCostLittleAndZeroLeast) {
    auto zero = make<RangeMeasureStream>();
    auto small = make<RangeMeasureStream>();
    for (int k = 0; k < 64; ++k) {
        std::int32_t z = 1000;
        std::int32_t s = 1000 + (k % 7) - 3;
        ASSERT_TRUE(serialize_residual(*zero, kGroup, 1000, z));
        ASSERT_TRUE(serialize_residual(*small, kGroup, 1000, s));
    }
    EXPECT_LT(zero->bits_used(), 64u);       // under a bit each once learned
    EXPECT_LT(small->bits_used(), 64u * 5);  // |d| <= 3: class, sign, one mantissa bit
}

TEST(Residual, BitPackingStreamsKeepTheRelativeBuckets) {
    const std::array<std::pair<std::int32_t, std::int32_t>, 5> cases = {
        {{100, 103}, {100, 50}, {100, 1100}, {100, 2000000000}, {0, 0}}};
    for (const auto& [ref, value] : cases) {
        Bytes a(16), b(16);
        WriteStream wa(a), wb(b);
        std::int32_t v1 = value, v2 = value;
        ASSERT_TRUE(serialize_residual(wa, kGroup, ref, v1));
        ASSERT_TRUE(serialize_relative(wb, ref, v2));
        wa.flush();
        wb.flush();
        EXPECT_TRUE(std::ranges::equal(wa.data(), wb.data())) << value;
        EXPECT_EQ(wa.bits_used(), wb.bits_used());
    }
}

}  // namespace
}  // namespace rwd::wire
