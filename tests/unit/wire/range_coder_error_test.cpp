/// Range coder streams on untrusted or bad input: garbage, truncation, bounds, full buffers, bad arguments.
#include "unit/wire/range_coder_test_util.hpp"

namespace rwd::wire {
namespace {

using namespace range_test;

RC_GTEST_PROP(RangeCoder, GarbageDecodesSafelyAndErrorsStick, (const Bytes& garbage)) {
    // A fixed schema over arbitrary bytes: never UB (the sanitizer build checks), and after the first error
    // every call fails, changes nothing and keeps the first error.
    std::vector<Field> schema;
    for (int k = 0; k < 60; ++k) {
        Field f;
        f.kind = static_cast<Kind>(k % kKinds);
        f.width = (k * 7) % 33;
        f.lo = -1000;
        f.hi = 50000 + k;
        f.reference = 100 * k;
        f.group = static_cast<std::uint32_t>(k % 5);
        schema.push_back(f);
    }
    auto r = make<RangeReadStream>(garbage);
    Errc first = r->error();
    for (Field& f : schema) {
        Field before = f;
        before.u = 0xDEADBEEF;
        before.i = -77;
        before.r = 77;
        before.b = true;
        f = before;
        const bool was_ok = r->ok();
        const bool ok = serialize_field(*r, f);
        if (!was_ok) {
            RC_ASSERT(!ok);
            RC_ASSERT(r->error() == first);
            RC_ASSERT(r->bits_remaining() == 0u);
            RC_ASSERT(same_values({f}, {before}));
        } else if (!r->ok()) {
            first = r->error();
        }
    }
    if (!r->ok()) {
        r->fail(Errc::desync);
        RC_ASSERT(r->error() == first);
        RC_ASSERT(!r->finish());
    }
}

// 64 random 32-bit values: incompressible, so every byte carries about 8 coded bits.
Bytes encode_random_words(std::vector<std::uint32_t>& words) {
    XorShift rng;
    words.assign(64, 0);
    for (auto& v : words) v = rng.next();
    Bytes buf(512);
    auto w = make<RangeWriteStream>(buf);
    for (auto& v : words) EXPECT_TRUE(serialize_bits(*w, v, 32));
    w->flush();
    return {w->data().begin(), w->data().end()};
}

TEST(RangeCoder, AUniformCodeNoWriterMakesIsMalformed) {
    // Range 0xFFFFFFFF >> 16 = 0xFFFF, and a first word of 0xFFFFFFFE lies past every 16-bit value: the
    // quotient would be 65537. A writer's code always lies inside its value's interval.
    const Bytes data{0xFF, 0xFF, 0xFF, 0xFE, 0x00};
    auto r = make<RangeReadStream>(data);
    ASSERT_TRUE(r->ok());
    std::uint32_t v = 7;
    EXPECT_FALSE(r->serialize_uniform_bits(v, 16));
    EXPECT_EQ(r->error(), Errc::malformed);
    EXPECT_EQ(v, 7u);
    // The same bytes fail at any width (here 32: in its first, top step); a code inside the interval decodes.
    auto r2 = make<RangeReadStream>(data);
    EXPECT_FALSE(r2->serialize_uniform_bits(v, 32));
    EXPECT_EQ(r2->error(), Errc::malformed);
    const Bytes inside{0xFF, 0x00, 0x00, 0x00, 0x00};  // 0xFF000000 / (0xFFFFFFFF >> 8) = 255
    auto r3 = make<RangeReadStream>(inside);
    EXPECT_TRUE(r3->serialize_uniform_bits(v, 8));
    EXPECT_EQ(v, 0xFFu);
    // Bad widths, and values too wide for them.
    EXPECT_FALSE(make<RangeReadStream>(data)->serialize_uniform_bits(v, 33));
    Bytes buf(16);
    auto w = make<RangeWriteStream>(buf);
    std::uint32_t wide = 0x100;
    EXPECT_FALSE(w->serialize_uniform_bits(wide, 8));
    EXPECT_EQ(w->error(), Errc::value_out_of_range);
    auto m = make<RangeMeasureStream>();
    EXPECT_FALSE(m->serialize_uniform_bits(wide, 8));
    EXPECT_EQ(m->error(), Errc::value_out_of_range);
    auto w2 = make<RangeWriteStream>(buf);
    EXPECT_FALSE(w2->serialize_uniform_bits(wide, -1));
    EXPECT_EQ(w2->error(), Errc::invalid_argument);
}

TEST(RangeCoder, TruncatedDataFailsWithEndOfData) {
    std::vector<std::uint32_t> words;
    const Bytes bytes = encode_random_words(words);
    ASSERT_GE(bytes.size(), 64u * 4);
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
        const Bytes part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
        auto r = make<RangeReadStream>(part);
        bool all = true;
        for (std::size_t k = 0; k < words.size() && all; ++k) {
            std::uint32_t v = 0;
            all = serialize_bits(*r, v, 32);
        }
        SCOPED_TRACE(cut);
        if (cut + 1 < bytes.size()) {
            EXPECT_EQ(r->error(), Errc::end_of_data);  // whole bytes of information missing
        } else {
            EXPECT_FALSE(all && r->finish());  // the flush byte missing: caught at the latest by finish()
        }
    }
    auto whole = make<RangeReadStream>(bytes);
    for (std::uint32_t expect : words) {
        std::uint32_t v = 0;
        ASSERT_TRUE(serialize_bits(*whole, v, 32));
        EXPECT_EQ(v, expect);
    }
    EXPECT_TRUE(whole->finish());
}

TEST(RangeCoder, EveryReachableProbabilityStaysInTheBoundedRange) {
    // bits_remaining() and the measure bound rely on P(0) staying in [31, 4065]: walk every model state
    // reachable from the start (1/2, count 0) under any bit sequence.
    std::vector<bool> seen(1u << 16);
    std::vector<std::uint16_t> todo{detail::kRangeProbHalf};
    seen[detail::kRangeProbHalf] = true;
    std::uint32_t lo = detail::kRangeProbOne, hi = 0;
    while (!todo.empty()) {
        const std::uint16_t state = todo.back();
        todo.pop_back();
        const std::uint32_t p = state & detail::kRangeProbMask;
        lo = std::min(lo, p);
        hi = std::max(hi, p);
        for (std::uint32_t bit = 0; bit < 2; ++bit) {
            std::uint16_t next = state;
            detail::range_adapt(next, bit);
            if (!seen[next]) {
                seen[next] = true;
                todo.push_back(next);
            }
        }
    }
    EXPECT_EQ(lo, detail::kRangeMinProb);
    EXPECT_EQ(hi, detail::kRangeMaxProb);
}

TEST(RangeCoder, EmptyShortAndTrailingInput) {
    EXPECT_EQ(RangeReadStream(Bytes{}).error(), Errc::end_of_data);
    EXPECT_EQ(RangeReadStream(Bytes{0xFF, 0xFF, 0xFF, 0xFF}).error(), Errc::malformed);  // code >= range
    // The empty message is one byte.
    Bytes buf(8);
    auto w = make<RangeWriteStream>(buf);
    w->flush();
    ASSERT_EQ(w->bytes_used(), 1u);
    auto r = make<RangeReadStream>(w->data());
    EXPECT_TRUE(r->finish());
    // A message followed by anything is malformed.
    std::vector<std::uint32_t> words;
    Bytes bytes = encode_random_words(words);
    bytes.push_back(0);
    auto r2 = make<RangeReadStream>(bytes);
    for (std::size_t k = 0; k < words.size(); ++k) {
        std::uint32_t v = 0;
        ASSERT_TRUE(serialize_bits(*r2, v, 32));
    }
    EXPECT_FALSE(r2->finish());
    EXPECT_EQ(r2->error(), Errc::malformed);
}

RC_GTEST_PROP(RangeCoder, OnlyTheWritersEndingIsAccepted, ()) {
    // The final interval holds other values that decode the same fields: the last byte one higher (or lower)
    // is such a value whenever the interval is wide enough. finish() refuses every ending but the writer's.
    auto fields = random_schema();
    Bytes buf(64 * 1024);
    auto w = make<RangeWriteStream>(buf);
    RC_ASSERT(serialize_schema(*w, fields));
    w->flush();
    RC_ASSERT(w->ok());
    const Bytes bytes(w->data().begin(), w->data().end());
    RC_ASSERT(!bytes.empty());  // flush() always sends a byte
    for (const int step : {1, -1}) {
        Bytes other = bytes;
        const std::size_t end = other.size() - 1;
        const int last = other[end] + step;
        if (last < 0 || last > 0xFF) continue;
        other[end] = static_cast<std::uint8_t>(last);
        auto values = blank(fields);
        auto r = make<RangeReadStream>(other);
        if (serialize_schema(*r, values) && same_values(values, fields)) RC_ASSERT(!r->finish());
    }
    auto r = make<RangeReadStream>(bytes);
    auto values = blank(fields);
    RC_ASSERT(serialize_schema(*r, values) && r->finish());
}

TEST(RangeCoder, AnotherValueInTheFinalIntervalIsRefused) {
    // Messages of 1..40 random words and then a run of likely zeros (which keeps the final interval wide):
    // wherever the last byte one higher still decodes the same fields, that ending is refused.
    XorShift rng;
    int met = 0;
    for (int n = 1; n <= 40; ++n) {
        std::vector<std::uint32_t> words(static_cast<std::size_t>(n));
        for (auto& v : words) v = rng.next();
        Bytes buf(512);
        auto w = make<RangeWriteStream>(buf);
        for (auto& v : words) ASSERT_TRUE(serialize_bits(*w, v, 32));
        for (int k = 0; k < n; ++k) {
            bool zero = false;
            set_context(*w, 1);
            ASSERT_TRUE(serialize_bool(*w, zero));
        }
        w->flush();
        Bytes other(w->data().begin(), w->data().end());
        ASSERT_FALSE(other.empty());
        const std::size_t end = other.size() - 1;
        if (other[end] == 0xFF) continue;
        ++other[end];
        auto r = make<RangeReadStream>(other);
        bool all = true;
        for (const std::uint32_t word : words) {
            std::uint32_t v = 0;
            all = all && serialize_bits(*r, v, 32) && v == word;
        }
        for (int k = 0; k < n; ++k) {
            bool zero = true;
            set_context(*r, 1);
            all = all && serialize_bool(*r, zero) && !zero;
        }
        if (!all) continue;  // past the interval: other fields
        ++met;
        EXPECT_FALSE(r->finish()) << n;
        EXPECT_EQ(r->error(), Errc::malformed);
    }
    EXPECT_GT(met, 5) << "the test must meet such endings";
}

RC_GTEST_PROP(RangeCoder, BitsRemainingBoundsWhatAnyInputDecodes, (const Bytes& data, bool zeros)) {
    // The cheapest possible path: one model, always the same symbol (zeros decode as a run of 0 bits). No
    // input, however crafted, decodes more one-bit fields than the first bits_remaining() promised.
    const Bytes input = zeros ? Bytes(data.size() % 64 + 1, 0) : data;
    auto r = make<RangeReadStream>(input);
    const std::size_t bound = r->bits_remaining();
    std::size_t decoded = 0;
    while (r->ok()) {
        set_context(*r, 0);
        std::uint32_t bit = 0;
        if (serialize_bits(*r, bit, 1)) ++decoded;
        RC_ASSERT(decoded <= bound);
    }
    RC_ASSERT(r->bits_remaining() == 0u);
}

TEST(RangeCoder, AttackerLengthIsRejectedAgainstBitsRemaining) {
    // A length field claiming 10^6 bytes in a 4-byte message: serialize_bytes rejects it before allocating.
    Bytes buf(16);
    auto w = make<RangeWriteStream>(buf);
    std::uint64_t len = 1000000;
    ASSERT_TRUE(detail::serialize_u64_bits(*w, len, bits_required(1 << 20)));
    w->flush();
    auto r = make<RangeReadStream>(w->data());
    EXPECT_LT(r->bits_remaining(), 8u * 1000000);
    std::vector<std::uint8_t> v;
    EXPECT_FALSE(serialize_bytes(*r, v, 1 << 20));
    EXPECT_EQ(r->error(), Errc::length_too_long);
    EXPECT_EQ(v.capacity(), 0u);
}

TEST(RangeCoder, WriterFailsWhenFullAndNeverWritesPastItsBuffer) {
    std::vector<std::uint32_t> words;
    const Bytes full = encode_random_words(words);
    for (std::size_t cap : {std::size_t{0}, std::size_t{1}, std::size_t{100}, full.size() - 1, full.size()}) {
        SCOPED_TRACE(cap);
        Bytes buf(cap + 16, 0xCC);
        auto w = make<RangeWriteStream>(std::span<std::uint8_t>(buf.data(), cap));
        bool all = true;
        for (std::uint32_t v : words) all = serialize_bits(*w, v, 32) && all;
        w->flush();
        for (std::size_t k = cap; k < buf.size(); ++k) ASSERT_EQ(buf[k], 0xCC);
        if (cap >= full.size()) {
            EXPECT_TRUE(all && w->ok());
            EXPECT_EQ(Bytes(w->data().begin(), w->data().end()), full);
        } else {
            EXPECT_EQ(w->error(), Errc::out_of_space);
            std::uint32_t one = 1;
            EXPECT_FALSE(serialize_bits(*w, one, 1));  // sticky
            EXPECT_EQ(w->error(), Errc::out_of_space);
        }
    }
    // Even the empty message needs its flush byte.
    auto w = make<RangeWriteStream>(std::span<std::uint8_t>());
    w->flush();
    EXPECT_EQ(w->error(), Errc::out_of_space);
}

TEST(RangeCoder, BadArgumentsAndWritesAfterFlushFail) {
    Bytes buf(16);
    std::uint32_t v = 0x10;
    auto w = make<RangeWriteStream>(buf);
    EXPECT_FALSE(serialize_bits(*w, v, 4));
    EXPECT_EQ(w->error(), Errc::value_out_of_range);
    auto m = make<RangeMeasureStream>();
    EXPECT_FALSE(serialize_bits(*m, v, 33));
    EXPECT_EQ(m->error(), Errc::invalid_argument);
    const Bytes zeros{0, 0, 0, 0};
    auto r = make<RangeReadStream>(zeros);
    EXPECT_FALSE(serialize_bits(*r, v, -1));
    EXPECT_EQ(r->error(), Errc::invalid_argument);
    EXPECT_EQ(v, 0x10u);
    auto w2 = make<RangeWriteStream>(buf);
    w2->flush();
    EXPECT_FALSE(serialize_bits(*w2, v, 8));
    EXPECT_EQ(w2->error(), Errc::invalid_argument);
}

}  // namespace
}  // namespace rwd::wire
