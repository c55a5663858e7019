// VisualSmoother: exponential decay of the correction offset, and the snap decision.
#include <rewind/sync/visual_smoother.hpp>

#include <cassert>
#include <cmath>

namespace rwd::sync {

Status VisualSmootherConfig::validate() const {
    if (time_constant.count <= 0) return Error{Errc::invalid_config, "time_constant must be positive"};
    if (!(snap_distance_m > 0.0)) return Error{Errc::invalid_config, "snap_distance_m must be positive"};
    if (!(rest_distance_m >= 0.0 && rest_distance_m < snap_distance_m))
        return Error{Errc::invalid_config, "rest_distance_m not in [0, snap_distance_m)"};
    return {};
}

VisualSmoother::VisualSmoother(VisualSmootherConfig config) : config_(config) {
    assert(config_.validate().ok());
}

double VisualSmoother::magnitude() const {
    return std::sqrt(offset_.x * offset_.x + offset_.y * offset_.y + offset_.z * offset_.z);
}

void VisualSmoother::on_correction(Offset3 error_m) {
    const Offset3 sum{offset_.x + error_m.x, offset_.y + error_m.y, offset_.z + error_m.z};
    const double len = std::sqrt(sum.x * sum.x + sum.y * sum.y + sum.z * sum.z);
    if (!std::isfinite(len) || len > config_.snap_distance_m) {
        offset_ = {};
        ++stats_.snapped;
        return;
    }
    offset_ = sum;
    ++stats_.smoothed;
}

void VisualSmoother::advance(Micros elapsed) {
    if (elapsed.count <= 0) return;
    const double k =
        std::exp(-static_cast<double>(elapsed.count) / static_cast<double>(config_.time_constant.count));
    offset_ = {offset_.x * k, offset_.y * k, offset_.z * k};
    if (magnitude() < config_.rest_distance_m) offset_ = {};
}

}  // namespace rwd::sync
