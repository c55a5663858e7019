/// Rng: PCG32 (XSH-RR), a small seeded generator with identical output on every platform, safe to keep in a
/// State.
#pragma once

#include <cstdint>

namespace rwd {

/// PCG32 as documented by M. E. O'Neill (pcg-random.org): 64-bit LCG state, 64-bit odd increment (the
/// stream), XSH-RR output. Trivially copyable and free of padding, so a game can store it inside its
/// simulated State, copy it for rollback and checksum it. Only integer arithmetic with defined wrap-around:
/// the sequence is the same on every compiler and platform.
class Rng {
public:
    /// Seeds the generator exactly like the reference pcg32_srandom_r(seed, stream).
    explicit constexpr Rng(std::uint64_t seed, std::uint64_t stream = 0) : inc_((stream << 1u) | 1u) {
        next_u32();
        state_ += seed;
        next_u32();
    }

    /// The next 32 uniformly distributed bits.
    constexpr std::uint32_t next_u32() {
        const std::uint64_t old = state_;
        state_ = old * kMultiplier + inc_;
        const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
        const auto rot = static_cast<std::uint32_t>(old >> 59u);
        return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31u));
    }

    /// The next 64 bits: two draws, the first one in the high half.
    constexpr std::uint64_t next_u64() {
        const std::uint64_t hi = next_u32();
        const std::uint64_t lo = next_u32();
        return (hi << 32u) | lo;
    }

    /// A uniform value in [0, bound), without modulo bias (Lemire's multiply-and-reject); bound 0 gives 0
    /// without consuming a draw.
    constexpr std::uint32_t uniform(std::uint32_t bound) {
        if (bound == 0) return 0;
        std::uint64_t m = static_cast<std::uint64_t>(next_u32()) * bound;
        auto low = static_cast<std::uint32_t>(m);
        if (low < bound) {
            const std::uint32_t threshold = (0u - bound) % bound;  // 2^32 mod bound
            while (low < threshold) {
                m = static_cast<std::uint64_t>(next_u32()) * bound;
                low = static_cast<std::uint32_t>(m);
            }
        }
        return static_cast<std::uint32_t>(m >> 32u);
    }

    /// A uniform value in [lo, hi], both inclusive; the bounds may be given in either order.
    constexpr std::int32_t range(std::int32_t lo, std::int32_t hi) {
        if (hi < lo) {
            const std::int32_t t = lo;
            lo = hi;
            hi = t;
        }
        const std::uint32_t span = static_cast<std::uint32_t>(hi) - static_cast<std::uint32_t>(lo);
        const std::uint32_t offset = span == 0xFFFFFFFFu ? next_u32() : uniform(span + 1u);
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(lo) +
                                         offset);  // modular, defined in C++20
    }

    /// True with probability num/den (exact, integer only); den 0 gives false without consuming a draw.
    constexpr bool chance(std::uint32_t num, std::uint32_t den) {
        if (den == 0) return false;
        return uniform(den) < num;
    }

    /// A double in [0, 1) with 53 random bits. For uses outside the deterministic simulation (e.g. the
    /// network simulator): floating point is exact here, but games should prefer the integer calls above in
    /// step().
    constexpr double next_double() { return static_cast<double>(next_u64() >> 11u) * 0x1.0p-53; }

    /// Same state and stream: the two generators produce the same sequence from here on.
    friend constexpr bool operator==(const Rng&, const Rng&) = default;

private:
    static constexpr std::uint64_t kMultiplier = 6364136223846793005ULL;
    std::uint64_t state_ = 0;
    std::uint64_t inc_ = 1;
};

}  // namespace rwd
