// RangeModelTrainer and RangeTrainingStream: counts land on the models the coder uses, the learned table
// shrinks messages like the ones it saw and decodes them, and RangeModel::set validates its entries.
#include "range_coder_test_util.hpp"

#include <rewind/wire/range_training.hpp>
#include <rewind/wire/residual.hpp>

#include <algorithm>
#include <cstdint>

namespace rwd::wire {
namespace {

using range_test::Bytes;
using range_test::make;

// A skewed record: a rare flag, a small counter in 6 bits, a residual near zero, in two groups.
template <class Stream>
bool record(Stream& s, std::uint32_t k, bool check) {
    constexpr bool reading = Stream::is_reading;
    const bool flag_expect = k % 11 == 0;
    const std::uint32_t count_expect = k % 4;
    const auto pos_expect = static_cast<std::int32_t>(k % 5) - 2;
    bool flag = reading ? !flag_expect : flag_expect;
    std::uint32_t count = reading ? 63 : count_expect;
    std::int32_t pos = reading ? 99 : pos_expect;
    set_context(s, 3);
    const bool ok =
        serialize_bool(s, flag) && serialize_bits(s, count, 6) && serialize_residual(s, 4, 0, pos);
    return ok && (!check || (flag == flag_expect && count == count_expect && pos == pos_expect));
}

template <class Stream>
bool packet(Stream& s, std::uint32_t first) {
    for (std::uint32_t k = first; k < first + 10; ++k) {
        if (!record(s, k, Stream::is_reading)) return false;
    }
    return true;
}

TEST(RangeTraining, CountsLandOnTheCodersModels) {
    RangeModelTrainer t;
    {
        RangeTrainingStream s(t);
        std::uint32_t v = 0b101;  // 3 bits: the tree nodes 1, 3 (after 1), 6 (after 10)
        set_context(s, 2, 7);
        ASSERT_TRUE(serialize_bits(s, v, 3));
        std::uint32_t wide = 0x20;  // 6 bits: tree over bits 5..2 (nodes 1, 3, 6, 12), low bits 1 and 0
        ASSERT_TRUE(serialize_bits(s, wide, 6));
    }
    EXPECT_EQ(t.messages(), 1u);
    EXPECT_EQ(t.bits(), 9u);
    const auto entries = t.entries(1);
    // Slot (2, 7): tree nodes 1 (saw 1), 3 (saw 0), 6 (saw 1); slot (2, 8): nodes 1, 3, 6, 12, then the
    // low bits 0 and 1 (models 16 and 17), ordered by slot then model.
    ASSERT_EQ(entries.size(), 9u);
    EXPECT_EQ(entries[0].group, 2);
    EXPECT_EQ(entries[0].ordinal, 7);
    EXPECT_EQ(entries[0].model, 1);
    EXPECT_LT(entries[0].probability, 2048);  // saw a 1
    EXPECT_EQ(entries[1].model, 3);
    EXPECT_GT(entries[1].probability, 2048);  // saw a 0
    EXPECT_EQ(entries[2].model, 6);
    EXPECT_EQ(entries[3].ordinal, 8);
    EXPECT_EQ(entries[6].model, 12);
    EXPECT_EQ(entries[7].model, 16);
    EXPECT_EQ(entries[8].model, 17);
    EXPECT_TRUE(t.entries(2).empty());  // one sample each: under the minimum
}

TEST(RangeTraining, LearnedTableShrinksAndDecodesSimilarMessages) {
    RangeModelTrainer t;
    for (std::uint32_t p = 0; p < 60; ++p) {
        RangeTrainingStream s(t);
        ASSERT_TRUE(packet(s, 10 * p));
    }
    const auto model = std::make_unique<RangeModel>(t.model());
    const auto half = std::make_unique<RangeModel>();
    EXPECT_LT(t.static_cost_bits(*model) * 2, t.static_cost_bits(*half));

    Bytes plain_buf(128), trained_buf(128);
    auto plain = make<RangeWriteStream>(plain_buf);
    auto trained = make<RangeWriteStream>(trained_buf, *model);
    ASSERT_TRUE(packet(*plain, 5000) && packet(*trained, 5000));
    plain->flush();
    trained->flush();
    EXPECT_LT(trained->bytes_used() * 3, plain->bytes_used() * 2);  // at least a third smaller
    auto r = make<RangeReadStream>(trained->data(), *model);
    ASSERT_TRUE(packet(*r, 5000));
    EXPECT_TRUE(r->finish());
    // Read without the table, the same bytes are not that message.
    auto wrong = make<RangeReadStream>(trained->data());
    EXPECT_FALSE(packet(*wrong, 5000) && wrong->finish());
}

TEST(RangeTraining, CountingWriterCountsWhatATrainingStreamCounts) {
    RangeModelTrainer by_stream, by_writer;
    Bytes plain_buf(256), counting_buf(256);
    auto plain = make<RangeWriteStream>(plain_buf);
    auto counting = make<RangeWriteStream>(counting_buf);
    counting->count_into(by_writer);
    for (std::uint32_t p = 0; p < 3; ++p) {
        RangeTrainingStream s(by_stream);
        ASSERT_TRUE(packet(s, 10 * p));
    }
    // Three packets through one writer: the counts are the same per model, the message count is the writer's.
    ASSERT_TRUE(packet(*plain, 0) && packet(*plain, 10) && packet(*plain, 20));
    ASSERT_TRUE(packet(*counting, 0) && packet(*counting, 10) && packet(*counting, 20));
    plain->flush();
    counting->flush();
    EXPECT_EQ(by_writer.messages(), 1u);
    EXPECT_EQ(by_writer.bits(), by_stream.bits());
    const auto a = by_stream.entries(1);
    const auto b = by_writer.entries(1);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].group, b[i].group);
        EXPECT_EQ(a[i].ordinal, b[i].ordinal);
        EXPECT_EQ(a[i].model, b[i].model);
        EXPECT_EQ(a[i].probability, b[i].probability);
    }
    // Counting changes nothing the writer codes.
    EXPECT_TRUE(std::ranges::equal(plain->data(), counting->data()));
}

TEST(RangeTraining, SetValidatesAndClamps) {
    RangeModel m;
    EXPECT_EQ(m.set(RangeModelEntry{16, 0, 1, 100}).code(), Errc::invalid_argument);  // group
    EXPECT_EQ(m.set(RangeModelEntry{0, 64, 1, 100}).code(), Errc::invalid_argument);  // ordinal
    EXPECT_EQ(m.set(RangeModelEntry{0, 0, 0, 100}).code(), Errc::invalid_argument);   // model 0 is unused
    EXPECT_EQ(m.set(RangeModelEntry{0, 0, 44, 100}).code(), Errc::invalid_argument);  // past the last
    ASSERT_TRUE(m.set(RangeModelEntry{1, 2, 3, 0}));
    ASSERT_TRUE(m.set(RangeModelEntry{1, 2, 43, 4096}));
    ASSERT_TRUE(m.set(RangeModelEntry{1, 2, 5, 1000}));
    EXPECT_EQ(m.probability(1, 2, 3), 31u);  // clamped into the coder's range
    EXPECT_EQ(m.probability(1, 2, 43), 4065u);
    EXPECT_EQ(m.probability(1, 2, 5), 1000u);
    EXPECT_EQ(m.probability(1, 2, 4), 2048u);  // untouched
    // Extreme probabilities code and decode anything (the coder's bounds hold from the first bit).
    const std::array<RangeModelEntry, 2> extremes = {{{0, 0, 1, 0}, {0, 0, 16, 4096}}};
    ASSERT_TRUE(m.set(extremes));
    Bytes buf(4096);  // a 0 under P(0) = 31/4096 costs 7 bits: room for the worst case
    auto w = make<RangeWriteStream>(buf, m);
    for (std::uint32_t k = 0; k < 200; ++k) {
        std::uint32_t v = k * 2654435761u;
        set_context(*w, 0);
        ASSERT_TRUE(serialize_bits(*w, v, 32));
    }
    w->flush();
    auto r = make<RangeReadStream>(w->data(), m);
    for (std::uint32_t k = 0; k < 200; ++k) {
        std::uint32_t v = 0;
        set_context(*r, 0);
        ASSERT_TRUE(serialize_bits(*r, v, 32));
        EXPECT_EQ(v, k * 2654435761u);
    }
    EXPECT_TRUE(r->finish());
}

}  // namespace
}  // namespace rwd::wire
