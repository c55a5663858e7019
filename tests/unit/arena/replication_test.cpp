// Replication hooks: capture/restore reproduces prediction exactly, snapshots round-trip (full and delta),
// untrusted records cannot break step(), interpolation and diffs.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <rewind/wire/stream.hpp>

#include "arena/bot.hpp"
#include "arena_test_util.hpp"

namespace arena::test {
namespace {

using Records = std::vector<ArenaGame::EntityRecord>;

// A running bot match: `players` bots, `ticks` steps.
struct Match {
    State state;
    std::vector<Bot> bots;
    explicit Match(std::uint64_t seed, int players) : state(new_match(seed)) {
        for (int i = 0; i < players; ++i) {
            ArenaGame::add_player(state, i);
            bots.emplace_back(seed * 31 + static_cast<std::uint64_t>(i));
        }
    }
    Inputs inputs() {
        Inputs in{};
        for (std::size_t i = 0; i < bots.size(); ++i)
            in[i] = bots[i].think(view_of(state, static_cast<int>(i)));
        return in;
    }
};

TEST(Replication, RestoredStatePredictsExactlyLikeTheServer) {
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        Match m(seed, 24);
        int checked_projectiles = 0;
        for (int round = 0; round < 6; ++round) {
            for (int t = 0; t < 150; ++t) ArenaGame::step(m.state, m.inputs(), nullptr);
            Records recs;
            ArenaGame::capture(m.state, recs);
            State client{};  // a client that never saw the match begin
            ArenaGame::restore(client, recs);
            State server = m.state;
            for (int t = 0; t < 60; ++t) {
                const Inputs in = m.inputs();
                ArenaGame::step(server, in, nullptr);
                ArenaGame::step(client, in, nullptr);
                ArenaGame::step(m.state, in, nullptr);
                Records a;
                Records b;
                ArenaGame::capture(server, a);
                ArenaGame::capture(client, b);
                ASSERT_EQ(a.size(), b.size()) << "tick " << t;
                for (std::size_t i = 0; i < a.size(); ++i) {
                    ASSERT_EQ(a[i].id, b[i].id) << "tick " << t;
                    ASSERT_EQ(ArenaGame::diff_fields(a[i].snap, b[i].snap), 0u)
                        << "tick " << t << " entity " << a[i].id;
                    checked_projectiles += a[i].snap.kind == EntityKind::kProjectile ? 1 : 0;
                }
                // Beyond the entities, the players' whole state matches byte for byte.
                ASSERT_EQ(std::memcmp(server.players.data(), client.players.data(), sizeof(server.players)),
                          0);
            }
        }
        EXPECT_GT(checked_projectiles, 0);
    }
}

TEST(Replication, CaptureIsSortedWithStableIds) {
    Match m(9, 32);
    std::uint32_t first_projectile = 0;
    for (int t = 0; t < 600; ++t) {
        ArenaGame::step(m.state, m.inputs(), nullptr);
        Records recs;
        ArenaGame::capture(m.state, recs);
        for (std::size_t i = 1; i < recs.size(); ++i) {
            ASSERT_LT(recs[i - 1].id, recs[i].id);
        }
        for (const auto& r : recs) {
            if (r.id < kMaxPlayers) {
                ASSERT_EQ(r.snap.kind, EntityKind::kPlayer);
            } else {
                ASSERT_EQ(r.snap.kind, EntityKind::kProjectile);
                ASSERT_EQ((r.id - kProjectileIdBase) >> 16, r.snap.owner);
                if (first_projectile == 0) first_projectile = r.id;
            }
        }
    }
    EXPECT_NE(first_projectile, 0u);
    EXPECT_EQ(ArenaGame::player_entity(5), 5u);
}

TEST(Replication, CaptureEntityIsWhatCaptureListsForThatId) {
    Match m(11, 24);  // seats 24..63 empty
    int projectiles_seen = 0;
    for (int t = 0; t < 300; ++t) {
        ArenaGame::step(m.state, m.inputs(), nullptr);
        Records recs;
        ArenaGame::capture(m.state, recs);
        for (const auto& r : recs) {
            const auto one = ArenaGame::capture_entity(m.state, r.id);
            ASSERT_TRUE(one.has_value()) << "id " << r.id << " tick " << t;
            ASSERT_EQ(*one, r.snap) << "id " << r.id << " tick " << t;
            if (r.id >= kProjectileIdBase) ++projectiles_seen;
        }
        // Ids capture() does not list: empty seats, other serials of a live projectile's owner, junk.
        for (std::uint32_t id : {30u, 63u, 64u, 255u, kProjectileIdBase + (70u << 16), 0xFFFFFFFFu})
            ASSERT_FALSE(ArenaGame::capture_entity(m.state, id).has_value()) << "id " << id;
        for (const auto& r : recs) {
            const std::uint32_t next = r.id + 1;  // the owner's next serial: listed only if it flies too
            const bool listed =
                std::any_of(recs.begin(), recs.end(), [&](const auto& o) { return o.id == next; });
            if (r.id >= kProjectileIdBase && !listed) {
                ASSERT_FALSE(ArenaGame::capture_entity(m.state, next).has_value()) << "id " << next;
            }
        }
    }
    EXPECT_GT(projectiles_seen, 0);
}

template <class Fn>
std::vector<std::uint8_t> write(Fn&& fn) {
    std::vector<std::uint8_t> buf(256);
    rwd::wire::WriteStream w(buf);
    EXPECT_TRUE(fn(w));
    w.flush();
    buf.resize(w.bytes_used());
    return buf;
}

TEST(Replication, SnapshotsRoundTripFullAndDelta) {
    Match m(4, 16);
    Records prev;
    std::size_t full_bits = 0;
    std::size_t delta_bits = 0;
    for (int t = 0; t < 400; ++t) {
        ArenaGame::step(m.state, m.inputs(), nullptr);
        Records recs;
        ArenaGame::capture(m.state, recs);
        for (auto& r : recs) {
            EntitySnapshot snap = r.snap;
            const auto bytes = write([&](auto& w) { return serialize(w, snap); });
            rwd::wire::ReadStream rd(bytes);
            EntitySnapshot back;
            ASSERT_TRUE(serialize(rd, back));
            ASSERT_EQ(back, r.snap);
            full_bits += bytes.size() * 8;
            // Delta against the previous tick's record of the same entity (or a default base).
            EntitySnapshot base{};
            for (const auto& p : prev) {
                if (p.id == r.id) base = p.snap;
            }
            const auto dbytes = write([&](auto& w) { return serialize_delta(w, snap, base); });
            rwd::wire::ReadStream rd2(dbytes);
            EntitySnapshot dback;
            ASSERT_TRUE(serialize_delta(rd2, dback, base));
            ASSERT_EQ(dback, r.snap);
            delta_bits += dbytes.size() * 8;
        }
        prev = recs;
    }
    EXPECT_LT(delta_bits * 2, full_bits);  // deltas are much smaller than full snapshots
}

TEST(Replication, UnchangedDeltaIsTiny) {
    Match m(5, 2);
    ArenaGame::step(m.state, m.inputs(), nullptr);
    Records recs;
    ArenaGame::capture(m.state, recs);
    EntitySnapshot snap = recs[0].snap;
    rwd::wire::MeasureStream ms;
    ASSERT_TRUE(serialize_delta(ms, snap, recs[0].snap));
    EXPECT_LE(ms.bits_used(), 20u);
}

RC_GTEST_PROP(Replication, GarbageRecordsNeverBreakStep, ()) {
    const auto n = *rc::gen::inRange(0, 80);
    Records recs;
    for (int i = 0; i < n; ++i) {
        ArenaGame::EntityRecord r;
        r.id = *rc::gen::oneOf(
            rc::gen::inRange<std::uint32_t>(0, 300),
            rc::gen::inRange<std::uint32_t>(kProjectileIdBase, kProjectileIdBase + 70 * 65536),
            rc::gen::arbitrary<std::uint32_t>());
        EntitySnapshot& e = r.snap;
        e.kind = *rc::gen::element(EntityKind::kPlayer, EntityKind::kProjectile, static_cast<EntityKind>(7));
        e.flags = *rc::gen::arbitrary<std::uint8_t>();
        e.ammo = *rc::gen::arbitrary<std::uint8_t>();
        e.owner = *rc::gen::arbitrary<std::uint8_t>();
        e.x = *rc::gen::arbitrary<std::int32_t>();
        e.y = *rc::gen::arbitrary<std::int32_t>();
        e.vx = *rc::gen::arbitrary<std::int32_t>();
        e.vy = *rc::gen::arbitrary<std::int32_t>();
        e.hp = *rc::gen::arbitrary<std::int16_t>();
        e.fire_cooldown = *rc::gen::arbitrary<std::uint16_t>();
        e.reload_timer = *rc::gen::arbitrary<std::uint16_t>();
        e.respawn_timer = *rc::gen::arbitrary<std::uint16_t>();
        e.dash_timer = *rc::gen::arbitrary<std::uint16_t>();
        e.ttl = *rc::gen::arbitrary<std::uint16_t>();
        e.score = *rc::gen::arbitrary<std::int32_t>();
        e.rng = {*rc::gen::arbitrary<std::uint64_t>(), *rc::gen::arbitrary<std::uint64_t>()};
        recs.push_back(r);
    }
    State s{};
    ArenaGame::restore(s, recs);
    Inputs in{};
    for (int t = 0; t < 30; ++t) {
        for (Input& i : in) {
            i.move_x = *rc::gen::arbitrary<std::int8_t>();
            i.buttons = *rc::gen::arbitrary<std::uint8_t>();
            i.aim = *rc::gen::arbitrary<std::uint16_t>();
        }
        ArenaGame::step(s, in, nullptr);
        for (const Player& p : s.players) {
            if (!p.present()) continue;
            RC_ASSERT(p.x >= kPlayerRadius && p.x <= kArenaSize - kPlayerRadius);
            RC_ASSERT(p.y >= kPlayerRadius && p.y <= kArenaSize - kPlayerRadius);
            RC_ASSERT(p.hp >= 0 && p.hp <= kMaxHp);
        }
    }
    Records out;
    ArenaGame::capture(s, out);
    for (auto& r : out) {  // whatever came in, what goes out is on the wire grid
        rwd::wire::MeasureStream ms;
        RC_ASSERT(serialize(ms, r.snap));
    }
}

TEST(Replication, InterpolationBlendsMotionButNotTeleports) {
    EntitySnapshot a;
    a.flags = kPresent | kAlive;
    a.x = 1000;
    a.y = 2000;
    a.aim = 65000;
    a.hp = 50;
    EntitySnapshot b = a;
    b.x = 2000;
    b.y = 1000;
    b.aim = 500;  // 1036 units the short way round
    b.hp = 30;
    const EntitySnapshot mid = ArenaGame::interpolate(a, b, 0.5f);
    EXPECT_EQ(mid.x, 1500);
    EXPECT_EQ(mid.y, 1500);
    EXPECT_EQ(mid.aim, static_cast<std::uint16_t>(65000 + 518));
    EXPECT_EQ(ArenaGame::interpolate(a, b, 0.25f).hp, 50);
    EXPECT_EQ(ArenaGame::interpolate(a, b, 0.75f).hp, 30);
    EXPECT_EQ(ArenaGame::interpolate(a, b, 0.0f), a);
    EXPECT_EQ(ArenaGame::interpolate(a, b, 1.0f), b);
    EntitySnapshot far = a;
    far.x = a.x + 10 * kUnitsPerMeter;  // a respawn across the map
    EXPECT_EQ(ArenaGame::interpolate(a, far, 0.4f).x, a.x);
    EXPECT_EQ(ArenaGame::interpolate(a, far, 0.6f).x, far.x);
    EXPECT_EQ(ArenaGame::position_error_q(a, b), 1414);
}

TEST(Replication, RenderOffsetMovesOnlyTheDrawnPosition) {
    EntitySnapshot a;
    a.flags = kPresent | kAlive;
    a.x = 10 * kUnitsPerMeter;
    a.y = 20 * kUnitsPerMeter;
    a.vx = 50;
    const auto p = ArenaGame::render_position_m(a);
    EXPECT_DOUBLE_EQ(p[0], 10.0);
    EXPECT_DOUBLE_EQ(p[1], 20.0);
    EXPECT_DOUBLE_EQ(p[2], 0.0);
    const EntitySnapshot moved = ArenaGame::with_render_offset(a, {0.5, -0.25, 3.0});
    EXPECT_EQ(moved.x, a.x + kUnitsPerMeter / 2);
    EXPECT_EQ(moved.y, a.y - kUnitsPerMeter / 4);
    EXPECT_EQ(moved.vx, a.vx);  // only the position is drawn elsewhere
    EXPECT_EQ(ArenaGame::with_render_offset(a, {0.0, 0.0, 0.0}), a);
    EXPECT_EQ(ArenaGame::with_render_offset(a, {std::nan(""), 1e300, 0.0}),
              a);  // nonsense leaves it in place
}

TEST(Replication, DiffFieldsNamesEachGroup) {
    EntitySnapshot a;
    EntitySnapshot b = a;
    EXPECT_EQ(ArenaGame::diff_fields(a, b), 0u);
    b.y = 5;
    b.hp = 3;
    const std::uint32_t d = ArenaGame::diff_fields(a, b);
    EXPECT_EQ(d, (1u << kFieldPosition) | (1u << kFieldHp));
    EXPECT_EQ(ArenaGame::field_name(kFieldPosition), "position");
    EXPECT_EQ(ArenaGame::field_name(kFieldHp), "hp");
    EXPECT_EQ(ArenaGame::field_name(kFieldCount), "unknown");
    EXPECT_EQ(ArenaGame::field_name(-1), "unknown");
    for (int bit = 0; bit < kFieldCount; ++bit) {
        EXPECT_NE(ArenaGame::field_name(bit), "unknown");
    }
}

}  // namespace
}  // namespace arena::test
