// InterpolationBufferConfig::validate(): the non-template part of the client's snapshot interpolation buffer.
#include <rewind/sync/interpolation_buffer.hpp>

namespace rwd::sync {

Status InterpolationBufferConfig::validate() const {
    if (tick_rate_hz < 1 || tick_rate_hz > 1000)
        return Error{Errc::invalid_config, "tick_rate_hz not in 1..1000"};
    if (!(snapshot_interval_ticks >= 1.0 && snapshot_interval_ticks <= 60.0))
        return Error{Errc::invalid_config, "snapshot_interval_ticks not in 1..60"};
    if (!(interval_multiplier >= 1.0 && interval_multiplier <= 10.0))
        return Error{Errc::invalid_config, "interval_multiplier not in 1..10"};
    if (!(jitter_multiplier >= 0.0 && jitter_multiplier <= 10.0))
        return Error{Errc::invalid_config, "jitter_multiplier not in 0..10"};
    if (!(min_delay_ticks >= 0.0)) return Error{Errc::invalid_config, "min_delay_ticks must be >= 0"};
    if (!(max_delay_ticks >= min_delay_ticks && max_delay_ticks <= 600.0))
        return Error{Errc::invalid_config, "max_delay_ticks not in min_delay_ticks..600"};
    if (!(starve_raise_ticks > 0.0 && starve_raise_ticks <= 60.0))
        return Error{Errc::invalid_config, "starve_raise_ticks not in (0, 60]"};
    if (healthy_after.count < 0) return Error{Errc::invalid_config, "healthy_after must be >= 0"};
    if (!(lower_ticks_per_second > 0.0 && lower_ticks_per_second <= 60.0))
        return Error{Errc::invalid_config, "lower_ticks_per_second not in (0, 60]"};
    if (!(max_slew > 0.0 && max_slew <= 1.0)) return Error{Errc::invalid_config, "max_slew not in (0, 1]"};
    if (!(max_extrapolation_ticks >= 0.0 && max_extrapolation_ticks <= 10.0))
        return Error{Errc::invalid_config, "max_extrapolation_ticks not in 0..10"};
    if (max_future_ticks < 1) return Error{Errc::invalid_config, "max_future_ticks must be >= 1"};
    return {};
}

}  // namespace rwd::sync
