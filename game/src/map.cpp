// The arena layout (walls, spawn points) and integer ray tests against boxes and circles.
#include "arena/map.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

#include "arena/constants.hpp"
#include "arena/fixed_math.hpp"

namespace arena {
namespace {

constexpr std::int32_t m(std::int32_t metres) { return metres * kUnitsPerMeter; }

// Tenths of a metre, for the thin walls.
constexpr std::int32_t dm(std::int32_t decimetres) { return decimetres * kUnitsPerMeter / 10; }

constexpr std::array<Box, 12> kWalls{{
    {m(28), m(28), m(36), m(36)},            // central block
    {m(8), m(10), m(20), m(11)},             // south-west bar
    {m(44), m(53), m(56), m(54)},            // north-east bar
    {m(10), m(40), m(11), m(54)},            // west pillar line
    {m(53), m(10), m(54), m(24)},            // east pillar line
    {m(32) - 51, m(4), m(32) + 51, m(20)},   // thin wall, 0.1 m, south
    {m(44), m(32) - 51, m(58), m(32) + 51},  // thin wall, 0.1 m, east
    {m(20), m(44), m(23), m(47)},            // cover crate
    {m(41), m(17), m(44), m(20)},            // cover crate
    {m(4), m(28), m(6), m(36)},              // west cover
    {m(30), m(58), m(34), m(60)},            // north cover
    {dm(175), dm(250), dm(185), dm(340)},    // 1 m post
}};
static_assert(kWalls[5].max_x - kWalls[5].min_x == kThinWallThickness, "thin wall thickness");
static_assert(kWalls[6].max_y - kWalls[6].min_y == kThinWallThickness, "thin wall thickness");

constexpr std::array<Point, 16> kSpawns{{
    {m(4), m(4)},
    {m(60), m(4)},
    {m(4), m(60)},
    {m(60), m(60)},
    {m(16), m(16)},
    {m(48), m(16)},
    {m(16), m(50)},
    {m(48), m(48)},
    {m(32), m(24)},
    {m(32), m(40)},
    {m(24), m(32)},
    {m(40), m(32)},
    {m(4), m(20)},
    {m(60), m(40)},
    {m(26), m(4)},
    {m(38), m(60)},
}};

// walls_near()'s grid: 4 m cells over the arena, each with the walls whose box widened by kWallsNearRadius
// touches the cell (closed on both sides, so a point on a cell's edge is covered either way).
constexpr std::int32_t kWallCell = 4 * kUnitsPerMeter;
constexpr int kWallCells = kArenaSize / kWallCell;
static_assert(kWallCells * kWallCell == kArenaSize, "the grid covers the arena exactly");
static_assert(kWalls.size() <= 32, "a wall mask is 32 bits");

constexpr std::array<std::uint32_t, kWallCells * kWallCells> make_wall_grid() {
    std::array<std::uint32_t, kWallCells * kWallCells> grid{};
    for (int cy = 0; cy < kWallCells; ++cy) {
        for (int cx = 0; cx < kWallCells; ++cx) {
            const std::int64_t lx = std::int64_t{cx} * kWallCell, hx = lx + kWallCell;
            const std::int64_t ly = std::int64_t{cy} * kWallCell, hy = ly + kWallCell;
            for (std::size_t k = 0; k < kWalls.size(); ++k) {
                const Box& b = kWalls[k];
                if (b.max_x + std::int64_t{kWallsNearRadius} >= lx &&
                    b.min_x - std::int64_t{kWallsNearRadius} <= hx &&
                    b.max_y + std::int64_t{kWallsNearRadius} >= ly &&
                    b.min_y - std::int64_t{kWallsNearRadius} <= hy)
                    grid[static_cast<std::size_t>(cy * kWallCells + cx)] |= std::uint32_t{1} << k;
            }
        }
    }
    return grid;
}
constexpr auto kWallGrid = make_wall_grid();

// Entry/exit along one axis of the slab test; false if the ray is parallel and outside.
bool slab(std::int64_t origin, std::int64_t dir, std::int64_t lo, std::int64_t hi, std::int64_t& t_enter,
          std::int64_t& t_exit) {
    if (dir == 0) return origin >= lo && origin <= hi;
    std::int64_t t1 = (lo - origin) * kTrigOne / dir;
    std::int64_t t2 = (hi - origin) * kTrigOne / dir;
    if (t1 > t2) {
        const std::int64_t t = t1;
        t1 = t2;
        t2 = t;
    }
    if (t1 > t_enter) t_enter = t1;
    if (t2 < t_exit) t_exit = t2;
    return true;
}

}  // namespace

std::span<const Box> walls() { return kWalls; }

std::span<const Point> spawn_points() { return kSpawns; }

std::optional<std::int32_t> ray_box(const Ray& ray, const Box& box) {
    std::int64_t t_enter = 0;
    std::int64_t t_exit = ray.length;
    if (!slab(ray.ox, ray.ux, box.min_x, box.max_x, t_enter, t_exit)) return std::nullopt;
    if (!slab(ray.oy, ray.uy, box.min_y, box.max_y, t_enter, t_exit)) return std::nullopt;
    if (t_enter > t_exit) return std::nullopt;
    return static_cast<std::int32_t>(t_enter);
}

std::optional<std::int32_t> ray_circle(const Ray& ray, std::int32_t cx, std::int32_t cy, std::int32_t r) {
    const std::int64_t px = std::int64_t{cx} - ray.ox;
    const std::int64_t py = std::int64_t{cy} - ray.oy;
    const std::int64_t rr = std::int64_t{r} * r;
    if (px * px + py * py <= rr) return 0;  // starts inside
    const std::int64_t along = (px * ray.ux + py * ray.uy) / kTrigOne;
    const std::int64_t perp = (px * ray.uy - py * ray.ux) / kTrigOne;
    if (along < 0) return std::nullopt;
    const std::int64_t pp = perp * perp;
    if (pp > rr) return std::nullopt;
    std::int64_t entry = along - static_cast<std::int64_t>(isqrt(static_cast<std::uint64_t>(rr - pp)));
    if (entry < 0) entry = 0;
    if (entry > ray.length) return std::nullopt;
    return static_cast<std::int32_t>(entry);
}

std::int32_t ray_walls(const Ray& ray) {
    std::int32_t nearest = ray.length;
    for (const Box& b : kWalls) {
        if (const auto t = ray_box(ray, b); t && *t < nearest) nearest = *t;
    }
    return nearest;
}

Ray ray_between(Point from, Point to) {
    const std::int64_t dx = std::int64_t{to.x} - from.x;
    const std::int64_t dy = std::int64_t{to.y} - from.y;
    const std::int64_t len = length_of(dx, dy);
    Ray r{from.x, from.y, kTrigOne, 0, 0};
    if (len == 0) return r;
    r.ux = static_cast<std::int32_t>(dx * kTrigOne / len);
    r.uy = static_cast<std::int32_t>(dy * kTrigOne / len);
    r.length = static_cast<std::int32_t>(len);
    return r;
}

bool line_of_sight(Point from, Point to) {
    const Ray r = ray_between(from, to);
    return ray_walls(r) >= r.length;
}

std::uint32_t walls_near(std::int32_t x, std::int32_t y) {
    constexpr std::uint32_t kEvery = (std::uint32_t{1} << kWalls.size()) - 1;
    if (x < 0 || y < 0 || x >= kArenaSize || y >= kArenaSize) return kEvery;
    return kWallGrid[static_cast<std::size_t>((y / kWallCell) * kWallCells + x / kWallCell)];
}

bool circle_hits_wall(std::int32_t x, std::int32_t y, std::int32_t r) {
    const std::int64_t rr = std::int64_t{r} * r;
    const std::uint32_t near = r <= kWallsNearRadius ? walls_near(x, y) : ~std::uint32_t{0};
    for (std::size_t k = 0; k < kWalls.size(); ++k) {
        if ((near >> k & 1u) == 0) continue;
        const Box& b = kWalls[k];
        const std::int64_t cx = x < b.min_x ? b.min_x : (x > b.max_x ? b.max_x : x);
        const std::int64_t cy = y < b.min_y ? b.min_y : (y > b.max_y ? b.max_y : y);
        const std::int64_t dx = x - cx;
        const std::int64_t dy = y - cy;
        if (dx * dx + dy * dy < rr) return true;
    }
    return false;
}

}  // namespace arena
