// InterestGrid: counting-sort build over the points' bounding box and circle queries over the overlapped
// cells.
#include <rewind/sync/interest_grid.hpp>

#include <algorithm>

namespace rwd::sync {

Status InterestGridConfig::validate() const {
    if (cell_size < 1) return Error{Errc::invalid_config, "cell_size must be >= 1"};
    if (max_cells_per_axis < 1 || max_cells_per_axis > 4096)
        return Error{Errc::invalid_config, "max_cells_per_axis not in 1..4096"};
    return {};
}

InterestGrid::InterestGrid(const InterestGridConfig& config) : config_(config) {
    config_.cell_size = std::max(config_.cell_size, 1);
    config_.max_cells_per_axis = std::clamp(config_.max_cells_per_axis, 1, 4096);
}

int InterestGrid::cell_x(std::int64_t x) const {
    return static_cast<int>(std::clamp<std::int64_t>((x - min_x_) / side_, 0, nx_ - 1));
}

int InterestGrid::cell_y(std::int64_t y) const {
    return static_cast<int>(std::clamp<std::int64_t>((y - min_y_) / side_, 0, ny_ - 1));
}

void InterestGrid::build(std::span<const GridPoint> points) {
    points_.assign(points.begin(), points.end());
    if (points_.empty()) {
        nx_ = ny_ = 0;
        cell_start_.assign(1, 0);
        order_.clear();
        return;
    }
    std::int64_t max_x = points_[0].x, max_y = points_[0].y;
    min_x_ = max_x;
    min_y_ = max_y;
    for (const GridPoint& p : points_) {
        min_x_ = std::min<std::int64_t>(min_x_, p.x);
        min_y_ = std::min<std::int64_t>(min_y_, p.y);
        max_x = std::max<std::int64_t>(max_x, p.x);
        max_y = std::max<std::int64_t>(max_y, p.y);
    }
    // Cell side: the configured size, larger if the bounds would need more cells than allowed.
    const std::int64_t extent = std::max(max_x - min_x_, max_y - min_y_) + 1;
    const std::int64_t cap = config_.max_cells_per_axis;
    side_ = std::max<std::int64_t>(config_.cell_size, (extent + cap - 1) / cap);
    nx_ = static_cast<int>((max_x - min_x_) / side_ + 1);
    ny_ = static_cast<int>((max_y - min_y_) / side_ + 1);
    const std::size_t cells = static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_);
    cell_start_.assign(cells + 1, 0);
    for (const GridPoint& p : points_)
        ++cell_start_[static_cast<std::size_t>(cell_y(p.y)) * static_cast<std::size_t>(nx_) +
                      static_cast<std::size_t>(cell_x(p.x)) + 1];
    for (std::size_t c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
    order_.resize(points_.size());
    fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
    for (std::uint32_t i = 0; i < points_.size(); ++i) {
        const std::size_t c = static_cast<std::size_t>(cell_y(points_[i].y)) * static_cast<std::size_t>(nx_) +
                              static_cast<std::size_t>(cell_x(points_[i].x));
        order_[fill_[c]++] = i;
    }
}

std::size_t InterestGrid::query(GridPoint centre, std::int64_t radius,
                                std::vector<std::uint32_t>& out) const {
    out.clear();
    if (points_.empty() || radius < 0) return 0;
    radius = std::min<std::int64_t>(radius, 0xFFFFFFFFll);  // so that radius^2 fits 64 unsigned bits
    const std::uint64_t r2 = static_cast<std::uint64_t>(radius) * static_cast<std::uint64_t>(radius);
    const int x0 = cell_x(std::int64_t{centre.x} - radius), x1 = cell_x(std::int64_t{centre.x} + radius);
    const int y0 = cell_y(std::int64_t{centre.y} - radius), y1 = cell_y(std::int64_t{centre.y} + radius);
    for (int cy = y0; cy <= y1; ++cy)
        for (int cx = x0; cx <= x1; ++cx) {
            const std::size_t c =
                static_cast<std::size_t>(cy) * static_cast<std::size_t>(nx_) + static_cast<std::size_t>(cx);
            for (std::uint32_t k = cell_start_[c]; k < cell_start_[c + 1]; ++k)
                if (distance_squared(points_[order_[k]], centre) <= r2) out.push_back(order_[k]);
        }
    std::sort(out.begin(), out.end());
    return out.size();
}

}  // namespace rwd::sync
