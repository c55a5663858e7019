// Movement: top speed, acceleration and friction, diagonal normalization, the thinnest wall never tunnels,
// bounds.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <string>

#include "arena/fixed_math.hpp"
#include "arena_test_util.hpp"

namespace arena::test {
namespace {

constexpr Point kOpen{meters(40), meters(44)};  // open floor, far from every wall

TEST(Movement, ReachesAndHoldsTopSpeedStraight) {
    State s = staged({{0, kOpen}});
    Input in;
    in.move_x = kAxisMax;
    std::int64_t fastest = 0;
    int ticks_to_top = -1;
    for (int t = 1; t <= 60; ++t) {
        const std::int32_t x0 = s.players[0].x;
        step(s, only(0, in));
        const std::int64_t v = speed_of(s.players[0]);
        fastest = v > fastest ? v : fastest;
        EXPECT_LE(s.players[0].x - x0, kTopSpeed);
        if (v == kTopSpeed && ticks_to_top < 0) ticks_to_top = t;
    }
    EXPECT_EQ(fastest, kTopSpeed);
    EXPECT_EQ(s.players[0].vx, kTopSpeed);
    EXPECT_EQ(s.players[0].vy, 0);
    // Acceleration, not a jump to full speed: about kTopSpeed / kAcceleration ticks.
    EXPECT_EQ(ticks_to_top, (kTopSpeed + kAcceleration - 1) / kAcceleration);
    EXPECT_NEAR(kTopSpeed * kTickRate / static_cast<double>(kUnitsPerMeter), 6.0, 0.1);
}

TEST(Movement, FrictionStopsAPlayerWhoLetsGo) {
    State s = staged({{0, kOpen}});
    Input in;
    in.move_y = -kAxisMax;
    for (int t = 0; t < 30; ++t) step(s, only(0, in));
    ASSERT_EQ(speed_of(s.players[0]), kTopSpeed);
    int ticks = 0;
    while (speed_of(s.players[0]) > 0 && ticks < 100) {
        step(s, Inputs{});
        ++ticks;
    }
    EXPECT_EQ(ticks, (kTopSpeed + kFriction - 1) / kFriction);
}

TEST(Movement, DiagonalIsNotFaster) {
    State straight = staged({{0, kOpen}});
    State diagonal = staged({{0, kOpen}});
    Input s_in;
    s_in.move_x = kAxisMax;
    Input d_in;
    d_in.move_x = kAxisMax;
    d_in.move_y = kAxisMax;
    for (int t = 0; t < 60; ++t) {
        step(straight, only(0, s_in));
        step(diagonal, only(0, d_in));
        EXPECT_LE(speed_of(diagonal.players[0]), kTopSpeed);
    }
    const Player& d = diagonal.players[0];
    EXPECT_GE(speed_of(d), kTopSpeed - 2);  // normalized, not slower either
    EXPECT_EQ(d.vx, d.vy);
    const std::int64_t ds = length_of(d.x - kOpen.x, d.y - kOpen.y);
    const std::int64_t ss = straight.players[0].x - kOpen.x;
    EXPECT_LE(ds, ss);
    EXPECT_GE(ds, ss * 97 / 100);
}

RC_GTEST_PROP(Movement, WalkingNeverExceedsTopSpeed, ()) {
    State s = staged({{0, kOpen}});
    const auto moves = *rc::gen::container<std::vector<std::pair<std::int8_t, std::int8_t>>>(
        120, rc::gen::pair(rc::gen::arbitrary<std::int8_t>(), rc::gen::arbitrary<std::int8_t>()));
    for (const auto& [mx, my] : moves) {
        Input in;
        in.move_x = mx;  // including the invalid -128: step() must still hold the limit
        in.move_y = my;
        step(s, only(0, in));
        RC_ASSERT(speed_of(s.players[0]) <= kTopSpeed);
    }
}

TEST(Movement, DashIsFasterThenSettlesBackToTopSpeed) {
    State s = staged({{0, kOpen}});
    Input in;
    in.move_x = -kAxisMax;
    in.buttons = kDash;
    step(s, only(0, in));
    EXPECT_EQ(s.players[0].vx, -kDashSpeed);
    EXPECT_EQ(s.players[0].dash_cooldown, kDashCooldown);
    in.buttons = 0;
    for (int t = 0; t < 60; ++t) step(s, only(0, in));
    EXPECT_EQ(speed_of(s.players[0]), kTopSpeed);
    // A second dash only after the cooldown.
    in.buttons = kDash;
    step(s, only(0, in));
    EXPECT_EQ(speed_of(s.players[0]), kTopSpeed);
}

// Drives a player at top (or dash) speed towards a thin wall from `angle`, and checks every tick that it
// stays on its own side and never overlaps the wall, until it slides past the wall's end. Returns "" or the
// failure, and counts the ticks spent touching the wall in `contacts`.
std::string run_at_wall(const Box& wall, bool vertical, bool from_low_side, std::uint16_t angle, bool dash,
                        int& contacts) {
    const std::int32_t mid = vertical ? (wall.min_y + wall.max_y) / 2 : (wall.min_x + wall.max_x) / 2;
    const std::int32_t off = meters(1.5);
    const Point start = vertical ? Point{from_low_side ? wall.min_x - off : wall.max_x + off, mid}
                                 : Point{mid, from_low_side ? wall.min_y - off : wall.max_y + off};
    State s = staged({{0, start}});
    Player& p = s.players[0];
    const std::int32_t speed = dash ? kDashSpeed : kTopSpeed;
    p.vx = static_cast<std::int32_t>(std::int64_t{cos_q14(angle)} * speed / kTrigOne);
    p.vy = static_cast<std::int32_t>(std::int64_t{sin_q14(angle)} * speed / kTrigOne);
    Input in;
    in.move_x = static_cast<std::int8_t>(cos_q14(angle) * kAxisMax / kTrigOne);
    in.move_y = static_cast<std::int8_t>(sin_q14(angle) * kAxisMax / kTrigOne);
    in.aim = angle;
    const std::int32_t wall_mid = vertical ? (wall.min_x + wall.max_x) / 2 : (wall.min_y + wall.max_y) / 2;
    const std::int32_t lo = (vertical ? wall.min_y : wall.min_x) - kPlayerRadius;
    const std::int32_t hi = (vertical ? wall.max_y : wall.max_x) + kPlayerRadius;
    for (int t = 0; t < 60; ++t) {
        if (dash) {  // keep dashing: the player meets the wall at dash speed, not just top speed
            p.dash_cooldown = 0;
            in.buttons = kDash;
        }
        step(s, only(0, in));
        const std::int32_t along = vertical ? p.y : p.x;
        if (along < lo || along > hi) break;  // slid past the end of the wall: going round it is allowed
        const std::int32_t c = vertical ? p.x : p.y;
        if (from_low_side ? c >= wall_mid : c <= wall_mid)
            return "crossed the wall at tick " + std::to_string(t);
        const std::int64_t d2 = dist2_to_box(p.x, p.y, wall);
        if (d2 < std::int64_t{kPlayerRadius - 1} * (kPlayerRadius - 1)) {
            return "overlaps the wall at tick " + std::to_string(t);
        }
        if (d2 <= std::int64_t{kPlayerRadius + 2} * (kPlayerRadius + 2)) ++contacts;
    }
    return "";
}

TEST(Movement, ThinnestWallHoldsAtTopSpeedFromEveryAngle) {
    for (const bool vertical : {true, false}) {
        const Box wall = thin_wall(vertical);
        ASSERT_EQ(vertical ? wall.max_x - wall.min_x : wall.max_y - wall.min_y, kThinWallThickness);
        for (const bool low : {true, false}) {
            // Facing the wall: the half-turn of angles centred on the wall's normal, in 1-degree steps.
            const std::uint16_t normal = vertical ? (low ? 0 : 32768) : (low ? 16384 : 49152);
            for (int a = -16200; a <= 16200; a += 182) {
                const auto angle = static_cast<std::uint16_t>(normal + a);
                for (const bool dash : {false, true}) {
                    int contacts = 0;
                    EXPECT_EQ(run_at_wall(wall, vertical, low, angle, dash, contacts), "")
                        << "vertical=" << vertical << " low=" << low << " angle=" << angle
                        << " dash=" << dash;
                    // Every approach within 60 degrees of the normal really reaches the wall.
                    if (a > -10923 && a < 10923) {
                        EXPECT_GT(contacts, 0) << "angle=" << angle << " dash=" << dash;
                    }
                }
            }
        }
    }
}

RC_GTEST_PROP(Movement, StaysInBoundsAndOutOfWalls, ()) {
    const auto spawn = *rc::gen::inRange<std::size_t>(0, spawn_points().size());
    State s = staged({{0, spawn_points()[spawn]}});
    const auto count = *rc::gen::inRange(50, 400);
    for (int t = 0; t < count; ++t) {
        Input in;
        in.move_x = *rc::gen::arbitrary<std::int8_t>();
        in.move_y = *rc::gen::arbitrary<std::int8_t>();
        in.buttons = *rc::gen::element<std::uint8_t>(0, 0, 0, kDash);
        in.aim = *rc::gen::arbitrary<std::uint16_t>();
        step(s, only(0, in));
        const Player& p = s.players[0];
        RC_ASSERT(p.x >= kPlayerRadius);
        RC_ASSERT(p.x <= kArenaSize - kPlayerRadius);
        RC_ASSERT(p.y >= kPlayerRadius);
        RC_ASSERT(p.y <= kArenaSize - kPlayerRadius);
        RC_ASSERT(!circle_hits_wall(p.x, p.y, kPlayerRadius - 1));
        RC_ASSERT(p.vx >= -kMaxSpeed && p.vx <= kMaxSpeed && p.vy >= -kMaxSpeed && p.vy <= kMaxSpeed);
    }
}

TEST(Movement, ArenaEdgeClamps) {
    State s = staged({{0, Point{meters(1), meters(1)}}});
    Input in;
    in.move_x = -kAxisMax;
    in.move_y = -kAxisMax;
    for (int t = 0; t < 120; ++t) step(s, only(0, in));
    EXPECT_EQ(s.players[0].x, kPlayerRadius);
    EXPECT_EQ(s.players[0].y, kPlayerRadius);
}

}  // namespace
}  // namespace arena::test
