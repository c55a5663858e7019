/// Range coder streams: random-schema round trips, golden bytes, compression, contexts, trained models.
#include "unit/wire/range_coder_test_util.hpp"

#include <tuple>

#include <rewind/wire/range_training.hpp>

namespace rwd::wire {
namespace {

using namespace range_test;

RC_GTEST_PROP(RangeCoder, RoundTripsRandomSchemasAndMeasureAgrees, ()) {
    const std::vector<Field> schema = random_schema();

    auto m = make<RangeMeasureStream>();
    std::vector<Field> measured = schema;
    RC_ASSERT(serialize_schema(*m, measured));

    Bytes buf(1 << 14);
    auto w = make<RangeWriteStream>(buf);
    std::vector<Field> written = schema;
    RC_ASSERT(serialize_schema(*w, written));
    w->flush();
    RC_ASSERT(w->ok());
    const Bytes bytes(w->data().begin(), w->data().end());
    RC_ASSERT(bytes.size() == w->bytes_used());

    // Read field by field: the decoded values match, and bits_remaining() bounds the coded bits still to
    // come.
    auto r = make<RangeReadStream>(bytes);
    std::vector<Field> read = blank(schema);
    for (Field& f : read) {
        RC_ASSERT(w->coded_bits() - r->coded_bits() <= r->bits_remaining());
        RC_ASSERT(serialize_field(*r, f));
    }
    RC_ASSERT(r->finish());
    RC_ASSERT(same_values(read, schema));

    // All three streams agree on the model cost and the symbols coded.
    RC_ASSERT(m->bits_used() == w->bits_used());
    RC_ASSERT(r->bits_used() == w->bits_used());
    RC_ASSERT(m->coded_bits() == w->coded_bits());
    RC_ASSERT(r->coded_bits() == w->coded_bits());
    // The estimate is within its documented bound of the real size, and within 32 bits + 1 %.
    const std::size_t real = 8 * bytes.size();
    RC_ASSERT(within_measure_bound(real, m->bits_used(), m->coded_bits()));
    const std::size_t est = m->bits_used();
    RC_ASSERT(real <= est + 32 + est / 100 && est <= real + 32 + real / 100);
}

TEST(RangeCoder, GoldenBytes) {
    // One fixed input pins the format: probabilities, adaptation, model layout, carry handling and flush.
    auto fields = [](auto& s, bool& flag, std::uint32_t& raw, int& hp, std::int32_t& tick) {
        set_context(s, 3);
        bool ok = serialize_bool(s, flag) && serialize_bits(s, raw, 20) && serialize_int(s, hp, -10, 100);
        set_context(s, 17);  // group 1
        ok = ok && serialize_relative(s, 1000, tick);
        for (int k = 0; k < 8; ++k) {
            set_context(s, 5);
            std::uint32_t zero = 0;
            ok = ok && serialize_bits(s, zero, 3);
        }
        return ok;
    };
    bool flag = true;
    std::uint32_t raw = 0xABCDE;
    int hp = 42;
    std::int32_t tick = 1003;
    Bytes buf(64);
    auto w = make<RangeWriteStream>(buf);
    ASSERT_TRUE(fields(*w, flag, raw, hp, tick));
    w->flush();
    const Bytes bytes(w->data().begin(), w->data().end());
    EXPECT_EQ(bytes, (Bytes{0xD5, 0xE6, 0xEB, 0x45, 0x80, 0x00}));
    EXPECT_EQ(w->bits_used(), 45u);
    bool flag2 = false;
    std::uint32_t raw2 = 0;
    int hp2 = 0;
    std::int32_t tick2 = 0;
    auto r = make<RangeReadStream>(bytes);
    ASSERT_TRUE(fields(*r, flag2, raw2, hp2, tick2));
    EXPECT_TRUE(r->finish());
    EXPECT_EQ(flag2, flag);
    EXPECT_EQ(raw2, raw);
    EXPECT_EQ(hp2, hp);
    EXPECT_EQ(tick2, tick);
}

TEST(RangeCoder, UniformBitsGoldenBytesCostAndSlots) {
    // Uniform fields: coded at 1/2 without a model, the top bits first and then 16 at a time, one bit of cost
    // each, and without taking a slot (the field after one keeps the next ordinal).
    auto fields = [](auto& s, std::uint32_t& a, std::uint32_t& x, std::uint32_t& y, std::uint32_t& b) {
        set_context(s, 3);
        return serialize_bits(s, a, 3) && serialize_uniform_bits(s, x, 20) &&
               serialize_uniform_bits(s, y, 32) && serialize_bits(s, b, 1);
    };
    std::uint32_t a = 5, x = 0xABCDE, y = 0x89ABCDEFu, b = 1;
    Bytes buf(64);
    auto w = make<RangeWriteStream>(buf);
    ASSERT_TRUE(fields(*w, a, x, y, b));
    const std::size_t cost = w->bits_used();
    EXPECT_EQ(cost, 3u + 52u + 1u);  // every model at 1/2: one bit per modelled bit too
    EXPECT_EQ(w->coded_bits(), 56u);
    w->flush();
    const Bytes bytes(w->data().begin(), w->data().end());
    EXPECT_EQ(bytes, (Bytes{0xB5, 0x79, 0xB5, 0x13, 0x57, 0x9B, 0xDF}));
    auto m = make<RangeMeasureStream>();
    ASSERT_TRUE(fields(*m, a, x, y, b));
    EXPECT_EQ(m->bits_used(), cost);
    std::uint32_t a2 = 0, x2 = 0, y2 = 0, b2 = 0;
    auto r = make<RangeReadStream>(bytes);
    ASSERT_TRUE(fields(*r, a2, x2, y2, b2));
    EXPECT_TRUE(r->finish());
    EXPECT_EQ(r->bits_used(), cost);
    EXPECT_EQ(std::tie(a2, x2, y2, b2), std::tie(a, x, y, b));

    // The trainer sees the two modelled fields at ordinals 0 and 1 of group 3, and nothing of the uniform
    // ones.
    RangeModelTrainer trainer;
    RangeTrainingStream t(trainer);
    ASSERT_TRUE(fields(t, a, x, y, b));
    EXPECT_EQ(trainer.bits(), 4u);
    const std::vector<RangeModelEntry> seen = trainer.entries(1);
    ASSERT_FALSE(seen.empty());
    for (const RangeModelEntry& e : seen) {
        EXPECT_EQ(e.group, 3u);
        EXPECT_LE(e.ordinal, 1u);
    }
    EXPECT_EQ(seen.back().ordinal, 1u);

    // On the bit-packing streams a uniform field is exactly serialize_bits.
    Bytes p1(16), p2(16);
    WriteStream w1(p1), w2(p2);
    ASSERT_TRUE(serialize_uniform_bits(w1, x, 20) && serialize_uniform_bits(w1, y, 32));
    ASSERT_TRUE(serialize_bits(w2, x, 20) && serialize_bits(w2, y, 32));
    w1.flush();
    w2.flush();
    EXPECT_EQ(p1, p2);
}

TEST(RangeCoder, GoldenHashOfALongMixedInput) {
    // 1000 records over 3 groups: model reuse, about 1800 carries and 19 runs of pending 0xFF bytes.
    auto records = [](auto& s) {
        XorShift rng;
        for (std::uint32_t k = 0; k < 1000; ++k) {
            set_context(s, k % 3);
            const bool f_expect = rng.next() % 10 == 0;
            const std::uint32_t small_expect = rng.next() % 5, word_expect = rng.next();
            const auto d_expect = static_cast<std::int32_t>(rng.next() % 41) - 20;
            bool f = f_expect;
            std::uint32_t small = small_expect, word = word_expect;
            std::int32_t d = d_expect;
            if (!(serialize_bool(s, f) && serialize_bits(s, small, 5) && serialize_bits(s, word, 32) &&
                  serialize_relative(s, 0, d))) {
                return false;
            }
            if (f != f_expect || small != small_expect || word != word_expect || d != d_expect) return false;
        }
        return true;
    };
    Bytes buf(1 << 15);
    auto w = make<RangeWriteStream>(buf);
    ASSERT_TRUE(records(*w));
    w->flush();
    std::uint32_t fnv = 2166136261u;
    for (std::uint8_t b : w->data()) fnv = (fnv ^ b) * 16777619u;
    EXPECT_EQ(w->bytes_used(), 5292u);
    EXPECT_EQ(fnv, 0x0970765Bu);
    auto r = make<RangeReadStream>(w->data());
    EXPECT_TRUE(records(*r));
    EXPECT_TRUE(r->finish());
}

// Writes `fn` into a fresh range stream; returns the real size in bits, checking measure and read agree.
template <class Fn>
std::size_t range_bits(Fn fn) {
    Bytes buf(1 << 14);
    auto w = make<RangeWriteStream>(buf);
    EXPECT_TRUE(fn(*w));
    w->flush();
    auto m = make<RangeMeasureStream>();
    EXPECT_TRUE(fn(*m));
    EXPECT_EQ(m->bits_used(), w->bits_used());
    EXPECT_TRUE(within_measure_bound(8 * w->bytes_used(), m->bits_used(), m->coded_bits()));
    auto r = make<RangeReadStream>(w->data());
    EXPECT_TRUE(fn(*r));
    EXPECT_TRUE(r->finish());
    return 8 * w->bytes_used();
}

TEST(RangeCoder, SkewedBitsCompress) {
    // 1000 flags with p(1) = 0.05, one record each (entropy about 290 bits; the bit packer needs 1000).
    XorShift rng;
    std::vector<bool> flags(1000);
    for (auto&& f : flags) f = rng.chance(5);
    const auto flag_bits = range_bits([&](auto& s) {
        for (std::size_t k = 0; k < flags.size(); ++k) {
            set_context(s, 1);
            bool f = flags[k];
            if (!serialize_bool(s, f) || f != flags[k]) return false;
        }
        return true;
    });
    EXPECT_LT(flag_bits, 400u);

    // 500 small residuals (|d| <= 2) through serialize_relative: 5 bits each packed, 2500 bits.
    std::vector<std::int32_t> ticks(500);
    for (auto& t : ticks) t = 1000 + static_cast<std::int32_t>(rng.next() % 5) - 2;
    const auto relative_bits = range_bits([&](auto& s) {
        for (std::int32_t expect : ticks) {
            set_context(s, 2);
            std::int32_t t = expect;
            if (!serialize_relative(s, 1000, t) || t != expect) return false;
        }
        return true;
    });
    EXPECT_LT(relative_bits, 1400u);

    // 300 changed-bit masks of 16 bits with one bit (of the low four) set 10 % of the time: 4800 bits packed.
    std::vector<std::uint32_t> masks(300);
    for (auto& mask : masks) mask = rng.chance(10) ? 1u << (rng.next() % 4) : 0u;
    const auto mask_bits = range_bits([&](auto& s) {
        for (std::uint32_t expect : masks) {
            set_context(s, 3);
            std::uint32_t mask = expect;
            if (!serialize_bits(s, mask, 16) || mask != expect) return false;
        }
        return true;
    });
    EXPECT_LT(mask_bits, 700u);
}

TEST(RangeCoder, SetContextIsANoOpOnTheBitStreams) {
    XorShift rng;
    std::vector<Field> schema;
    for (int k = 0; k < 40; ++k) {
        Field f;
        f.kind = k % 3 == 0 ? Kind::context : Kind::bits;
        f.group = rng.next() % 20;
        f.width = 1 + static_cast<int>(rng.next() % 32);
        if (f.kind == Kind::bits) f.u = rng.next() & ((std::uint64_t{1} << f.width) - 1);
        schema.push_back(f);
    }
    std::vector<Field> plain;
    for (const Field& f : schema) {
        if (f.kind != Kind::context) plain.push_back(f);
    }
    auto write = [](std::vector<Field> fields) {
        Bytes buf(512);
        WriteStream w(buf);
        EXPECT_TRUE(serialize_schema(w, fields));
        w.flush();
        return Bytes(w.data().begin(), w.data().end());
    };
    const Bytes with = write(schema);
    EXPECT_EQ(with, write(plain));
    MeasureStream m1, m2;
    std::vector<Field> a = schema, b = plain;
    ASSERT_TRUE(serialize_schema(m1, a));
    ASSERT_TRUE(serialize_schema(m2, b));
    EXPECT_EQ(m1.bits_used(), m2.bits_used());
    ReadStream r(with);
    std::vector<Field> read = blank(schema);
    ASSERT_TRUE(serialize_schema(r, read));
    EXPECT_TRUE(same_values(read, schema));
}

TEST(RangeCoder, PretrainedModelShrinksMessagesAndDefaultModelChangesNothing) {
    // Telemetry-like records: a mostly-idle flag, a small counter and a slowly moving position.
    // On read, record() starts from other values and checks that it decoded the expected ones.
    auto record = [](auto& s, std::uint32_t k) {
        constexpr bool reading = std::remove_reference_t<decltype(s)>::is_reading;
        const bool idle_expect = k % 9 != 0;
        const std::uint32_t count_expect = k % 3;
        const auto pos_expect = static_cast<std::int32_t>(500 + k % 5);
        bool idle = reading ? !idle_expect : idle_expect;
        std::uint32_t count = reading ? 77 : count_expect;
        std::int32_t pos = reading ? 0 : pos_expect;
        set_context(s, 4);
        return serialize_bool(s, idle) && serialize_bits(s, count, 8) && serialize_relative(s, 500, pos) &&
               idle == idle_expect && count == count_expect && pos == pos_expect;
    };
    auto packet = [&](auto& s, std::uint32_t first) {
        for (std::uint32_t k = first; k < first + 12; ++k) {
            if (!record(s, k)) return false;
        }
        return true;
    };
    auto trainer = make<RangeMeasureStream>();
    for (std::uint32_t p = 0; p < 50; ++p) ASSERT_TRUE(packet(*trainer, 12 * p));
    const auto model = std::make_unique<RangeModel>(trainer->model());

    Bytes plain_buf(256), trained_buf(256), default_buf(256);
    auto plain = make<RangeWriteStream>(plain_buf);
    auto trained = make<RangeWriteStream>(trained_buf, *model);
    const auto half = std::make_unique<RangeModel>();
    auto with_default = make<RangeWriteStream>(default_buf, *half);
    ASSERT_TRUE(packet(*plain, 1000) && packet(*trained, 1000) && packet(*with_default, 1000));
    plain->flush();
    trained->flush();
    with_default->flush();
    EXPECT_LE(trained->bytes_used() * 4, plain->bytes_used() * 3);  // at least a quarter smaller
    EXPECT_TRUE(std::ranges::equal(with_default->data(), plain->data()));
    auto r = make<RangeReadStream>(trained->data(), *model);
    ASSERT_TRUE(packet(*r, 1000));
    EXPECT_TRUE(r->finish());
    EXPECT_EQ(r->bits_used(), trained->bits_used());
}

}  // namespace
}  // namespace rwd::wire
