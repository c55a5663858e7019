// Player-vs-player push-apart and the map's own sanity (spawn points clear, walls inside the arena).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arena/fixed_math.hpp"
#include "arena/map.hpp"
#include "arena_test_util.hpp"

namespace arena::test {
namespace {

std::int64_t gap(const Player& a, const Player& b) { return length_of(a.x - b.x, a.y - b.y); }

// Whether a circle of radius r at (x, y) overlaps box b (the test circle_hits_wall makes for each wall).
bool circle_hits_wall_box(std::int32_t x, std::int32_t y, std::int32_t r, const Box& b) {
    const std::int64_t cx = x < b.min_x ? b.min_x : (x > b.max_x ? b.max_x : x);
    const std::int64_t cy = y < b.min_y ? b.min_y : (y > b.max_y ? b.max_y : y);
    return (x - cx) * (x - cx) + (y - cy) * (y - cy) < std::int64_t{r} * r;
}

TEST(Collision, OverlappingPlayersArePushedApart) {
    const Point a{meters(40), meters(44)};
    State s = staged({{0, a}, {1, Point{a.x + meters(0.3), a.y + meters(0.1)}}});
    ASSERT_LT(gap(s.players[0], s.players[1]), 2 * kPlayerRadius);
    int ticks = 0;
    while (gap(s.players[0], s.players[1]) < 2 * kPlayerRadius - 2 && ticks < 60) {
        step(s, Inputs{});
        ++ticks;
    }
    EXPECT_GE(gap(s.players[0], s.players[1]), 2 * kPlayerRadius - 2);
    EXPECT_GT(ticks, 1);  // pushes are capped per tick: separation is gradual, not a teleport
    // Pushed symmetrically along the line between them: the midpoint stays put (within rounding).
    EXPECT_NEAR((s.players[0].x + s.players[1].x) / 2, a.x + meters(0.15), 4);
}

TEST(Collision, PlayersOnTheSameSpotSeparateDeterministically) {
    const Point a{meters(40), meters(44)};
    State s = staged({{3, a}, {5, a}});
    for (int t = 0; t < 30; ++t) step(s, Inputs{});
    EXPECT_GE(gap(s.players[3], s.players[5]), 2 * kPlayerRadius - 2);
    EXPECT_LT(s.players[3].x, s.players[5].x);  // the lower slot goes west
}

TEST(Collision, WalkingIntoAnotherPlayerDoesNotPassThrough) {
    const Point a{meters(40), meters(44)};
    State s = staged({{0, a}, {1, Point{a.x + meters(3), a.y}}});
    Input in;
    in.move_x = kAxisMax;
    for (int t = 0; t < 40; ++t) {
        step(s, only(0, in));
        EXPECT_LT(s.players[0].x, s.players[1].x);
        EXPECT_GE(gap(s.players[0], s.players[1]), 2 * kPlayerRadius - kTopSpeed);
    }
    EXPECT_GT(s.players[1].x, a.x + meters(3));  // the pusher shoves the other player along
}

TEST(Collision, DeadPlayersDoNotCollide) {
    const Point a{meters(40), meters(44)};
    State s = staged({{0, a}, {1, Point{a.x + meters(0.2), a.y}}});
    s.players[1].flags = kPresent;  // dead
    s.players[1].respawn_timer = 100;
    step(s, Inputs{});
    EXPECT_EQ(s.players[0].x, a.x);
}

TEST(Map, SpawnPointsAreClearOfWallsAndInside) {
    for (const Point& p : spawn_points()) {
        EXPECT_FALSE(circle_hits_wall(p.x, p.y, kPlayerRadius + kUnitsPerMeter)) << p.x << "," << p.y;
        EXPECT_GE(p.x, kPlayerRadius);
        EXPECT_LE(p.x, kArenaSize - kPlayerRadius);
        EXPECT_GE(p.y, kPlayerRadius);
        EXPECT_LE(p.y, kArenaSize - kPlayerRadius);
    }
}

TEST(Map, WallsAreInsideTheArenaAndIncludeThinOnes) {
    int thin = 0;
    for (const Box& b : walls()) {
        EXPECT_LT(b.min_x, b.max_x);
        EXPECT_LT(b.min_y, b.max_y);
        EXPECT_GE(b.min_x, 0);
        EXPECT_LE(b.max_x, kArenaSize);
        EXPECT_GE(b.min_y, 0);
        EXPECT_LE(b.max_y, kArenaSize);
        const std::int32_t t = std::min(b.max_x - b.min_x, b.max_y - b.min_y);
        EXPECT_GE(t, kThinWallThickness);
        thin += t == kThinWallThickness ? 1 : 0;
    }
    EXPECT_GE(thin, 2);
}

TEST(Map, WallsNearNamesEveryWallACircleThereCanTouch) {
    // Every point of a fine grid over the arena and 2 m around it, and each cell edge and the unit beside it:
    // a wall a circle of the largest radius there overlaps must be in walls_near()'s mask.
    const auto walls_list = walls();
    std::vector<std::int32_t> coords;
    for (std::int32_t v = -meters(2); v <= kArenaSize + meters(2); v += 61) coords.push_back(v);
    for (std::int32_t edge = 0; edge <= kArenaSize; edge += meters(4))
        for (std::int32_t d : {-1, 0, 1}) coords.push_back(edge + d);
    std::uint64_t touching = 0, left_out = 0;
    for (std::int32_t x : coords) {
        for (std::int32_t y : coords) {
            const std::uint32_t near = walls_near(x, y);
            for (std::size_t k = 0; k < walls_list.size(); ++k) {
                const std::uint32_t bit = std::uint32_t{1} << k;
                if (!circle_hits_wall_box(x, y, kWallsNearRadius, walls_list[k])) {
                    if ((near & bit) == 0) ++left_out;
                    continue;
                }
                ++touching;
                ASSERT_NE(near & bit, 0u) << "wall " << k << " at (" << x << ", " << y << ")";
            }
        }
    }
    EXPECT_GT(touching, 10'000u);
    EXPECT_GT(left_out, 10 * touching);  // the mask does leave most walls out
}

TEST(Map, RaysStopAtWalls) {
    const Box w = thin_wall(true);
    const Point from{w.min_x - meters(5), (w.min_y + w.max_y) / 2};
    const Point to{w.max_x + meters(5), from.y};
    EXPECT_FALSE(line_of_sight(from, to));
    const Ray r = ray_between(from, to);
    EXPECT_NEAR(ray_walls(r), meters(5), 2);
    EXPECT_TRUE(line_of_sight(from, Point{from.x, from.y + meters(3)}));
    EXPECT_EQ(ray_circle(Ray{0, 0, kTrigOne, 0, meters(10)}, meters(5), 0, kPlayerRadius),
              std::optional<std::int32_t>(meters(5) - kPlayerRadius));
    EXPECT_FALSE(ray_circle(Ray{0, 0, kTrigOne, 0, meters(10)}, meters(5), meters(1), kPlayerRadius));
    EXPECT_FALSE(ray_circle(Ray{0, 0, kTrigOne, 0, meters(10)}, -meters(5), 0, kPlayerRadius));
}

}  // namespace
}  // namespace arena::test
