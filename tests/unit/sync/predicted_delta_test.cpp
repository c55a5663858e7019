// Tests for predicted deltas: entity lists coded against the baseline advanced by a prediction both ends run.
#include "unit/sync/toy_entity.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/sync/entity_delta.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rwd::sync {
namespace {

using toy::Rec;
using toy::Snap;
using Ids = std::vector<std::uint32_t>;

/// The toy's prediction: x moves 10 units per tick, y stays (deterministic, integer).
Snap drift(const Snap& s, std::int32_t ticks) {
    Snap p = s;
    p.x = s.x + 10 * ticks;
    return p;
}

std::size_t bits(const std::vector<Rec>& base, const std::vector<Rec>& ref, const std::vector<Rec>& view,
                 const Ids& stale = {}) {
    wire::MeasureStream m;
    auto v = view;
    auto st = stale;
    EXPECT_TRUE(serialize_entity_delta(m, std::span<const Rec>(base), v, st, kDefaultMaxEntities,
                                       std::span<const Rec>(ref)));
    return m.bits_used();
}

std::vector<Rec> decode(const std::vector<std::uint8_t>& bytes, const std::vector<Rec>& base,
                        const std::vector<Rec>& ref, Ids& stale) {
    std::vector<Rec> view;
    EntityDeltaStats st;
    const Status s = decode_entity_delta(std::span<const std::uint8_t>(bytes), std::span<const Rec>(base),
                                         view, stale, st, kDefaultMaxEntities, std::span<const Rec>(ref));
    EXPECT_TRUE(s.ok()) << error_name(s.code());
    return view;
}

TEST(PredictedDelta, AnEntityThatMovedAsPredictedCostsOneBitHoweverOldItsBaselineIs) {
    std::vector<Rec> base;
    for (std::uint32_t i = 0; i < 50; ++i)
        base.push_back(Rec{i * 3 + 1, Snap{static_cast<std::int32_t>(1000 * i), 7, 90}});
    for (const std::int32_t ticks : {1, 14, 60, 600}) {
        SCOPED_TRACE("ticks=" + std::to_string(ticks));
        std::vector<Rec> ref;
        predict_records(std::span<const Rec>(base), ticks, &drift, ref);
        const std::vector<Rec> now = ref;  // everyone moved exactly as predicted
        EXPECT_EQ(bits(base, ref, now), 50u + 1u);
        // Against the plain baseline every one of them is a change.
        EXPECT_GT(bits(base, {}, now), 50u * 10u);
        std::vector<std::uint8_t> bytes;
        ASSERT_TRUE(encode_entity_delta(std::span<const Rec>(base), now, {}, bytes, kDefaultMaxEntities,
                                        std::span<const Rec>(ref))
                        .ok());
        Ids stale;
        EXPECT_EQ(decode(bytes, base, ref, stale), now);
    }
}

TEST(PredictedDelta, TheResidualIsCodedAgainstThePredictionAndStaleEntitiesKeepTheBaselineValue) {
    const std::vector<Rec> base{{1, {0, 0, 100}}, {2, {500, 0, 100}}, {3, {900, 0, 100}}};
    std::vector<Rec> ref;
    predict_records(std::span<const Rec>(base), 6, &drift, ref);
    // 1 stopped where it was (a change against the prediction), 2 as predicted, 3 left out by the budget.
    const std::vector<Rec> now{{1, {0, 0, 100}}, {2, {560, 0, 100}}, {3, {900, 0, 100}}};
    std::vector<std::uint8_t> bytes;
    ASSERT_TRUE(encode_entity_delta(std::span<const Rec>(base), now, Ids{3}, bytes, kDefaultMaxEntities,
                                    std::span<const Rec>(ref))
                    .ok());
    Ids stale;
    EXPECT_EQ(decode(bytes, base, ref, stale), now);
    EXPECT_EQ(stale, Ids{3});
    // A residual of -60 in x: the op, an 8-bit relative bucket for x, 4 bits for y, the hp bit.
    EXPECT_EQ(bits(base, ref, now, Ids{3}), 2u + (2u + 8u) + (1u + 4u) + 1u + 1u + 3u + 1u);
    // A stale entity must hold its baseline value, not the prediction.
    std::vector<Rec> wrong = now;
    wrong[2].snap = ref[2].snap;
    EXPECT_FALSE(encode_entity_delta(std::span<const Rec>(base), wrong, Ids{3}, bytes, kDefaultMaxEntities,
                                     std::span<const Rec>(ref))
                     .ok());
}

TEST(PredictedDelta, AChangedEntityEqualToItsPredictionIsRefusedAsNonCanonical) {
    const std::vector<Rec> base{{4, {100, 0, 100}}};
    std::vector<Rec> ref;
    predict_records(std::span<const Rec>(base), 3, &drift, ref);
    // Hand-made: op `10` then a zero residual (x, y relative 0, hp unchanged): equal to the reference.
    std::vector<std::uint8_t> bytes(8, 0);
    wire::WriteStream w{std::span<std::uint8_t>(bytes)};
    std::uint32_t one = 1, zero = 0;
    Snap same = ref[0].snap;
    ASSERT_TRUE(w.serialize_bits(one, 1) && w.serialize_bits(zero, 1));
    ASSERT_TRUE(toy::serialize_delta(w, same, ref[0].snap));
    ASSERT_TRUE(w.serialize_bits(zero, 1));  // nothing enters
    w.flush();
    bytes.resize(w.bytes_used());
    std::vector<Rec> view;
    Ids stale;
    EntityDeltaStats st;
    EXPECT_FALSE(decode_entity_delta(std::span<const std::uint8_t>(bytes), std::span<const Rec>(base), view,
                                     stale, st, kDefaultMaxEntities, std::span<const Rec>(ref))
                     .ok());
    EXPECT_EQ(st.malformed, 1u);
}

TEST(PredictedDelta, AReferenceThatDoesNotMatchTheBaselineIsRefusedByTheWriter) {
    const std::vector<Rec> base{{1, {0, 0, 100}}, {2, {0, 0, 100}}};
    const std::vector<Rec> short_ref{{1, {10, 0, 100}}};
    const std::vector<Rec> other_ids{{1, {10, 0, 100}}, {3, {10, 0, 100}}};
    std::vector<std::uint8_t> bytes;
    EXPECT_EQ(encode_entity_delta(std::span<const Rec>(base), base, {}, bytes, kDefaultMaxEntities,
                                  std::span<const Rec>(short_ref))
                  .code(),
              Errc::invalid_argument);
    EXPECT_EQ(encode_entity_delta(std::span<const Rec>(base), base, {}, bytes, kDefaultMaxEntities,
                                  std::span<const Rec>(other_ids))
                  .code(),
              Errc::invalid_argument);
}

TEST(PredictedDelta, PredictionTicksAreHeldToARangeTheNetworkCannotAbuse) {
    EXPECT_EQ(prediction_ticks(-5), 0);
    EXPECT_EQ(prediction_ticks(0), 0);
    EXPECT_EQ(prediction_ticks(14), 14);
    EXPECT_EQ(prediction_ticks(std::int64_t{1} << 40), kMaxPredictionTicks);
}

TEST(PredictedDelta, RandomWorldsRoundTripWithAnyPredictionAge) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        Rng rng(seed);
        std::vector<Rec> base, now;
        for (std::uint32_t i = 0; i < 40; ++i) {
            const Snap s{static_cast<std::int32_t>(rng.uniform(20000)) - 10000,
                         static_cast<std::int32_t>(rng.uniform(20000)) - 10000,
                         static_cast<std::uint8_t>(rng.uniform(101))};
            if (rng.uniform(4) != 0) base.push_back(Rec{i, s});
        }
        const auto ticks = static_cast<std::int32_t>(rng.uniform(40));
        std::vector<Rec> ref;
        predict_records(std::span<const Rec>(base), ticks, &drift, ref);
        Ids stale;
        for (std::size_t k = 0; k < ref.size(); ++k) {
            const auto pick = rng.uniform(4);
            if (pick == 0) continue;  // removed
            Rec r = pick == 1 ? ref[k] : (pick == 2 ? base[k] : Rec{ref[k].id, drift(ref[k].snap, 1)});
            if (pick == 2 && rng.uniform(2) == 0) stale.push_back(r.id);
            now.push_back(r);
        }
        now.push_back(Rec{100 + static_cast<std::uint32_t>(rng.uniform(1000)), Snap{1, 2, 3}});  // enters
        std::vector<std::uint8_t> bytes;
        ASSERT_TRUE(encode_entity_delta(std::span<const Rec>(base), now, stale, bytes, kDefaultMaxEntities,
                                        std::span<const Rec>(ref))
                        .ok());
        Ids got_stale;
        EXPECT_EQ(decode(bytes, base, ref, got_stale), now);
        EXPECT_EQ(got_stale, stale);
    }
}

}  // namespace
}  // namespace rwd::sync
