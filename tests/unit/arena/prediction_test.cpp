// Replication prediction: predict_entity() matches step() wherever an entity runs on with no surprise.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "arena_test_util.hpp"

namespace arena::test {
namespace {

using Records = std::vector<ArenaGame::EntityRecord>;

constexpr Point kOpen{meters(40), meters(44)};  // open floor, far from every wall

EntitySnapshot player_snapshot(const State& s, int slot) {
    Records r;
    ArenaGame::capture(s, r);
    for (const auto& e : r)
        if (e.id == player_entity_id(slot)) return e.snap;
    ADD_FAILURE() << "player " << slot << " not captured";
    return {};
}

TEST(Prediction, APlayerRunningStraightAtTopSpeedIsPredictedExactly) {
    State s = staged({{0, kOpen}});
    Input in;
    in.move_x = kAxisMax;
    for (int t = 0; t < 30; ++t) step(s, only(0, in));  // at top speed now
    const EntitySnapshot base = player_snapshot(s, 0);
    ASSERT_EQ(base.vx, kTopSpeed);
    for (int ticks = 1; ticks <= 14; ++ticks) {
        step(s, only(0, in));
        EXPECT_EQ(ArenaGame::predict_entity(base, ticks), player_snapshot(s, 0)) << ticks;
    }
}

TEST(Prediction, TimersCountDownAsStepCountsThemAndAReloadRefillsTheMagazine) {
    State s = staged({{0, kOpen}});
    Input fire;
    fire.buttons = kFire;
    step(s, only(0, fire));  // a shot: the rifle cools down
    Input reload;
    reload.buttons = kReload;
    step(s, only(0, reload));  // and a reload starts
    const EntitySnapshot base = player_snapshot(s, 0);
    ASSERT_GT(base.fire_cooldown, 0);
    ASSERT_GT(base.reload_timer, 0);
    for (int ticks = 1; ticks <= kReloadTicks + 5; ++ticks) {
        step(s, only(0, Input{}));
        const EntitySnapshot truth = player_snapshot(s, 0);
        EXPECT_EQ(ArenaGame::predict_entity(base, ticks), truth) << ticks;
    }
    EXPECT_EQ(player_snapshot(s, 0).ammo, kRifleMagazine);
}

TEST(Prediction, AProjectileInFreeFlightIsPredictedExactly) {
    State s = staged({{0, kOpen}});
    Input alt;
    alt.buttons = kAltFire;
    alt.aim = 0;  // east, into the open
    step(s, only(0, alt));
    step(s, only(0, Input{}));
    Records r;
    ArenaGame::capture(s, r);
    ASSERT_GE(r.size(), 2u);
    const auto base = r.back();
    ASSERT_EQ(base.snap.kind, EntityKind::kProjectile);
    for (int ticks = 1; ticks <= 6; ++ticks) {
        step(s, only(0, Input{}));
        Records now;
        ArenaGame::capture(s, now);
        ASSERT_EQ(now.back().id, base.id) << ticks;
        EXPECT_EQ(ArenaGame::predict_entity(base.snap, ticks), now.back().snap) << ticks;
    }
}

TEST(Prediction, NoTicksPredictsNothingAndAnyAgeStaysOnTheWireGrid) {
    EntitySnapshot e;
    e.kind = EntityKind::kPlayer;
    e.flags = kPresent | kAlive;
    e.x = kArenaSize - kPlayerRadius - 10;
    e.y = kPlayerRadius + 10;
    e.vx = kMaxSpeed;
    e.vy = -kMaxSpeed;
    e.fire_cooldown = 3;
    EXPECT_EQ(ArenaGame::predict_entity(e, 0), e);
    for (const std::int32_t ticks : {1, 100, 65535}) {
        const EntitySnapshot p = ArenaGame::predict_entity(e, ticks);
        EXPECT_EQ(p.x, kArenaSize - kPlayerRadius) << ticks;  // held inside the arena, never overflowing
        EXPECT_EQ(p.y, kPlayerRadius) << ticks;
        EXPECT_EQ(p.fire_cooldown, ticks >= 3 ? 0 : 3 - ticks) << ticks;
        EntitySnapshot copy = p;  // and still encodes in full
        rwd::wire::MeasureStream m;
        EXPECT_TRUE(serialize(m, copy)) << ticks;
    }
}

}  // namespace
}  // namespace arena::test
