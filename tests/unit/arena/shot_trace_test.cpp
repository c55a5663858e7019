// ShotTraces: a shot is a live player's magazine losing a round between two snapshots; its tracer runs along
// the aim and stops at the first wall.
#include <arena/constants.hpp>
#include <arena/map.hpp>
#include <arena/shot_trace.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace arena {
namespace {

EntitySnapshot player_at(std::int32_t x, std::int32_t y, std::uint8_t ammo, std::uint16_t aim = 0) {
    EntitySnapshot e;
    e.kind = EntityKind::kPlayer;
    e.x = x;
    e.y = y;
    e.ammo = ammo;
    e.aim = aim;
    e.flags = kAlive;
    return e;
}

TEST(ShotTraces, ARoundLostByALivePlayerIsAShotAndNothingElseIs) {
    ShotTraces shots;
    const Point at = spawn_points()[0];                      // in the open
    EXPECT_FALSE(shots.note(3, player_at(at.x, at.y, 30)));  // first sight: nothing to compare with
    EXPECT_FALSE(shots.note(3, player_at(at.x, at.y, 30)));  // the same magazine
    const auto t = shots.note(3, player_at(at.x, at.y, 29));
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->from_x, at.x);
    EXPECT_EQ(t->from_y, at.y);
    EXPECT_GT(t->to_x, at.x);  // aim 0 points along +x
    EXPECT_NEAR(t->to_y, at.y, 1.0);
    EXPECT_LE(t->to_x - at.x, kRifleRange + 1.0);
    EXPECT_FALSE(shots.note(3, player_at(at.x, at.y, 30)));  // a reload is not a shot
    auto dead = player_at(at.x, at.y, 29);
    dead.flags = 0;
    EXPECT_FALSE(shots.note(3, dead));                       // a dead player's magazine fires nothing
    EXPECT_FALSE(shots.note(4, player_at(at.x, at.y, 10)));  // players are kept apart
}

TEST(ShotTraces, ATracerStopsAtTheFirstWall) {
    ShotTraces shots;
    // Two metres left of a wall, aiming right (aim 0): the tracer ends where the wall begins.
    const Box w = walls()[0];
    const std::int32_t x = w.min_x - 2 * kUnitsPerMeter, y = (w.min_y + w.max_y) / 2;
    (void)shots.note(1, player_at(x, y, 30));
    const auto t = shots.note(1, player_at(x, y, 29));
    ASSERT_TRUE(t.has_value());
    EXPECT_NEAR(t->to_x, w.min_x, 2.0);
    EXPECT_NEAR(t->to_y, y, 1.0);
    EXPECT_DOUBLE_EQ(aim_radians(16384), 6.283185307179586 / 4);  // a quarter turn
}

}  // namespace
}  // namespace arena
