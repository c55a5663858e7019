// HitboxHistoryConfig: validation and the rewind cap in fixed point.
#include <rewind/sync/hitbox_history.hpp>

namespace rwd::sync {

Status HitboxHistoryConfig::validate(int capacity_ticks) const {
    if (tick_rate_hz < 1 || tick_rate_hz > 1000)
        return Error{Errc::invalid_config, "tick_rate_hz not in 1..1000"};
    if (max_rewind.count < 0 || max_rewind.count > 10'000'000)
        return Error{Errc::invalid_config, "max_rewind not in 0..10 s"};
    // The history must reach one tick past the cap so the interpolation pair at the cap exists.
    if (max_rewind_q16() > static_cast<std::int64_t>(capacity_ticks - 2) * 65536)
        return Error{Errc::invalid_config, "max_rewind longer than the history holds"};
    return {};
}

std::int64_t HitboxHistoryConfig::max_rewind_q16() const {
    return max_rewind.count * static_cast<std::int64_t>(tick_rate_hz) * 65536 / 1'000'000;
}

}  // namespace rwd::sync
