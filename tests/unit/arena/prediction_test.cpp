// Replication prediction: predict_entity() matches step() wherever an entity runs on with no surprise, and
// remote_input() keeps a remote player running as it ran.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
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

TEST(Prediction, TheRemoteInputGuessKeepsAPlayerRunningAsItRan) {
    // 16 directions at top, half and a fifth of top speed, in open floor: step() driven by remote_input()
    // keeps the velocity within 2 units of where it started for 20 ticks (the guess rounds the stick to its
    // nearest step; a speed between two steps can lose a unit a tick until it sits on one, and these do not
    // drift further).
    for (int turn = 0; turn < 16; ++turn) {
        for (const std::int32_t speed : {kTopSpeed, kTopSpeed / 2, kTopSpeed / 5}) {
            State s = staged({{0, kOpen}});
            Player& p = s.players[0];
            const std::uint16_t heading = static_cast<std::uint16_t>(turn * 4096);
            p.vx = static_cast<std::int32_t>(std::int64_t{cos_q14(heading)} * speed / 16384);
            p.vy = static_cast<std::int32_t>(std::int64_t{sin_q14(heading)} * speed / 16384);
            p.aim = 1234;
            const std::int32_t vx = p.vx, vy = p.vy;
            for (int t = 0; t < 20; ++t) {
                Inputs in{};
                in[0] = ArenaGame::remote_input(s, 0);
                step(s, in);
                EXPECT_LE(std::abs(s.players[0].vx - vx), 2) << turn << " " << speed << " " << t;
                EXPECT_LE(std::abs(s.players[0].vy - vy), 2) << turn << " " << speed << " " << t;
                EXPECT_EQ(s.players[0].aim, 1234);
            }
        }
    }
}

TEST(Prediction, TheRemoteInputGuessIsNeutralForTheDeadAndEmptySeatsAndFiresNothing) {
    State s = staged({{0, kOpen}});
    s.players[0].vx = kTopSpeed;
    EXPECT_EQ(ArenaGame::remote_input(s, 0).buttons, 0);
    EXPECT_EQ(ArenaGame::remote_input(s, 0).move_x, kAxisMax);
    EXPECT_EQ(ArenaGame::remote_input(s, 1), Input{});   // empty seat
    EXPECT_EQ(ArenaGame::remote_input(s, -1), Input{});  // no seat at all
    EXPECT_EQ(ArenaGame::remote_input(s, kMaxPlayers), Input{});
    s.players[0].hp = 0;
    s.players[0].flags = static_cast<std::uint8_t>(s.players[0].flags & ~kAlive);
    EXPECT_EQ(ArenaGame::remote_input(s, 0), Input{});
    // A dash leaves a player above top speed: the stick is capped and friction slows it as step() does.
    State d = staged({{0, kOpen}});
    d.players[0].vx = kMaxSpeed;
    EXPECT_EQ(ArenaGame::remote_input(d, 0).move_x, kAxisMax);
}

}  // namespace
}  // namespace arena::test
