/// Micros: the one strong type for time in rewind; every object takes `now` as a Micros, nothing reads a
/// clock.
#pragma once

#include <compare>
#include <cstdint>

namespace rwd {

/// A point or span of time in microseconds. The apps own the real clock; the library only ever receives it.
struct Micros {
    std::int64_t count = 0;

    constexpr Micros() = default;
    constexpr explicit Micros(std::int64_t us) : count(us) {}

    /// Whole milliseconds to Micros.
    static constexpr Micros from_millis(std::int64_t ms) { return Micros{ms * 1000}; }
    /// Seconds (may be fractional) to Micros, rounded toward zero.
    static constexpr Micros from_seconds(double s) { return Micros{static_cast<std::int64_t>(s * 1e6)}; }

    /// This span in seconds.
    [[nodiscard]] constexpr double seconds() const { return static_cast<double>(count) * 1e-6; }
    /// This span in milliseconds.
    [[nodiscard]] constexpr double millis() const { return static_cast<double>(count) * 1e-3; }

    constexpr auto operator<=>(const Micros&) const = default;

    constexpr Micros& operator+=(Micros o) {
        count += o.count;
        return *this;
    }
    constexpr Micros& operator-=(Micros o) {
        count -= o.count;
        return *this;
    }
    friend constexpr Micros operator+(Micros a, Micros b) { return Micros{a.count + b.count}; }
    friend constexpr Micros operator-(Micros a, Micros b) { return Micros{a.count - b.count}; }
    friend constexpr Micros operator*(Micros a, std::int64_t k) { return Micros{a.count * k}; }
    friend constexpr Micros operator*(std::int64_t k, Micros a) { return Micros{a.count * k}; }
    friend constexpr Micros operator/(Micros a, std::int64_t k) { return Micros{a.count / k}; }
    /// How many times `b` fits in `a`.
    friend constexpr std::int64_t operator/(Micros a, Micros b) { return a.count / b.count; }
};

namespace literals {
/// Microseconds: 100_us.
constexpr Micros operator""_us(unsigned long long v) { return Micros{static_cast<std::int64_t>(v)}; }
/// Milliseconds: 5_ms.
constexpr Micros operator""_ms(unsigned long long v) { return Micros{static_cast<std::int64_t>(v) * 1000}; }
/// Seconds: 2_s.
constexpr Micros operator""_s(unsigned long long v) { return Micros{static_cast<std::int64_t>(v) * 1000000}; }
}  // namespace literals

}  // namespace rwd
