// Integer sine table (built at compile time from an integer Taylor series) and a table-driven atan2.
#include "arena/fixed_math.hpp"

#include <array>
#include <cstdint>

namespace arena {
namespace {

// Quarter-wave table: index i covers angle i * (pi/2) / kQuarter, kQuarter + 1 entries.
constexpr int kQuarter = 4096;
// pi/2 in Q30, rounded.
constexpr std::int64_t kHalfPiQ30 = 1686629713;

// sin(x) for x in [0, pi/2] given in Q30, returned in Q30: Taylor series to x^15/15!, error < 1e-8.
constexpr std::int64_t sin_q30(std::int64_t x) {
    const std::int64_t x2 = (x * x) >> 30;
    std::int64_t term = x;
    std::int64_t sum = x;
    for (std::int64_t n = 1; n <= 7; ++n) {
        term = -((term * x2) >> 30) / ((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}

constexpr std::array<std::int16_t, kQuarter + 1> make_table() {
    std::array<std::int16_t, kQuarter + 1> t{};
    for (int i = 0; i <= kQuarter; ++i) {
        const std::int64_t x = kHalfPiQ30 * i / kQuarter;
        std::int64_t v = (sin_q30(x) + (std::int64_t{1} << 15)) >> 16;  // Q30 -> Q14, rounded
        if (v > kTrigOne) v = kTrigOne;
        t[static_cast<std::size_t>(i)] = static_cast<std::int16_t>(v);
    }
    return t;
}

constexpr std::array<std::int16_t, kQuarter + 1> kSinTable = make_table();
static_assert(kSinTable[0] == 0 && kSinTable[kQuarter] == kTrigOne, "sine table endpoints");
static_assert(kSinTable[kQuarter / 2] == 11585, "sin(45 deg) = 0.70711 in Q14");

// sin of a table step s in [0, 4 * kQuarter).
constexpr std::int32_t sin_steps(std::uint32_t s) {
    const std::uint32_t quadrant = s / kQuarter;
    const std::uint32_t i = s % kQuarter;
    switch (quadrant) {
        case 0:
            return kSinTable[i];
        case 1:
            return kSinTable[kQuarter - i];
        case 2:
            return -kSinTable[i];
        default:
            return -kSinTable[kQuarter - i];
    }
}

}  // namespace

std::int32_t sin_q14(std::uint16_t angle) {
    // Round to the nearest of 16384 steps per turn.
    const std::uint32_t s = ((std::uint32_t{angle} + 2u) >> 2u) & 0x3FFFu;
    return sin_steps(s);
}

std::int32_t cos_q14(std::uint16_t angle) { return sin_q14(static_cast<std::uint16_t>(angle + 16384u)); }

std::uint16_t atan2_angle(std::int64_t y, std::int64_t x) {
    if (x == 0 && y == 0) return 0;
    // Reduce to the first octant: 0 <= b <= a.
    const bool neg_x = x < 0;
    const bool neg_y = y < 0;
    std::int64_t a = neg_x ? -x : x;
    std::int64_t b = neg_y ? -y : y;
    const bool swapped = b > a;
    if (swapped) {
        const std::int64_t t = a;
        a = b;
        b = t;
    }
    // Keep products in range: positions and vectors here are far below 2^40.
    while (a > (std::int64_t{1} << 40)) {
        a >>= 1;
        b >>= 1;
    }
    // Largest table step k in [0, kQuarter/2] with tan(k) <= b/a, i.e. sin(k)*a <= b*cos(k).
    int lo = 0;
    int hi = kQuarter / 2;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        const std::int64_t s = kSinTable[static_cast<std::size_t>(mid)];
        const std::int64_t c = kSinTable[static_cast<std::size_t>(kQuarter - mid)];
        if (s * a <= b * c)
            lo = mid;
        else
            hi = mid - 1;
    }
    // Round to the nearer of lo and lo+1.
    if (lo < kQuarter / 2) {
        const std::int64_t s0 = kSinTable[static_cast<std::size_t>(lo)];
        const std::int64_t c0 = kSinTable[static_cast<std::size_t>(kQuarter - lo)];
        const std::int64_t s1 = kSinTable[static_cast<std::size_t>(lo + 1)];
        const std::int64_t c1 = kSinTable[static_cast<std::size_t>(kQuarter - lo - 1)];
        // Compare the cross products |b*c - a*s| (distance of the direction from each candidate).
        const std::int64_t e0 = b * c0 - a * s0;  // >= 0
        const std::int64_t e1 = a * s1 - b * c1;  // > 0
        if (e1 < e0) ++lo;
    }
    std::int32_t steps = lo;                  // 0..2048 within the octant
    if (swapped) steps = kQuarter - steps;    // mirror about 45 degrees
    if (neg_x) steps = 2 * kQuarter - steps;  // mirror about the y axis
    if (neg_y) steps = 4 * kQuarter - steps;  // mirror about the x axis
    return static_cast<std::uint16_t>(static_cast<std::uint32_t>(steps) << 2u);
}

}  // namespace arena
