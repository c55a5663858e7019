// FixedStep: exact rational time accumulation (us x Hz x ppm) so a fixed tick rate never drifts.
#include <rewind/core/fixed_step.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace rwd {

namespace {

constexpr int kMaxRateHz = 1000;
constexpr int kMaxTicksCap = 1000;
constexpr std::int64_t kPpm = 1'000'000;
// One tick is 1e6 us / rate; in accumulator units (us x rate x ppm) that is 1e6 x 1e6, independent of the
// rate.
constexpr std::int64_t kUnitsPerTick = 1'000'000LL * kPpm;

// elapsed x rate x ppm can exceed 64 bits for a long pause (hours at a high rate), so the product is formed
// in 128 bits; GCC and Clang both provide the type.
__extension__ using Wide = __int128;

FixedStepConfig sanitized(FixedStepConfig c) {
    c.tick_rate_hz = std::clamp(c.tick_rate_hz, 1, kMaxRateHz);
    c.max_ticks_per_update = std::clamp(c.max_ticks_per_update, 1, kMaxTicksCap);
    return c;
}

}  // namespace

Status FixedStepConfig::validate() const {
    if (tick_rate_hz < 1 || tick_rate_hz > kMaxRateHz) {
        return Error{Errc::invalid_config, "FixedStepConfig.tick_rate_hz must be in 1..1000"};
    }
    if (max_ticks_per_update < 1 || max_ticks_per_update > kMaxTicksCap) {
        return Error{Errc::invalid_config, "FixedStepConfig.max_ticks_per_update must be in 1..1000"};
    }
    return {};
}

FixedStep::FixedStep(FixedStepConfig config) : config_(sanitized(config)) {
    assert(config.validate().ok() && "invalid FixedStepConfig");
}

int FixedStep::advance(Micros elapsed) {
    if (elapsed.count <= 0) return 0;
    const Wide total = static_cast<Wide>(accumulator_) +
                       static_cast<Wide>(elapsed.count) * config_.tick_rate_hz * scale_ppm_;
    const Wide whole = total / kUnitsPerTick;
    accumulator_ = static_cast<std::int64_t>(total % kUnitsPerTick);
    int ticks = config_.max_ticks_per_update;
    if (whole <= ticks) {
        ticks = static_cast<int>(whole);
    } else {
        dropped_ticks_ += static_cast<std::uint64_t>(whole - ticks);
    }
    ticks_run_ += static_cast<std::uint64_t>(ticks);
    return ticks;
}

double FixedStep::alpha() const {
    const double a = static_cast<double>(accumulator_) / static_cast<double>(kUnitsPerTick);
    return a < 1.0 ? a : std::nextafter(1.0, 0.0);  // accumulator_ < kUnitsPerTick; guard double rounding
}

void FixedStep::set_time_scale(double scale) {
    if (std::isnan(scale)) return;
    scale = std::clamp(scale, kMinTimeScale, kMaxTimeScale);
    scale_ppm_ = std::llround(scale * static_cast<double>(kPpm));
}

double FixedStep::time_scale() const { return static_cast<double>(scale_ppm_) / static_cast<double>(kPpm); }

Micros FixedStep::tick_duration() const {
    const std::int64_t rate = config_.tick_rate_hz;
    return Micros{(1'000'000 + rate / 2) / rate};
}

}  // namespace rwd
