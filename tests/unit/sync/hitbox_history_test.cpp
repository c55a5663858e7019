// Tests for HitboxHistory: recording, the rewind cap and future clamp, interpolated fills, with a toy game.
#include <rewind/core/rng.hpp>
#include <rewind/sync/hitbox_history.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <span>

namespace rwd::sync {
namespace {

using namespace rwd::literals;

/// A toy game: players on a line, moving 10 units per tick; only what HitboxHistory needs.
struct ToyG {
    static constexpr int kMaxPlayers = 3;
    struct Hitbox {
        int x = 0, y = 0, r = 0;
        bool alive = false;
    };
    struct State {
        std::array<int, kMaxPlayers> x{};
        std::array<bool, kMaxPlayers> alive{};
    };
    static void capture_hitboxes(const State& s, std::span<Hitbox> out) {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = Hitbox{s.x[i], static_cast<int>(i) * 100, 5, s.alive[i]};
    }
    static Hitbox lerp_hitbox(const Hitbox& a, const Hitbox& b, std::uint32_t t_q16) {
        auto l = [&](int p, int q) {
            return static_cast<int>(p + (static_cast<std::int64_t>(q - p) * t_q16) / 65536);
        };
        return Hitbox{l(a.x, b.x), l(a.y, b.y), b.r, a.alive && b.alive};
    }
};
static_assert(HitboxSource<ToyG>);

/// The toy world after tick t: player i at x = 10 * t + i, all alive.
ToyG::State world_at(std::uint32_t t) {
    ToyG::State s;
    for (int i = 0; i < ToyG::kMaxPlayers; ++i) {
        s.x[static_cast<std::size_t>(i)] = static_cast<int>(10 * t) + i;
        s.alive[static_cast<std::size_t>(i)] = true;
    }
    return s;
}

/// A history with ticks first..last recorded.
HitboxHistory<ToyG> recorded(std::uint32_t first, std::uint32_t last, HitboxHistoryConfig cfg = {}) {
    HitboxHistory<ToyG> h(cfg);
    for (std::uint32_t t = first;; ++t) {
        h.record(Tick{t}, world_at(t));
        if (t == last) break;
    }
    return h;
}

TEST(HitboxHistoryConfig, DefaultsAreValidAndTheCapMustFit) {
    EXPECT_TRUE(HitboxHistoryConfig{}.validate(64).ok());
    EXPECT_EQ(HitboxHistoryConfig{}.max_rewind_q16(), 15 * 65536);  // 250 ms at 60 Hz = 15 ticks
    HitboxHistoryConfig c;
    c.max_rewind = 2_s;
    EXPECT_EQ(c.validate(64).code(), Errc::invalid_config);
    c.max_rewind = Micros{-1};
    EXPECT_FALSE(c.validate(64).ok());
}

TEST(HitboxHistory, KeepsAboutOneSecondInFixedStorage) {
    const auto h = recorded(1, 500);
    EXPECT_EQ(h.newest_tick(), Tick{500});
    EXPECT_EQ(h.oldest_tick(), Tick{437});  // 64 ticks = 1.07 s at 60 Hz
    ASSERT_NE(h.at(Tick{437}, 2), nullptr);
    EXPECT_EQ(h.at(Tick{437}, 2)->x, 4372);
    EXPECT_EQ(h.at(Tick{436}, 0), nullptr);
    EXPECT_EQ(h.at(Tick{501}, 0), nullptr);
    EXPECT_EQ(h.at(Tick{450}, 3), nullptr);  // not a slot
    EXPECT_EQ(h.at(Tick{450}, -1), nullptr);
    EXPECT_EQ(h.stats().records, 500u);
}

TEST(HitboxHistory, ViewTimeWithinTheCapIsKeptExactly) {
    auto h = recorded(1, 100);
    const ViewTime v{Tick{95}, 12345};
    EXPECT_EQ(h.clamp(v, Tick{101}), v);
    EXPECT_EQ(h.stats().clamped, 0u);
}

TEST(HitboxHistory, ViewTimeBeyondTheCapIsClampedNeverTrusted) {
    auto h = recorded(1, 100);
    // The server runs tick 101; 250 ms = 15 ticks: nothing before tick 86 exactly.
    EXPECT_EQ(h.clamp(ViewTime{Tick{50}, 0}, Tick{101}), (ViewTime{Tick{86}, 0}));
    EXPECT_EQ(h.clamp(ViewTime{Tick{85}, 65535}, Tick{101}), (ViewTime{Tick{86}, 0}));
    // Half the tick circle away reads as "ahead" (wrap-aware): clamped to the newest record, still never
    // trusted.
    EXPECT_EQ(h.clamp(ViewTime{Tick{0x80000000u}, 7}, Tick{101}), (ViewTime{Tick{100}, 0}));
    EXPECT_EQ(h.stats().clamped_rewind, 2u);
    EXPECT_EQ(h.stats().clamped_future, 1u);
    EXPECT_EQ(h.stats().clamped, 3u);
    // In the future (after the newest record): clamped to the newest record.
    EXPECT_EQ(h.clamp(ViewTime{Tick{105}, 0}, Tick{101}), (ViewTime{Tick{100}, 0}));
    EXPECT_EQ(h.clamp(ViewTime{Tick{100}, 1}, Tick{101}), (ViewTime{Tick{100}, 0}));
    EXPECT_EQ(h.stats().clamped_future, 3u);
}

TEST(HitboxHistory, ClampRespectsTheHistoryAndAnEmptyHistory) {
    HitboxHistory<ToyG> empty;
    EXPECT_EQ(empty.clamp(ViewTime{Tick{5}, 9}, Tick{10}), (ViewTime{Tick{10}, 0}));
    auto h = recorded(95, 100);  // only 6 ticks recorded so far
    EXPECT_EQ(h.clamp(ViewTime{Tick{90}, 0}, Tick{101}), (ViewTime{Tick{95}, 0}));
    EXPECT_EQ(h.stats().clamped_history, 1u);
}

TEST(HitboxHistory, FillInterpolatesBetweenTheBracketingRecords) {
    auto h = recorded(1, 100);
    RewoundTargets<ToyG> rt;
    const ViewTime v = h.clamp(ViewTime{Tick{90}, 16384}, Tick{101});  // a quarter of the way to 91
    ASSERT_TRUE(h.fill(rt, 1, v));
    EXPECT_TRUE(rt.active[1]);
    EXPECT_FALSE(rt.active[0]);
    for (int t = 0; t < 3; ++t) {
        const auto& box = rt.targets[1][static_cast<std::size_t>(t)];
        EXPECT_EQ(box.x, 900 + t + 2) << "target " << t;  // 10 * 90.25 + t
        EXPECT_EQ(box.y, t * 100);
        EXPECT_TRUE(box.alive);
        EXPECT_TRUE(rt.seen[1][static_cast<std::size_t>(t)]) << "target " << t;   // until a session says not
        EXPECT_FALSE(rt.seen[0][static_cast<std::size_t>(t)]) << "target " << t;  // shooter 0 not filled yet
    }
    // Exactly on a tick: that record, no interpolation.
    ASSERT_TRUE(h.fill(rt, 0, ViewTime{Tick{95}, 0}));
    EXPECT_EQ(rt.targets[0][2].x, 952);
    EXPECT_EQ(h.stats().fills, 2u);
}

TEST(HitboxHistory, FillRefusesBadShootersAndMissingRecords) {
    auto h = recorded(1, 100);
    RewoundTargets<ToyG> rt;
    EXPECT_FALSE(h.fill(rt, 3, ViewTime{Tick{95}, 0}));
    EXPECT_FALSE(h.fill(rt, -1, ViewTime{Tick{95}, 0}));
    rt.active[2] = true;
    EXPECT_FALSE(h.fill(rt, 2, ViewTime{Tick{20}, 0}));  // long gone
    EXPECT_FALSE(rt.active[2]);
    EXPECT_EQ(h.stats().fill_misses, 3u);
}

TEST(HitboxHistory, SkippedTicksLeaveGapsAndRestartsForgetThePast) {
    HitboxHistory<ToyG> h;
    h.record(Tick{10}, world_at(10));
    h.record(Tick{13}, world_at(13));
    EXPECT_EQ(h.at(Tick{11}, 0), nullptr);
    EXPECT_NE(h.at(Tick{10}, 0), nullptr);
    h.record(Tick{5000}, world_at(5000));
    EXPECT_EQ(h.at(Tick{13}, 0), nullptr);
    EXPECT_EQ(h.oldest_tick(), Tick{5000});
}

TEST(HitboxHistory, WorksAcrossTheTickWrap) {
    auto h = recorded(0xFFFFFFF0u, 0x10u);
    RewoundTargets<ToyG> rt;
    const ViewTime v = h.clamp(ViewTime{Tick{0xFFFFFFFFu}, 32768}, Tick{0x08u});
    EXPECT_EQ(v, (ViewTime{Tick{0xFFFFFFFFu}, 32768}));
    ASSERT_TRUE(h.fill(rt, 0, v));
    // Halfway between x(0xFFFFFFFF) and x(0): the toy positions wrap too, but the interpolation is per pair.
    const int a = static_cast<int>(10u * 0xFFFFFFFFu), b = 0;
    EXPECT_EQ(rt.targets[0][0].x, static_cast<int>(a + (static_cast<std::int64_t>(b - a) * 32768) / 65536));
}

// Whatever a client claims, the clamped time lies within [now - cap, min(now, newest)] and can be filled.
RC_GTEST_PROP(HitboxHistoryProp, ClampedTimesAreAlwaysWithinTheCap,
              (std::uint32_t from, std::uint16_t frac)) {
    auto h = recorded(1000, 1100);
    const Tick now{1101};
    const ViewTime v = h.clamp(ViewTime{Tick{from}, frac}, now);
    const std::int64_t pos = static_cast<std::int64_t>(v.from - now) * 65536 + v.fraction_q16;
    RC_ASSERT(pos <= -65536);  // not after tick 1100, the newest record
    RC_ASSERT(pos >= -h.max_rewind_q16());
    RewoundTargets<ToyG> rt;
    RC_ASSERT(h.fill(rt, 0, v));
}

}  // namespace
}  // namespace rwd::sync
