/// The arena's fixed layout: axis-aligned wall boxes and spawn points, plus ray tests against them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace arena {

/// An axis-aligned wall, in grid units, min inclusive, max inclusive.
struct Box {
    std::int32_t min_x = 0;  ///< left edge
    std::int32_t min_y = 0;  ///< bottom edge
    std::int32_t max_x = 0;  ///< right edge
    std::int32_t max_y = 0;  ///< top edge
    friend constexpr bool operator==(const Box&, const Box&) = default;
};

/// A point on the grid.
struct Point {
    std::int32_t x = 0;  ///< grid units
    std::int32_t y = 0;  ///< grid units
    friend constexpr bool operator==(const Point&, const Point&) = default;
};

/// A ray from (ox, oy) along the unit direction (ux, uy) in Q14, up to `length` grid units.
struct Ray {
    std::int32_t ox = 0;      ///< origin x
    std::int32_t oy = 0;      ///< origin y
    std::int32_t ux = 0;      ///< direction x, Q14 (16384 = 1)
    std::int32_t uy = 0;      ///< direction y, Q14
    std::int32_t length = 0;  ///< how far the ray reaches, grid units
};

/// Every wall of the arena (the outer boundary is not a wall: positions are clamped to it).
std::span<const Box> walls();
/// The thinnest wall's thickness in grid units (0.1 m).
inline constexpr std::int32_t kThinWallThickness = 102;
/// Where players (re)appear; chosen with the match's seeded generator.
std::span<const Point> spawn_points();

/// The distance along `ray` at which it enters `box`, or nothing if it misses within ray.length.
/// A ray starting inside the box enters at 0.
std::optional<std::int32_t> ray_box(const Ray& ray, const Box& box);
/// The distance along `ray` at which it enters the circle (cx, cy, r), or nothing if it misses within
/// ray.length. A ray starting inside the circle enters at 0.
std::optional<std::int32_t> ray_circle(const Ray& ray, std::int32_t cx, std::int32_t cy, std::int32_t r);
/// The distance along `ray` to the first wall it enters, or ray.length if none.
std::int32_t ray_walls(const Ray& ray);
/// The ray from `from` towards `to`, with length |to - from|.
Ray ray_between(Point from, Point to);
/// True if the straight segment between two points crosses no wall (line of sight).
bool line_of_sight(Point from, Point to);
/// True if a circle of radius r at (x, y) overlaps any wall.
bool circle_hits_wall(std::int32_t x, std::int32_t y, std::int32_t r);

/// The largest radius walls_near() answers for.
inline constexpr std::int32_t kWallsNearRadius = 512;
/// Bit k set for every wall k (of walls()) that a circle of radius <= kWallsNearRadius at (x, y) may overlap:
/// a wall whose bit is clear cannot. From a precomputed 4 m grid; every wall outside the arena.
std::uint32_t walls_near(std::int32_t x, std::int32_t y);

}  // namespace arena
