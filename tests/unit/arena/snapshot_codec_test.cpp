// The arena's entity codec on the range coder: deltas of real matches round-trip with and without the shipped
// table (which makes them smaller), aim turns the short way round, and every value has one encoding.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <rewind/wire/range_coder.hpp>
#include <rewind/wire/stream.hpp>

#include "arena/bot.hpp"
#include "arena_test_util.hpp"

namespace arena::test {
namespace {

using Records = std::vector<ArenaGame::EntityRecord>;

// Every entity of `now` delta-coded against its value `age` ticks earlier (or in full when it is new), in
// one range-coded message; checks that it decodes to `now`, returns its size in bytes.
std::size_t code_world(const Records& before, const Records& now, const rwd::wire::RangeModel* model) {
    std::vector<std::uint8_t> buf(64 * 1024);
    auto w = model ? std::make_unique<rwd::wire::RangeWriteStream>(buf, *model)
                   : std::make_unique<rwd::wire::RangeWriteStream>(buf);
    auto base_of = [&](std::uint32_t id) -> const EntitySnapshot* {
        for (const auto& b : before)
            if (b.id == id) return &b.snap;
        return nullptr;
    };
    for (const auto& r : now) {
        EntitySnapshot v = r.snap;
        const EntitySnapshot* base = base_of(r.id);
        EXPECT_TRUE(base ? serialize_delta(*w, v, *base) : serialize(*w, v));
    }
    w->flush();
    EXPECT_TRUE(w->ok());
    auto rd = model ? std::make_unique<rwd::wire::RangeReadStream>(w->data(), *model)
                    : std::make_unique<rwd::wire::RangeReadStream>(w->data());
    for (const auto& r : now) {
        EntitySnapshot v;
        const EntitySnapshot* base = base_of(r.id);
        EXPECT_TRUE(base ? serialize_delta(*rd, v, *base) : serialize(*rd, v));
        EXPECT_EQ(v, r.snap);
    }
    EXPECT_TRUE(rd->finish());
    return w->bytes_used();
}

TEST(SnapshotCodec, RealMatchDeltasRoundTripAndTheShippedTableShrinksThem) {
    State s = new_match(5);
    std::vector<Bot> bots;
    for (int i = 0; i < 16; ++i) {
        ArenaGame::add_player(s, i);
        bots.emplace_back(77 + static_cast<std::uint64_t>(i));
    }
    std::vector<Records> history;
    std::size_t plain = 0, trained = 0;
    for (int t = 0; t < 600; ++t) {
        Inputs in{};
        for (std::size_t i = 0; i < bots.size(); ++i) in[i] = bots[i].think(view_of(s, static_cast<int>(i)));
        ArenaGame::step(s, in, nullptr);
        Records recs;
        ArenaGame::capture(s, recs);
        for (auto& r : recs)  // as client 0 receives them: everyone else without the owner-only fields
            if (r.id != player_entity_id(0)) r.snap = ArenaGame::remote_view(r.snap);
        history.push_back(recs);
        if (t >= 14 && t % 2 == 0) {  // against the world 14 ticks (7 snapshots) back, as on a 200 ms link
            const Records& before = history[history.size() - 15];
            plain += code_world(before, recs, nullptr);
            trained += code_world(before, recs, &ArenaGame::snapshot_model());
        }
    }
    ASSERT_GT(plain, 0u);
    EXPECT_LT(trained * 10, plain * 9)
        << "the shipped table saves at least a tenth: " << trained << " vs " << plain;
}

TEST(SnapshotCodec, AimTurnsTheShortWayRound) {
    EntitySnapshot base;
    base.flags = kPresent | kAlive;
    base.hp = kMaxHp;
    base.aim = 65500;
    for (const std::uint16_t aim : {std::uint16_t{20}, std::uint16_t{65000}, std::uint16_t{32000}}) {
        EntitySnapshot v = base;
        v.aim = aim;
        std::vector<std::uint8_t> buf(256);
        auto w = std::make_unique<rwd::wire::RangeWriteStream>(buf);
        ASSERT_TRUE(serialize_delta(*w, v, base));
        w->flush();
        auto r = std::make_unique<rwd::wire::RangeReadStream>(w->data());
        EntitySnapshot back;
        ASSERT_TRUE(serialize_delta(*r, back, base));
        EXPECT_EQ(back.aim, aim);
        EXPECT_TRUE(r->finish());
        if (aim == 20) {
            EXPECT_LE(w->bytes_used(), 3u);  // a 56-step turn across zero is small
        }
    }
}

// A hand-made delta on the bit packer: same kind, then `moved` with four zero residuals or a flags field
// "changed" to its base value.
std::vector<std::uint8_t> crafted(bool moved_nothing) {
    std::vector<std::uint8_t> buf(64);
    rwd::wire::WriteStream w(buf);
    bool yes = true, no = false;
    EXPECT_TRUE(rwd::wire::serialize_bool(w, yes));  // same kind
    if (moved_nothing) {
        EXPECT_TRUE(rwd::wire::serialize_bool(w, yes));  // moved
        for (int k = 0; k < 4; ++k) {
            std::int32_t v = 100;
            EXPECT_TRUE(rwd::wire::serialize_relative(w, 100, v));
        }
    } else {
        EXPECT_TRUE(rwd::wire::serialize_bool(w, no));   // not moved
        EXPECT_TRUE(rwd::wire::serialize_bool(w, yes));  // flags changed...
        std::uint8_t flags = kPresent | kAlive;          // ...to what they were
        EXPECT_TRUE(rwd::wire::serialize_int(w, flags, std::uint8_t{0}, kAllPlayerFlags));
    }
    for (int k = 0; k < 16; ++k) EXPECT_TRUE(rwd::wire::serialize_bool(w, no));  // nothing else changed
    w.flush();
    return {w.data().begin(), w.data().end()};
}

TEST(SnapshotCodec, ADeltaThatChangesNothingItClaimsIsRefused) {
    EntitySnapshot base;
    base.x = base.y = 100;
    base.vx = base.vy = 100;
    base.flags = kPresent | kAlive;
    for (const bool moved_nothing : {true, false}) {
        const auto bytes = crafted(moved_nothing);
        rwd::wire::ReadStream r(bytes);
        EntitySnapshot v;
        EXPECT_FALSE(serialize_delta(r, v, base)) << moved_nothing;
        EXPECT_EQ(r.error(), rwd::Errc::malformed) << moved_nothing;
    }
}

}  // namespace
}  // namespace arena::test
