// Tests for the entity-list delta codec: round trips at every baseline age, enter/leave, sizes, and
// rejection.
#include "unit/sync/toy_entity.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/sync/entity_delta.hpp>
#include <rewind/sync/snapshot_window.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace rwd::sync {
namespace {

using toy::Rec;
using toy::Snap;
using Ids = std::vector<std::uint32_t>;

std::vector<std::uint8_t> encode(const std::vector<Rec>& base, const std::vector<Rec>& view,
                                 const Ids& stale = {}) {
    std::vector<std::uint8_t> out;
    const Status s = encode_entity_delta(std::span<const Rec>(base), view, stale, out);
    EXPECT_TRUE(s.ok()) << error_name(s.code());
    return out;
}

std::size_t bits(const std::vector<Rec>& base, const std::vector<Rec>& view, const Ids& stale = {}) {
    wire::MeasureStream m;
    auto v = view;
    auto st = stale;
    EXPECT_TRUE(serialize_entity_delta(m, std::span<const Rec>(base), v, st));
    return m.bits_used();
}

/// A world that evolves: entities drift, some take damage, some leave, new ones enter.
std::vector<std::vector<Rec>> history(std::uint64_t seed, int snapshots) {
    Rng rng(seed);
    std::vector<std::vector<Rec>> h;
    std::vector<Rec> world;
    std::uint32_t next_id = 0;
    for (int i = 0; i < 20; ++i)
        world.push_back(Rec{next_id += 1 + static_cast<std::uint32_t>(rng.uniform(40)), Snap{}});
    for (int n = 0; n < snapshots; ++n) {
        for (Rec& r : world) {
            if (rng.uniform(3) != 0) r.snap.x += static_cast<std::int32_t>(rng.uniform(200)) - 100;
            if (rng.uniform(3) != 0) r.snap.y += static_cast<std::int32_t>(rng.uniform(5000)) - 2500;
            if (rng.uniform(10) == 0) r.snap.hp = static_cast<std::uint8_t>(rng.uniform(101));
        }
        if (rng.uniform(3) == 0 && !world.empty())
            world.erase(world.begin() +
                        static_cast<std::ptrdiff_t>(rng.uniform(static_cast<std::uint32_t>(world.size()))));
        if (rng.uniform(2) == 0)
            world.push_back(Rec{next_id += 1 + static_cast<std::uint32_t>(rng.uniform(100000)), Snap{}});
        h.push_back(world);
    }
    return h;
}

TEST(EntityDelta, RoundTripsAgainstEveryBaselineAgeIncludingLostAndTooOld) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        const auto h = history(seed, 48);
        // The server's window of what it sent and the client's window of what it decoded (client sequence =
        // n).
        SnapshotWindow<Rec> server(32), client(64);
        for (std::size_t n = 0; n < h.size(); ++n) {
            auto& sent = server.push(static_cast<std::uint16_t>(n), Tick{static_cast<std::uint32_t>(10 * n)});
            sent = h[n];
            client.push(static_cast<std::uint16_t>(n), Tick{static_cast<std::uint32_t>(10 * n)}) = h[n];
        }
        const std::size_t newest = h.size() - 1;
        for (std::size_t age = 0; age <= newest; ++age) {
            SCOPED_TRACE("age=" + std::to_string(age));
            SnapshotWindow<Rec> s = server;
            // age 0: nothing acknowledged (every ack lost); ages >= 32: the ack names a snapshot that fell
            // out.
            if (age > 0) (void)s.ack(Tick{static_cast<std::uint32_t>(10 * (newest - age))});
            const auto* base = s.baseline();
            EXPECT_EQ(base != nullptr, age > 0 && age < 32);
            const std::span<const Rec> bl =
                base ? std::span<const Rec>(base->entities) : std::span<const Rec>{};
            const auto bytes = encode(std::vector<Rec>(bl.begin(), bl.end()), h[newest]);
            // The client resolves the same baseline by sequence from its own copy.
            const auto* cb = base ? client.find(base->sequence) : nullptr;
            ASSERT_EQ(cb != nullptr, base != nullptr);
            std::vector<Rec> view{Rec{999, {}}};
            Ids stale;
            EntityDeltaStats st;
            ASSERT_TRUE(decode_entity_delta(std::span<const std::uint8_t>(bytes),
                                            cb ? std::span<const Rec>(cb->entities) : std::span<const Rec>{},
                                            view, stale, st)
                            .ok());
            EXPECT_EQ(view, h[newest]);
            EXPECT_TRUE(stale.empty());
            // A fresher baseline never costs more than the empty one.
            EXPECT_LE(bits(std::vector<Rec>(bl.begin(), bl.end()), h[newest]), bits({}, h[newest]));
        }
    }
}

TEST(EntityDelta, UnchangedEntityCostsOneBit) {
    std::vector<Rec> world;
    for (std::uint32_t i = 0; i < 100; ++i)
        world.push_back(Rec{i * 7, Snap{static_cast<std::int32_t>(i), 3, 50}});
    EXPECT_EQ(bits(world, world), 100u + 1u);  // one op bit each + "nothing enters"
    auto moved = world;
    moved[10].snap.x += 3;  // a small move: op `10` + 5 + 5 bits of relative x/y + hp bit
    EXPECT_EQ(bits(world, moved), 99u + 2u + 5u + 5u + 1u + 1u);
}

TEST(EntityDelta, EntitiesEnterInFullAndLeaveExplicitly) {
    const std::vector<Rec> base{{1, {10, 10, 100}}, {5, {20, 20, 100}}, {9, {30, 30, 100}}};
    const std::vector<Rec> now{{1, {10, 10, 100}}, {3, {-5, 7, 40}}, {9, {31, 30, 100}}, {70000, {1, 2, 3}}};
    const auto bytes = encode(base, now);
    std::vector<Rec> view;
    Ids stale;
    EntityDeltaStats st;
    ASSERT_TRUE(
        decode_entity_delta(std::span<const std::uint8_t>(bytes), std::span<const Rec>(base), view, stale, st)
            .ok());
    EXPECT_EQ(view, now);  // 5 removed, 3 and 70000 entered complete, 9 changed
    EXPECT_EQ(st.decoded, 1u);
    // Against an empty baseline everything enters; removed entities cost 3 bits and nothing else.
    std::vector<Rec> gone = base;
    gone.erase(gone.begin() + 1);
    EXPECT_EQ(bits(base, gone), 1u + 3u + 1u + 1u);
}

TEST(EntityDelta, StaleEntitiesKeepTheBaselineValueAndCanBeRefreshedForDisplay) {
    const std::vector<Rec> base{{1, {10, 10, 100}}, {2, {20, 20, 100}}};
    const auto bytes = encode(base, base, Ids{2});
    std::vector<Rec> view;
    Ids stale;
    EntityDeltaStats st;
    ASSERT_TRUE(
        decode_entity_delta(std::span<const std::uint8_t>(bytes), std::span<const Rec>(base), view, stale, st)
            .ok());
    EXPECT_EQ(view, base);
    EXPECT_EQ(stale, Ids{2});
    const std::vector<Rec> shown{{1, {11, 10, 100}},
                                 {2, {25, 20, 100}}};  // newer values the client already drew
    refresh_stale(std::span<const Rec>(shown), std::span<const std::uint32_t>(stale), view);
    EXPECT_EQ(view[0].snap, base[0].snap);   // not stale: the decoded value
    EXPECT_EQ(view[1].snap, shown[1].snap);  // stale: the newer value already shown
}

TEST(EntityDelta, WriterRefusesInconsistentInput) {
    const std::vector<Rec> base{{1, {}}, {2, {}}};
    std::vector<std::uint8_t> out;
    EXPECT_EQ(
        encode_entity_delta(std::span<const Rec>(base), std::vector<Rec>{{2, {}}, {1, {}}}, {}, out).code(),
        Errc::invalid_argument);  // not ascending
    EXPECT_EQ(encode_entity_delta(std::span<const Rec>(base), std::vector<Rec>{{1, {}}, {2, {5, 5, 5}}},
                                  Ids{2}, out)
                  .code(),
              Errc::invalid_argument);  // stale but different from the baseline
    EXPECT_EQ(encode_entity_delta(std::span<const Rec>(base), std::vector<Rec>{{1, {}}}, Ids{3}, out).code(),
              Errc::invalid_argument);  // stale id nowhere
}

/// Writes raw bits for hand-made malformed lists.
struct Bits {
    std::vector<std::uint8_t> buf = std::vector<std::uint8_t>(64, 0);
    wire::WriteStream w{std::span<std::uint8_t>(buf)};
    Bits& put(std::uint32_t v, int n) {
        EXPECT_TRUE(w.serialize_bits(v, n));
        return *this;
    }
    std::vector<std::uint8_t> done() {
        w.flush();
        return {buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(w.bytes_used())};
    }
};

Errc decode_error(const std::vector<std::uint8_t>& data, const std::vector<Rec>& base,
                  std::uint32_t max = kDefaultMaxEntities) {
    std::vector<Rec> view{Rec{42, {}}};
    Ids stale{42};
    EntityDeltaStats st;
    const Status s = decode_entity_delta(std::span<const std::uint8_t>(data), std::span<const Rec>(base),
                                         view, stale, st, max);
    EXPECT_EQ(view, (std::vector<Rec>{Rec{42, {}}}));  // untouched on failure
    EXPECT_EQ(stale, Ids{42});
    EXPECT_EQ(st.rejected, s.ok() ? 0u : 1u);
    return s.code();
}

TEST(EntityDelta, DecoderRejectsMalformedLists) {
    const std::vector<Rec> base{{1, {}}, {2, {}}};
    // "changed" to exactly the base value: x +0, y +0 (bucket 0 = `0` + 4 bits 8), hp unchanged.
    EXPECT_EQ(
        decode_error(
            Bits{}.put(0b01, 2).put(0, 1).put(8, 4).put(0, 1).put(8, 4).put(0, 1).put(0, 1).put(0, 1).done(),
            base),
        Errc::malformed);
    // An entering id that is already in the baseline (2 -> varint 2).
    EXPECT_EQ(
        decode_error(
            Bits{}.put(0, 1).put(0, 1).put(1, 1).put(0, 10).put(2, 8).put(0, 21).put(0, 21).put(0, 7).done(),
            base),
        Errc::malformed);
    // Two entering ids not ascending: small gap bit 0 with a varint gap of 0.
    const std::vector<Rec> none;
    EXPECT_EQ(decode_error(Bits{}
                               .put(1, 1)
                               .put(1, 10)
                               .put(5, 8)
                               .put(1000000, 21)
                               .put(1000000, 21)
                               .put(0, 7)
                               .put(0, 1)
                               .put(0, 8)
                               .done(),
                           none),
              Errc::malformed);
    // A count above the limit.
    EXPECT_EQ(decode_error(Bits{}.put(1, 1).put(7, 3).done(), none, 5), Errc::value_out_of_range);
    // A count the remaining bits cannot hold.
    EXPECT_EQ(decode_error(Bits{}.put(1, 1).put(1000, 10).done(), none), Errc::length_too_long);
    // Baseline plus entering over the limit.
    EXPECT_EQ(
        decode_error(
            Bits{}.put(0, 1).put(0, 1).put(1, 1).put(1, 10).put(7, 8).put(0, 21).put(0, 21).put(0, 7).done(),
            base, 3),
        Errc::length_too_long);
    // Trailing garbage after a valid list.
    EXPECT_EQ(decode_error(Bits{}.put(0, 1).put(0, 1).put(0, 1).put(0xFF, 8).put(0xFF, 8).done(), base),
              Errc::malformed);
}

TEST(EntityDelta, EveryTruncationIsRejectedAndChangesNothing) {
    const auto h = history(7, 6);
    const auto bytes = encode(h[2], h[5]);
    for (std::size_t n = 0; n + 1 < bytes.size(); ++n) {
        const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_NE(decode_error(cut, h[2]), Errc::ok) << n;
    }
}

RC_GTEST_PROP(EntityDeltaProp, GarbageNeverCrashesAndNeverPartiallyApplies,
              (std::vector<std::uint8_t> data)) {
    const std::vector<Rec> base{{3, {1, 2, 3}}, {4, {5, 6, 7}}, {100, {-8, 9, 10}}};
    const std::vector<Rec> good{{7, {}}};
    std::vector<Rec> view = good;
    Ids stale;
    EntityDeltaStats st;
    const Status s =
        decode_entity_delta(std::span<const std::uint8_t>(data), std::span<const Rec>(base), view, stale, st);
    if (!s.ok()) {
        RC_ASSERT(view == good);
        RC_ASSERT(st.rejected == 1u);
    } else {
        // Whatever decodes is a valid list: ascending ids, at most the limit, and it re-encodes to the same
        // list.
        RC_ASSERT(std::is_sorted(view.begin(), view.end(),
                                 [](const Rec& a, const Rec& b) { return a.id <= b.id; }) ||
                  view.size() < 2);
        for (std::size_t i = 1; i < view.size(); ++i) RC_ASSERT(view[i - 1].id < view[i].id);
        std::vector<std::uint8_t> again;
        RC_ASSERT(encode_entity_delta(std::span<const Rec>(base), view, stale, again).ok());
        std::vector<Rec> view2;
        Ids stale2;
        RC_ASSERT(decode_entity_delta(std::span<const std::uint8_t>(again), std::span<const Rec>(base), view2,
                                      stale2, st)
                      .ok());
        RC_ASSERT(view2 == view);
        RC_ASSERT(stale2 == stale);
    }
}

}  // namespace
}  // namespace rwd::sync
