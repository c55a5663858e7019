// Tests for rewind_limit() and HitboxHistory::clamp with a per-client limit: honest clients pass, every lie
// about latency is clamped and counted, and low-ping clients get a stricter limit than the old fixed cap.
#include <rewind/sync/hitbox_history.hpp>
#include <rewind/sync/rewind_limit.hpp>

#include <gtest/gtest.h>

#include <array>
#include <climits>
#include <cmath>
#include <span>

namespace rwd::sync {
namespace {

using namespace rwd::literals;

/// A toy game: one hit circle per player at x = 10 * tick.
struct Toy {
    static constexpr int kMaxPlayers = 2;
    struct Hitbox {
        int x = 0;
        bool alive = true;
    };
    struct State {
        int tick = 0;
    };
    static void capture_hitboxes(const State& s, std::span<Hitbox> out) {
        for (Hitbox& h : out) h = Hitbox{10 * s.tick, true};
    }
    static Hitbox lerp_hitbox(const Hitbox& a, const Hitbox& b, std::uint32_t t_q16) {
        return Hitbox{static_cast<int>(a.x + (static_cast<std::int64_t>(b.x - a.x) * t_q16) / 65536),
                      a.alive};
    }
};

/// A history holding ticks 1000 - 63 .. 1000.
HitboxHistory<Toy> history(HitboxHistoryConfig cfg = {}) {
    HitboxHistory<Toy> h(cfg);
    for (int t = 1000 - 63; t <= 1000; ++t) h.record(Tick{static_cast<std::uint32_t>(t)}, Toy::State{t});
    return h;
}

constexpr Tick kNow{1000};

/// The view `ms` milliseconds before kNow at 60 Hz.
ViewTime view_ms_ago(double ms) {
    const double ticks = ms * 60.0 / 1000.0;
    const auto whole = static_cast<std::int32_t>(std::ceil(ticks));
    const double frac = static_cast<double>(whole) - ticks;
    return ViewTime{kNow - whole, static_cast<std::uint16_t>(std::lround(frac * 65535.0))};
}

ClientLatency client(Micros rtt, Micros interp, int buffer, Micros jitter = 2_ms) {
    ClientLatency c;
    c.rtt = rtt;
    c.rtt_jitter = jitter;
    c.interpolation_delay = interp;
    c.input_buffer_ticks = buffer;
    return c;
}

TEST(LagCompensationConfig, DefaultsAreValidAndFitTheHistory) {
    const LagCompensationConfig c;
    EXPECT_TRUE(c.validate().ok());
    // Full compensation up to 250 ms RTT with the widest claims and an 8-tick buffer still fits 62 ticks.
    EXPECT_LE(c.longest_limit(8).count * 60 / 1'000'000, 62);
    LagCompensationConfig bad;
    bad.max_compensated_rtt = Micros{-1};
    EXPECT_EQ(bad.validate().code(), Errc::invalid_config);
    bad = {};
    bad.jitter_margin_factor = std::nan("");
    EXPECT_FALSE(bad.validate().ok());
    bad = {};
    bad.max_interpolation_delay = 2_s;
    EXPECT_FALSE(bad.validate().ok());
}

TEST(RewindLimit, IsTheSumOfLatencyInterpolationBufferJitterAndOneTick) {
    const RewindLimit r = rewind_limit({}, client(200_ms, 100_ms, 2, 5_ms));
    EXPECT_EQ(r.compensated_rtt, 200_ms);
    EXPECT_EQ(r.interpolation_delay, 100_ms);
    EXPECT_EQ(r.input_buffer, Micros{33'333});
    EXPECT_EQ(r.jitter_margin, 20_ms);  // 4 x the measured jitter
    EXPECT_EQ(r.quantization, Micros{16'667});
    EXPECT_EQ(r.total, Micros{200'000 + 100'000 + 33'333 + 20'000 + 16'667});
    EXPECT_EQ(r.max_rewind_q16, r.total.count * 60 * 65536 / 1'000'000);
    EXPECT_FALSE(r.rtt_capped);
    EXPECT_FALSE(r.interpolation_clamped);
}

TEST(RewindLimit, InputsMeasuredArrivingEarlierThanTheTargetAreCompensatedUpToTheBound) {
    ClientLatency c = client(100_ms, 50_ms, 2);
    const Micros base = rewind_limit({}, c).input_buffer;
    EXPECT_EQ(base, Micros{33'333});
    c.input_lead_ticks = 1.0;  // later than the target: the target still counts
    EXPECT_EQ(rewind_limit({}, c).input_buffer, base);
    c.input_lead_ticks = 4.5;  // a client easing a resync surplus away: its inputs wait that long
    EXPECT_EQ(rewind_limit({}, c).input_buffer, Micros{75'000});
    c.input_lead_ticks = 40.0;  // far earlier: compensated only up to the bound (4 ticks beyond the target)
    EXPECT_EQ(rewind_limit({}, c).input_buffer, Micros{100'000});
    c.input_lead_ticks = std::nan("");
    EXPECT_EQ(rewind_limit({}, c).input_buffer, base);
    LagCompensationConfig none;
    none.max_extra_input_lead_ticks = 0.0;
    c.input_lead_ticks = 6.0;
    EXPECT_EQ(rewind_limit(none, c).input_buffer, base);
    none.max_extra_input_lead_ticks = 17.0;
    EXPECT_FALSE(none.validate().ok());
}

TEST(RewindLimit, AnHonest200MsClientIsNotClamped) {
    auto h = history();
    const RewindLimit limit = rewind_limit({}, client(200_ms, 100_ms, 2));
    // What it really saw: RTT + interpolation delay + its input buffer behind the tick that applies the shot.
    for (const double ms : {200.0 + 100.0 + 33.3, 200.0 + 100.0 + 33.3 + 8.0, 100.0, 0.0}) {
        const ViewTime v = view_ms_ago(ms);
        EXPECT_EQ(h.clamp(v, kNow, limit), v) << ms << " ms";
    }
    EXPECT_EQ(h.stats().clamped, 0u);
    // The old fixed 250 ms cap would have clamped that same honest shot.
    (void)h.clamp(view_ms_ago(333.3), kNow);
    EXPECT_EQ(h.stats().clamped_rewind, 1u);
}

TEST(RewindLimit, ClaimingMoreInterpolationDelayThanAllowedGainsNothing) {
    LagCompensation lag;
    auto h = history();
    const RewindLimit limit = lag.limit_for(client(100_ms, 900_ms, 2));
    EXPECT_TRUE(limit.interpolation_clamped);
    EXPECT_EQ(limit.interpolation_delay, 150_ms);  // the server's bound, not the claim
    EXPECT_EQ(lag.stats().interpolation_clamped, 1u);
    // A shot claiming the view that the lie would allow is judged at the bounded limit instead.
    const ViewTime v = h.clamp(view_ms_ago(100.0 + 900.0 + 33.3), kNow, limit);
    EXPECT_EQ(h.stats().clamped_latency, 1u);
    EXPECT_EQ((kNow - v.from) * 65536 - v.fraction_q16, limit.max_rewind_q16);
    // A negative claim is out of bounds too.
    EXPECT_TRUE(lag.limit_for(client(100_ms, Micros{-5'000}, 2)).interpolation_clamped);
    EXPECT_EQ(lag.stats().interpolation_clamped, 2u);
}

TEST(RewindLimit, AViewOlderThanTheMeasuredRttAllowsIsClamped) {
    auto h = history();
    // 20 ms RTT, but the shot claims a view 240 ms old: inside the old fixed cap, outside its own latency.
    const RewindLimit limit = rewind_limit({}, client(20_ms, 100_ms, 1));
    const ViewTime v = h.clamp(view_ms_ago(240.0), kNow, limit);
    EXPECT_EQ(h.stats().clamped_latency, 1u);
    EXPECT_EQ(h.stats().clamped, 1u);
    EXPECT_EQ((kNow - v.from) * 65536 - v.fraction_q16, limit.max_rewind_q16);
    // The fixed cap lets the same lie through.
    auto fixed = history();
    const ViewTime lie = view_ms_ago(240.0);
    EXPECT_EQ(fixed.clamp(lie, kNow), lie);
    EXPECT_EQ(fixed.stats().clamped, 0u);
}

TEST(RewindLimit, AFutureViewIsClampedToThePresent) {
    auto h = history();
    const RewindLimit limit = rewind_limit({}, client(60_ms, 100_ms, 2));
    EXPECT_EQ(h.clamp(ViewTime{kNow + 5, 0}, kNow, limit), (ViewTime{kNow, 0}));
    EXPECT_EQ(h.clamp(ViewTime{kNow, 1}, kNow, limit), (ViewTime{kNow, 0}));
    EXPECT_EQ(h.stats().clamped_future, 2u);
    EXPECT_EQ(h.stats().clamped_latency, 0u);
}

TEST(RewindLimit, ALowPingClientIsHeldStricterThanTheOldFixedCap) {
    const HitboxHistoryConfig fixed;
    for (const Micros rtt : {5_ms, 30_ms, 60_ms}) {
        const RewindLimit limit = rewind_limit({}, client(rtt, 100_ms, 1));
        EXPECT_LT(limit.total, fixed.max_rewind) << rtt.count;
        EXPECT_LT(limit.max_rewind_q16, fixed.max_rewind_q16());
    }
}

TEST(RewindLimit, RttBeyondTheCompensatedLatencyIsCappedAndTheHistoryStillBounds) {
    LagCompensation lag;
    const RewindLimit r = lag.limit_for(client(400_ms, 100_ms, 2));
    EXPECT_TRUE(r.rtt_capped);
    EXPECT_EQ(r.compensated_rtt, 250_ms);
    EXPECT_EQ(lag.stats().rtt_capped, 1u);
    // A limit longer than the history: the oldest record bounds it.
    LagCompensationConfig wide;
    wide.max_compensated_rtt = 2_s;
    auto h = history();
    const RewindLimit huge = rewind_limit(wide, client(2_s, 100_ms, 8));
    const ViewTime v = h.clamp(ViewTime{kNow - 100, 0}, kNow, huge);  // inside its limit
    EXPECT_EQ(v, (ViewTime{kNow - 63, 0}));
    EXPECT_EQ(h.stats().clamped_history, 1u);
    EXPECT_EQ(h.stats().clamped_latency, 0u);
}

TEST(RewindLimit, GarbageMeasurementsNeverOverflowOrGoNegative) {
    for (const std::int64_t x : {INT64_MIN, std::int64_t{-1}, std::int64_t{0}, INT64_MAX}) {
        ClientLatency c;
        c.rtt = Micros{x};
        c.rtt_jitter = Micros{x};
        c.interpolation_delay = Micros{x};
        c.input_buffer_ticks = x > 0 ? INT_MAX : INT_MIN;
        const RewindLimit r = rewind_limit({}, c);
        EXPECT_GE(r.max_rewind_q16, 0);
        EXPECT_LE(r.total, LagCompensationConfig{}.longest_limit(64));
    }
}

}  // namespace
}  // namespace rwd::sync
