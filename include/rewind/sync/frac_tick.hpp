/// FracTick: a point on the tick timeline with a fractional part, wrap-aware, for clock estimates and render
/// times.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/sync/view_time.hpp>

#include <cmath>
#include <cstdint>

namespace rwd::sync {

/// A tick plus a fraction of the next tick, always normalized to fraction in [0, 1). Differences are
/// wrap-aware (valid while the two points are less than 2^31 ticks apart).
struct FracTick {
    Tick tick{};            ///< the whole tick
    double fraction = 0.0;  ///< how far into the next tick, [0, 1)

    /// A point `offset_ticks` after `base` (offset may be negative or fractional); non-finite offsets count
    /// as 0.
    static FracTick at(Tick base, double offset_ticks) {
        if (!std::isfinite(offset_ticks)) offset_ticks = 0.0;
        const double whole = std::floor(offset_ticks);
        // Offsets are bounded by the +-2^31 validity range of Tick differences; clamp so the cast is defined.
        const double clamped =
            whole < -2147483648.0 ? -2147483648.0 : (whole > 2147483647.0 ? 2147483647.0 : whole);
        FracTick r;
        r.tick = base + static_cast<std::int32_t>(clamped);
        r.fraction = offset_ticks - whole;
        if (r.fraction >= 1.0) r.fraction = 0.0, ++r.tick;  // rounding of tiny negatives
        if (r.fraction < 0.0) r.fraction = 0.0;
        return r;
    }

    /// This point moved by `ticks` (may be negative).
    [[nodiscard]] FracTick plus(double ticks) const { return at(tick, fraction + ticks); }

    /// The signed distance a - b in ticks, wrap-aware.
    friend double operator-(const FracTick& a, const FracTick& b) {
        return static_cast<double>(a.tick - b.tick) + (a.fraction - b.fraction);
    }

    /// As a ViewTime (tick pair (tick, tick + 1) and the fraction in 1/65536, rounded down).
    [[nodiscard]] ViewTime view_time() const {
        auto q = static_cast<std::int64_t>(fraction * 65536.0);
        if (q > 65535) q = 65535;
        if (q < 0) q = 0;
        return ViewTime{tick, static_cast<std::uint16_t>(q)};
    }

    /// The point a ViewTime names.
    static FracTick from_view_time(ViewTime v) {
        return FracTick{v.from, static_cast<double>(v.fraction_q16) / 65536.0};
    }
};

}  // namespace rwd::sync
