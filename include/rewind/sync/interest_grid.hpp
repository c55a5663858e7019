/// InterestGrid: a uniform spatial grid over the entities' bounds, to find those within an area-of-interest
/// radius.
#pragma once

#include <rewind/core/result.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rwd::sync {

/// A position in the game's integer grid units.
struct GridPoint {
    std::int32_t x = 0;  ///< grid units
    std::int32_t y = 0;  ///< grid units
    /// Field-wise equality.
    friend constexpr bool operator==(const GridPoint&, const GridPoint&) = default;
};

/// Squared distance between two points: exact, saturating at UINT64_MAX (only corner-to-corner distances of
/// the whole int32 plane reach it).
constexpr std::uint64_t distance_squared(GridPoint a, GridPoint b) {
    const std::int64_t dx = std::int64_t{a.x} - b.x;
    const std::int64_t dy = std::int64_t{a.y} - b.y;
    const std::uint64_t x2 =
        static_cast<std::uint64_t>(dx < 0 ? -dx : dx) * static_cast<std::uint64_t>(dx < 0 ? -dx : dx);
    const std::uint64_t y2 =
        static_cast<std::uint64_t>(dy < 0 ? -dy : dy) * static_cast<std::uint64_t>(dy < 0 ? -dy : dy);
    return x2 > UINT64_MAX - y2 ? UINT64_MAX : x2 + y2;
}

/// Settings for InterestGrid.
struct InterestGridConfig {
    std::int32_t cell_size = 8192;  ///< side of a cell in grid units (about the AoI radius works well), >= 1
    int max_cells_per_axis = 256;   ///< cells grow beyond cell_size when the bounds would need more, 1..4096

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// Rebuilt once per snapshot from every entity's position (the bounds are the entities' bounding box, so any
/// world size works); then each client's query visits only the cells its circle overlaps and checks the exact
/// distance. Points are identified by their index in the span given to build(). No allocation once warm.
class InterestGrid {
public:
    /// A grid with `config` (must be valid; a bad one is clamped to something usable).
    explicit InterestGrid(const InterestGridConfig& config = {});

    /// Sorts `points` into cells (counting sort: O(n + cells)).
    void build(std::span<const GridPoint> points);
    /// Appends to `out` (cleared first) the indices of the points within `radius` of `centre` (inclusive; a
    /// radius is capped at 2^32 - 1), ascending. Returns how many.
    std::size_t query(GridPoint centre, std::int64_t radius, std::vector<std::uint32_t>& out) const;

    /// Points in the grid.
    [[nodiscard]] std::size_t size() const { return points_.size(); }
    /// Cells along x and y of the current build.
    [[nodiscard]] int cells_x() const { return nx_; }
    /// Cells along y of the current build.
    [[nodiscard]] int cells_y() const { return ny_; }
    /// The cell side of the current build (cell_size, or larger for huge bounds).
    [[nodiscard]] std::int64_t cell_side() const { return side_; }

private:
    [[nodiscard]] int cell_x(std::int64_t x) const;
    [[nodiscard]] int cell_y(std::int64_t y) const;

    InterestGridConfig config_;
    std::vector<GridPoint> points_;
    std::vector<std::uint32_t> cell_start_;  // nx*ny + 1 prefix sums
    std::vector<std::uint32_t> order_;       // point indices grouped by cell, ascending within a cell
    std::vector<std::uint32_t> fill_;        // build scratch: next free position per cell
    std::int64_t min_x_ = 0, min_y_ = 0, side_ = 1;
    int nx_ = 0, ny_ = 0;
};

}  // namespace rwd::sync
