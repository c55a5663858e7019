// Lag-compensated hitscan: step() tests a shooter's targets at the rewound hitboxes exactly when asked to.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>

#include "arena_test_util.hpp"

namespace arena::test {
namespace {

using Rewound = rwd::RewoundTargets<ArenaGame>;

// Shooter 0 at (20, 40) m aims east; target 1 stands 10 m east but 3 m north of the line of fire.
State setup() { return staged({{0, Point{meters(20), meters(40)}}, {1, Point{meters(30), meters(43)}}}); }

Input trigger() {
    Input in;
    in.buttons = kFire;
    return in;
}

// The rewound targets as the server would fill them from current hitboxes, with target 1 moved onto the line.
std::unique_ptr<Rewound> rewound_onto_line(const State& s, bool active) {
    auto r = std::make_unique<Rewound>();
    std::array<Hitbox, kMaxPlayers> now{};
    ArenaGame::capture_hitboxes(s, now);
    r->targets[0] = now;
    r->targets[0][1].y = meters(40);  // where the shooter saw the target 100 ms ago
    r->seen[0].fill(true);            // as HitboxHistory::fill leaves it
    r->active[0] = active;
    return r;
}

TEST(LagCompensation, CurrentPositionsMissWithoutRewind) {
    State s = setup();
    step(s, only(0, trigger()));
    EXPECT_EQ(s.players[1].hp, kMaxHp);
}

TEST(LagCompensation, ActiveShooterHitsTheRewoundTarget) {
    State s = setup();
    const auto r = rewound_onto_line(s, true);
    step(s, only(0, trigger()), r.get());
    EXPECT_EQ(s.players[1].hp, kMaxHp - kRifleDamage);
    // Only the hit test is rewound: the target itself stays where it is.
    EXPECT_EQ(s.players[1].y, meters(43));
}

TEST(LagCompensation, InactiveShooterIgnoresTheRewoundTargets) {
    State s = setup();
    const auto r = rewound_onto_line(s, false);
    step(s, only(0, trigger()), r.get());
    EXPECT_EQ(s.players[1].hp, kMaxHp);
}

TEST(LagCompensation, RewoundMissDespiteCurrentHit) {
    // The target is on the line now, but the shooter saw it elsewhere: no hit.
    State s = staged({{0, Point{meters(20), meters(40)}}, {1, Point{meters(30), meters(40)}}});
    auto r = rewound_onto_line(s, true);
    r->targets[0][1].y = meters(44);
    step(s, only(0, trigger()), r.get());
    EXPECT_EQ(s.players[1].hp, kMaxHp);
}

TEST(LagCompensation, DeadInTheRewoundViewOrNowIsNotHit) {
    State s = setup();
    auto r = rewound_onto_line(s, true);
    r->targets[0][1].alive = false;
    step(s, only(0, trigger()), r.get());
    EXPECT_EQ(s.players[1].hp, kMaxHp);

    State dead = setup();
    dead.players[1].flags = kPresent;
    dead.players[1].respawn_timer = 50;
    auto r2 = rewound_onto_line(dead, true);
    r2->targets[0][1].alive = true;
    const int deaths = dead.players[1].deaths;
    step(dead, only(0, trigger()), r2.get());
    EXPECT_EQ(dead.players[1].deaths, deaths);
    EXPECT_EQ(dead.players[0].score, 0);
}

TEST(LagCompensation, APlayerTheShooterDidNotSeeNeitherTakesNorBlocksTheShot) {
    // Player 2 stood on the line of fire, between the shooter and its target, where the shooter's screen
    // did not show it (the server had not sent it): the round passes it and hits the target.
    State s = staged({{0, Point{meters(20), meters(40)}},
                      {1, Point{meters(30), meters(43)}},
                      {2, Point{meters(25), meters(43)}}});
    auto r = rewound_onto_line(s, true);
    r->targets[0][2].y = meters(40);
    State blocked = s;
    step(blocked, only(0, trigger()), r.get());
    EXPECT_EQ(blocked.players[2].hp, kMaxHp - kRifleDamage);  // seen: it takes the round
    EXPECT_EQ(blocked.players[1].hp, kMaxHp);
    r->seen[0][2] = false;
    step(s, only(0, trigger()), r.get());
    EXPECT_EQ(s.players[2].hp, kMaxHp);
    EXPECT_EQ(s.players[1].hp, kMaxHp - kRifleDamage);
    // A target the shooter did not see is not hit either.
    State alone = setup();
    auto r2 = rewound_onto_line(alone, true);
    r2->seen[0][1] = false;
    step(alone, only(0, trigger()), r2.get());
    EXPECT_EQ(alone.players[1].hp, kMaxHp);
}

TEST(LagCompensation, WallsStillBlockRewoundShots) {
    const Box w = thin_wall(true);
    const std::int32_t y = (w.min_y + w.max_y) / 2;
    State s = staged({{0, Point{w.min_x - meters(3), y}}, {1, Point{w.max_x + meters(3), y + meters(3)}}});
    auto r = rewound_onto_line(s, true);
    r->targets[0][1].y = y;
    step(s, only(0, trigger()), r.get());
    EXPECT_EQ(s.players[1].hp, kMaxHp);
}

TEST(LagCompensation, HitboxCaptureAndLerp) {
    State s = setup();
    std::array<Hitbox, kMaxPlayers> boxes{};
    ArenaGame::capture_hitboxes(s, boxes);
    EXPECT_TRUE(boxes[0].alive);
    EXPECT_FALSE(boxes[2].alive);
    EXPECT_EQ(boxes[1].x, meters(30));
    EXPECT_EQ(boxes[1].r, kPlayerRadius);
    const Hitbox a{0, 0, kPlayerRadius, true};
    const Hitbox b{1000, -2000, kPlayerRadius, true};
    const Hitbox mid = ArenaGame::lerp_hitbox(a, b, 32768);
    EXPECT_EQ(mid.x, 500);
    EXPECT_EQ(mid.y, -1000);
    EXPECT_EQ(ArenaGame::lerp_hitbox(a, b, 0).x, 0);
    EXPECT_EQ(ArenaGame::lerp_hitbox(a, b, 65536).x, 1000);
    const Hitbox gone{1000, 0, kPlayerRadius, false};
    EXPECT_TRUE(ArenaGame::lerp_hitbox(a, gone, 1000).alive);
    EXPECT_FALSE(ArenaGame::lerp_hitbox(a, gone, 60000).alive);
    EXPECT_EQ(ArenaGame::lerp_hitbox(a, gone, 1000).x, 0);  // no sliding across a death
}

TEST(LagCompensation, ViewTimeRoundTripsThroughTheInput) {
    Input in;
    const rwd::Tick now{1000};
    ArenaGame::set_view_time(in, now, rwd::ViewTime{rwd::Tick{993}, 12345});
    EXPECT_EQ(in.view_delay, 7);
    const rwd::ViewTime v = ArenaGame::view_time(in, now);
    EXPECT_EQ(v.from, rwd::Tick{993});
    EXPECT_EQ(v.fraction_q16, 12345);
    // Wraps correctly across tick 0, and caps absurd delays and views from the future.
    ArenaGame::set_view_time(in, rwd::Tick{3}, rwd::ViewTime{rwd::Tick{0xFFFFFFFEu}, 1});
    EXPECT_EQ(ArenaGame::view_time(in, rwd::Tick{3}).from, rwd::Tick{0xFFFFFFFEu});
    ArenaGame::set_view_time(in, now, rwd::ViewTime{rwd::Tick{10}, 5});
    EXPECT_EQ(in.view_delay, kMaxViewDelay);
    ArenaGame::set_view_time(in, now, rwd::ViewTime{rwd::Tick{1005}, 5});
    EXPECT_EQ(in.view_delay, 0);
    EXPECT_TRUE(ArenaGame::fires(trigger()));
    EXPECT_FALSE(ArenaGame::fires(Input{}));
}

}  // namespace
}  // namespace arena::test
