/// Tick: a 32-bit simulation tick number that wraps, with wrap-aware comparison and difference.
#pragma once

#include <cstdint>

namespace rwd {

/// One fixed simulation step's number. Ticks wrap at 2^32; compare them only with these operators,
/// which treat the nearer way round the circle as the truth (valid while two ticks are < 2^31 apart).
struct Tick {
    std::uint32_t value = 0;

    constexpr Tick() = default;
    constexpr explicit Tick(std::uint32_t v) : value(v) {}

    /// Signed distance a - b, wrap-aware: positive when a is after b.
    friend constexpr std::int32_t operator-(Tick a, Tick b) {
        return static_cast<std::int32_t>(a.value - b.value);
    }
    friend constexpr Tick operator+(Tick a, std::int32_t d) {
        return Tick{a.value + static_cast<std::uint32_t>(d)};
    }
    friend constexpr Tick operator-(Tick a, std::int32_t d) {
        return Tick{a.value - static_cast<std::uint32_t>(d)};
    }
    constexpr Tick& operator+=(std::int32_t d) {
        value += static_cast<std::uint32_t>(d);
        return *this;
    }
    constexpr Tick& operator-=(std::int32_t d) {
        value -= static_cast<std::uint32_t>(d);
        return *this;
    }
    constexpr Tick& operator++() {
        ++value;
        return *this;
    }
    constexpr Tick operator++(int) {
        Tick t = *this;
        ++value;
        return t;
    }

    friend constexpr bool operator==(Tick a, Tick b) = default;
    friend constexpr bool operator<(Tick a, Tick b) { return (a - b) < 0; }
    friend constexpr bool operator>(Tick a, Tick b) { return (a - b) > 0; }
    friend constexpr bool operator<=(Tick a, Tick b) { return (a - b) <= 0; }
    friend constexpr bool operator>=(Tick a, Tick b) { return (a - b) >= 0; }
};

/// The later of two ticks, wrap-aware.
constexpr Tick tick_max(Tick a, Tick b) { return a < b ? b : a; }
/// The earlier of two ticks, wrap-aware.
constexpr Tick tick_min(Tick a, Tick b) { return a < b ? a : b; }

}  // namespace rwd
