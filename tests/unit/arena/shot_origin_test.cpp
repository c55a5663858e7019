// A rifle shot's claimed origin: stamp_shot on the client, the bounded, wall-checked use of it in step().
#include <gtest/gtest.h>

#include "arena_test_util.hpp"

namespace arena::test {
namespace {

// Shooter 0 at (20, 40) m aims east (no wall on that row for 20 m); a target stands 10 m east.
constexpr Point kShooter{meters(20), meters(40)};

Input shot_from(Point origin) {
    Input in;
    in.buttons = kFire;
    in.has_origin = true;
    in.origin_x = static_cast<std::uint16_t>(origin.x);
    in.origin_y = static_cast<std::uint16_t>(origin.y);
    return in;
}

TEST(ShotOrigin, TheShotLeavesFromAClaimedOriginWithinABodyWidth) {
    // 0.9 m north of the line of fire: the shooter's own ray misses, one from 0.8 m north hits.
    const Point target{meters(30), meters(40.9)};
    State own = staged({{0, kShooter}, {1, target}});
    Input plain;
    plain.buttons = kFire;
    step(own, only(0, plain));
    EXPECT_EQ(own.players[1].hp, kMaxHp);

    State favoured = staged({{0, kShooter}, {1, target}});
    step(favoured, only(0, shot_from(Point{kShooter.x, meters(40.8)})));
    EXPECT_EQ(favoured.players[1].hp, kMaxHp - kRifleDamage);
    // Only the shot moves: the shooter stays where the server has it.
    EXPECT_EQ(favoured.players[0].y, kShooter.y);
}

// Fires from kShooter with `claimed` as the origin at a target standing 10 m east on the claimed row; true if
// it was hit.
bool hits_from(Point claimed) {
    State s = staged({{0, kShooter}, {1, Point{meters(30), claimed.y}}});
    step(s, only(0, shot_from(claimed)));
    return s.players[1].hp < kMaxHp;
}

TEST(ShotOrigin, AnOriginFartherThanTheBoundIsIgnored) {
    // A lying client claims 1.5 m north, right in line with a target there: the shot leaves from the shooter.
    EXPECT_FALSE(hits_from(Point{kShooter.x, meters(41.5)}));
    // The bound itself is allowed, one unit more is not.
    EXPECT_TRUE(hits_from(Point{kShooter.x, kShooter.y + kMaxShotOffset}));
    EXPECT_FALSE(hits_from(Point{kShooter.x, kShooter.y + kMaxShotOffset + 1}));
    EXPECT_FALSE(hits_from(Point{kShooter.x - kMaxShotOffset, kShooter.y + kMaxShotOffset}));
}

TEST(ShotOrigin, AnOriginBehindAWallIsIgnored) {
    // The shooter touches a thin horizontal wall from below; the claim is 0.35 m above the wall (0.95 m away,
    // within the bound); a target 3 m east stands 0.55 m above the wall, 0.2 m off the claimed row.
    const Box w = thin_wall(false);
    ASSERT_GT(w.max_x, w.min_x);
    const std::int32_t x = (w.min_x + w.max_x) / 2;
    const Point shooter{x, w.min_y - kPlayerRadius - 1};
    const Point beyond{x, w.max_y + meters(0.35)};
    ASSERT_FALSE(line_of_sight(shooter, beyond));
    const Point target{x + meters(3), w.max_y + meters(0.55)};
    State s = staged({{0, shooter}, {1, target}});
    step(s, only(0, shot_from(beyond)));
    EXPECT_EQ(s.players[1].hp, kMaxHp);

    // The same geometry on the shooter's side of the wall: the claim is honoured.
    const Point near{x, shooter.y - meters(0.9)};
    State t = staged({{0, shooter}, {1, Point{x + meters(3), near.y - meters(0.2)}}});
    step(t, only(0, shot_from(near)));
    EXPECT_EQ(t.players[1].hp, kMaxHp - kRifleDamage);
}

TEST(ShotOrigin, WithoutAnOriginTheShotLeavesFromTheShooter) {
    State s = staged({{0, kShooter}, {1, Point{meters(30), kShooter.y}}});
    Input in;
    in.buttons = kFire;
    step(s, only(0, in));
    EXPECT_EQ(s.players[1].hp, kMaxHp - kRifleDamage);
}

TEST(ShotOrigin, StampShotMarksOnlyTheTickARoundLeaves) {
    State s = staged({{0, kShooter}});
    Input in;
    in.buttons = kFire;
    step(s, only(0, in));  // the round leaves: the cooldown is exactly the interval
    Input stamped = in;
    ArenaGame::stamp_shot(stamped, s, 0);
    EXPECT_TRUE(stamped.has_origin);
    EXPECT_EQ(stamped.origin_x, s.players[0].x);
    EXPECT_EQ(stamped.origin_y, s.players[0].y);

    step(s, only(0, in));  // cooling down: the trigger is held, nothing leaves
    Input held = stamped;
    ArenaGame::stamp_shot(held, s, 0);
    EXPECT_FALSE(held.has_origin);
    EXPECT_EQ(held.origin_x, 0);

    Input nobody = in;
    ArenaGame::stamp_shot(nobody, s, 5);  // an empty seat
    EXPECT_FALSE(nobody.has_origin);
    ArenaGame::stamp_shot(nobody, s, -1);
    EXPECT_FALSE(nobody.has_origin);
}

}  // namespace
}  // namespace arena::test
