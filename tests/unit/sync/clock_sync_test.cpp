// Tests for ClockSync: RTT median and jitter, server-tick estimate, and a closed-loop model of client and
// server.
#include <rewind/core/rng.hpp>
#include <rewind/sync/clock_sync.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <queue>
#include <string>
#include <vector>

namespace rwd::sync {
namespace {

using namespace rwd::literals;

/// Distance a - b in ticks from `base` + whole ticks (keeps braces out of the gtest macros).
double ticks_after(FracTick a, std::uint32_t b) { return a - FracTick{Tick{b}, 0.0}; }

TEST(ClockSyncConfig, DefaultsAreValidAndBadValuesAreNamed) {
    EXPECT_TRUE(ClockSyncConfig{}.validate().ok());
    ClockSyncConfig c;
    c.max_adjust = 0.2;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.rtt_window = 0;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.hard_resync_ticks = 0.5;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.server_estimate_gain = std::nan("");
    EXPECT_FALSE(c.validate().ok());
}

TEST(ClockSync, RttIsTheMedianOfTheLastTenSamples) {
    ClockSync clock;
    // Nine samples of 50 ms and one 900 ms outlier: the median ignores the outlier.
    Micros now = 10_s;
    for (int i = 0; i < 9; ++i) clock.on_pong(now - 50_ms, now);
    clock.on_pong(now - 900_ms, now);
    EXPECT_EQ(clock.rtt(), 50_ms);
    // Ten more of 80 ms push every old sample out of the window.
    for (int i = 0; i < 10; ++i) clock.on_pong(now - 80_ms, now);
    EXPECT_EQ(clock.rtt(), 80_ms);
    EXPECT_EQ(clock.jitter(), 0_ms);
    EXPECT_EQ(clock.stats().rtt_samples, 20u);
}

TEST(ClockSync, JitterIsTheMeanDeviationFromTheMedian) {
    ClockSync clock;
    const Micros now = 5_s;
    for (int i = 0; i < 10; ++i) clock.on_pong(now - Micros::from_millis(i % 2 == 0 ? 40 : 60), now);
    EXPECT_EQ(clock.rtt(), 50_ms);
    EXPECT_EQ(clock.jitter(), 10_ms);
}

TEST(ClockSync, ServerHoldIsSubtractedAndForgedEchoesAreRejected) {
    ClockSync clock;
    clock.on_pong(1000_ms, 1100_ms, 30_ms);
    EXPECT_EQ(clock.rtt(), 70_ms);
    clock.on_pong(2000_ms, 1000_ms);              // from the future
    clock.on_pong(0_ms, 100_s);                   // beyond max_rtt
    clock.on_pong(1000_ms, 1100_ms, Micros{-5});  // negative hold
    clock.on_pong(1000_ms, 1100_ms, 200_ms);      // hold longer than the round trip
    EXPECT_EQ(clock.stats().rejected_rtt_samples, 4u);
    EXPECT_EQ(clock.stats().rtt_samples, 1u);
    EXPECT_EQ(clock.rtt(), 70_ms);
}

TEST(ClockSync, NotReadyUntilRttAndServerTickAreKnown) {
    ClockSync clock;
    ClockAdjust a = clock.update(1_s, FracTick{});
    EXPECT_FALSE(a.resync);
    EXPECT_EQ(a.time_scale, 1.0);
    clock.on_server_tick(Tick{500}, 1_s);
    EXPECT_FALSE(clock.ready());
    clock.on_pong(1_s - 100_ms, 1_s);
    EXPECT_TRUE(clock.ready());
    // Stamp 500 was 50 ms (3 ticks) old when it arrived; the estimate moves forward at 60 ticks per second.
    EXPECT_NEAR(ticks_after(clock.estimated_server_tick(1_s), 500), 3.0, 1e-9);
    EXPECT_NEAR(ticks_after(clock.estimated_server_tick(2_s), 500), 63.0, 1e-9);
    // The target leads by RTT/2 plus the 2-tick margin.
    EXPECT_NEAR(clock.target_tick(1_s) - clock.estimated_server_tick(1_s), 5.0, 1e-9);
}

TEST(ClockSync, StaleAndDuplicateStampsAreIgnored) {
    ClockSync clock;
    clock.on_pong(0_ms, 100_ms);
    clock.on_server_tick(Tick{100}, 1_s);
    const FracTick before = clock.estimated_server_tick(1_s);
    clock.on_server_tick(Tick{90}, 1_s);
    clock.on_server_tick(Tick{100}, 1_s);
    EXPECT_EQ(clock.stats().stale_server_ticks, 2u);
    EXPECT_NEAR(clock.estimated_server_tick(1_s) - before, 0.0, 1e-12);
}

TEST(ClockSync, EstimateWorksAcrossTheTickWrap) {
    ClockSync clock;
    clock.on_pong(0_ms, 0_ms);
    clock.on_server_tick(Tick{0xFFFFFFF0u}, 0_s);
    clock.on_server_tick(Tick{0x00000010u}, Micros{32 * 1'000'000 / 60});
    EXPECT_EQ(clock.stats().stale_server_ticks, 0u);
    EXPECT_EQ(clock.stats().server_estimate_resets, 0u);
    EXPECT_NEAR(ticks_after(clock.estimated_server_tick(Micros(32 * 1'000'000 / 60)), 0x10u), 0.0, 0.01);
}

TEST(ClockSync, FirstUpdateJumpsThenErrorsBecomeProportionalScales) {
    ClockSync clock;
    clock.on_pong(0_ms, 0_ms);
    clock.on_server_tick(Tick{1000}, 0_s);
    ClockAdjust a = clock.update(0_s, FracTick{Tick{0}, 0.0});
    ASSERT_TRUE(a.resync);
    EXPECT_NEAR(ticks_after(a.resync_to, 1002), 0.0, 1e-9);
    EXPECT_EQ(clock.stats().initial_syncs, 1u);
    // Client 3 ticks behind: +3 % (gain 1 % per tick).
    a = clock.update(0_s, FracTick{Tick{999}, 0.0});
    EXPECT_FALSE(a.resync);
    EXPECT_NEAR(a.time_scale, 1.03, 1e-9);
    // 1.5 ticks ahead: -1.5 %.
    a = clock.update(0_s, FracTick{Tick{1003}, 0.5});
    EXPECT_NEAR(a.time_scale, 0.985, 1e-9);
    // 10 ticks behind: capped at +5 %, still no jump.
    a = clock.update(0_s, FracTick{Tick{992}, 0.0});
    EXPECT_NEAR(a.time_scale, 1.05, 1e-9);
    EXPECT_FALSE(a.resync);
    // 20 ticks off: a hard resync, counted.
    a = clock.update(0_s, FracTick{Tick{1022}, 0.0});
    EXPECT_TRUE(a.resync);
    EXPECT_EQ(clock.stats().hard_resyncs, 1u);
    EXPECT_EQ(clock.stats().initial_syncs, 1u);
}

TEST(ClockSync, InputOffsetReportsOnlyCountWhenSettled) {
    ClockSync clock;
    clock.on_pong(0_ms, 0_ms);
    clock.on_server_tick(Tick{1000}, 0_s);
    clock.on_input_offset(-3.0);  // before the first sync: ignored
    EXPECT_EQ(clock.stats().ignored_offset_reports, 1u);
    (void)clock.update(0_s, FracTick{});  // initial sync
    clock.on_input_offset(0.0);           // 2 ticks less early than wanted: lead grows by gain * 2
    EXPECT_NEAR(clock.input_offset_correction(), 0.04, 1e-12);
    (void)clock.update(0_s, FracTick{Tick{990}, 0.0});  // far from target: not settled
    clock.on_input_offset(0.0);
    EXPECT_NEAR(clock.input_offset_correction(), 0.04, 1e-12);
    clock.on_input_offset(std::nan(""));
    EXPECT_EQ(clock.stats().ignored_offset_reports, 3u);
    EXPECT_EQ(clock.stats().input_offset_reports, 1u);
}

// ---- closed loop: a client ticking at scale x 60 Hz, a server at 60 Hz, messages delayed by the latency
// ----

struct LoopResult {
    double offset_after = 0.0;   ///< server-side smoothed arrival offset at the end (ticks early)
    double max_abs_error = 0.0;  ///< largest |update error| over the last `settle_window`
    double max_scale_dev = 0.0;  ///< largest |scale - 1| over the run
    std::uint64_t missed_inputs = 0;
    ClockSyncStats stats;
    std::vector<double>
        offset_per_second;      ///< the server's smoothed arrival offset at the end of each second
    std::uint64_t resyncs = 0;  ///< jumps of the client tick after the first sync
};

struct Phase {
    Micros duration;
    Micros up;             ///< client -> server one-way latency
    Micros down;           ///< server -> client one-way latency
    double target = -1.0;  ///< if >= 0: the server asks for this input offset from the phase's start on
};

/// A deterministic model: 1 ms steps; the server runs tick k at k/60 s, snapshots every 2 ticks carry the
/// stamp, the echoed ping and the smoothed arrival offset; the client runs FixedStep-like at scale x 60 Hz,
/// sends one input per tick (with a ping time), and calls update() every 16 ms frame.
LoopResult run_loop(const std::vector<Phase>& phases, ClockSyncConfig cfg, std::uint64_t seed, Micros jitter,
                    Micros settle_window) {
    struct Msg {
        std::int64_t at;
        std::uint32_t tick;
        std::int64_t ping;  // client time of the ping (inputs) / echoed ping (snapshots)
        std::int64_t hold;
        double offset;
        bool operator>(const Msg& o) const { return at > o.at; }
    };
    std::priority_queue<Msg, std::vector<Msg>, std::greater<>> to_server, to_client;
    Rng rng(seed);
    ClockSync clock(cfg);
    LoopResult r;
    const std::uint32_t server_base = 123456;
    double client_pos = 0.0;  // client ticks (absolute), starts far behind
    double scale = 1.0;
    std::uint32_t next_client_tick = 1;
    std::uint32_t server_next = server_base;  // next tick the server will run (needs input for)
    double smoothed_offset = 0.0;
    bool have_offset = false;
    std::int64_t latest_ping = -1, latest_ping_arrival = 0;
    std::int64_t total = 0;
    for (const Phase& p : phases) total += p.duration.count;
    std::int64_t phase_end = 0;
    std::size_t phase = 0;
    phase_end = phases[0].duration.count;
    std::size_t targeted = phases.size();  // the phase whose target was last applied
    for (std::int64_t t = 0; t < total; t += 1000) {
        while (t >= phase_end && phase + 1 < phases.size()) phase_end += phases[++phase].duration.count;
        const Phase& ph = phases[phase];
        if (targeted != phase && ph.target >= 0.0) {
            EXPECT_TRUE(clock.set_target_input_offset(ph.target));
        }
        targeted = phase;
        if (t % 1'000'000 == 0) r.offset_per_second.push_back(smoothed_offset);
        auto delay = [&](Micros base) {
            return base.count +
                   (jitter.count > 0
                        ? static_cast<std::int64_t>(rng.uniform(static_cast<std::uint32_t>(jitter.count)))
                        : 0);
        };
        // Server: run every tick due by now; snapshot after every even tick.
        while (static_cast<std::int64_t>(server_next - server_base) * 1'000'000 / 60 <= t) {
            const std::uint32_t k = server_next++;
            if (k % 2 == 0) {
                to_client.push(Msg{t + delay(ph.down), k, latest_ping,
                                   latest_ping < 0 ? 0 : t - latest_ping_arrival, smoothed_offset});
            }
        }
        while (!to_server.empty() && to_server.top().at <= t) {
            const Msg m = to_server.top();
            to_server.pop();
            // Like InputJitterBuffer: each sample clamped, so pre-sync garbage cannot dominate the average.
            const double early =
                std::clamp(static_cast<double>(static_cast<std::int32_t>(m.tick - server_next)), -30.0, 30.0);
            smoothed_offset = have_offset ? smoothed_offset + 0.1 * (early - smoothed_offset) : early;
            have_offset = true;
            if (early < 0) ++r.missed_inputs;
            if (m.ping > latest_ping) latest_ping = m.ping, latest_ping_arrival = t;
        }
        while (!to_client.empty() && to_client.top().at <= t) {
            const Msg m = to_client.top();
            to_client.pop();
            clock.on_server_tick(Tick{m.tick}, Micros{t});
            if (m.ping >= 0) clock.on_pong(Micros{m.ping}, Micros{t}, Micros{m.hold});
            if (have_offset) clock.on_input_offset(m.offset);
        }
        // Client: advance, send one input per whole tick crossed.
        client_pos += scale * 60.0 / 1000.0;
        while (static_cast<double>(next_client_tick) <= client_pos) {
            to_server.push(Msg{t + delay(ph.up), next_client_tick++, t, 0, 0.0});
        }
        if (t % 16000 == 0) {
            const FracTick now_tick = FracTick::at(Tick{0}, client_pos);
            const ClockAdjust a = clock.update(Micros{t}, now_tick);
            if (a.resync) {
                ++r.resyncs;
                client_pos = static_cast<double>(a.resync_to.tick.value) + a.resync_to.fraction;
                next_client_tick = a.resync_to.tick.value + 1;
                scale = 1.0;
            } else {
                scale = a.time_scale;
            }
            r.max_scale_dev = std::max(r.max_scale_dev, std::abs(scale - 1.0));
            if (t >= total - settle_window.count && clock.stats().initial_syncs > 0)
                r.max_abs_error = std::max(r.max_abs_error, std::abs(a.error_ticks));
        }
    }
    r.offset_after = smoothed_offset;
    r.stats = clock.stats();
    return r;
}

TEST(ClockSyncLoop, ConvergesFromColdStart) {
    const LoopResult r = run_loop({{10_s, 50_ms, 50_ms}}, {}, 1, 0_ms, 3_s);
    EXPECT_EQ(r.stats.initial_syncs, 1u);
    EXPECT_EQ(r.stats.hard_resyncs, 0u);
    EXPECT_LT(r.max_abs_error, 0.5);
    EXPECT_NEAR(r.offset_after, 2.0, 0.75);  // inputs arrive about 2 ticks early, as the server wants
    EXPECT_LE(r.max_scale_dev, 0.05 + 1e-12);
}

TEST(ClockSyncLoop, LatencyStepFrom20To150MsConvergesWithoutHardResync) {
    std::vector<Phase> phases{{10_s, 20_ms, 20_ms}, {20_s, 150_ms, 150_ms}};
    const LoopResult r = run_loop(phases, {}, 2, 0_ms, 3_s);
    EXPECT_EQ(r.stats.initial_syncs, 1u);
    EXPECT_EQ(r.stats.hard_resyncs, 0u);
    EXPECT_LT(r.max_abs_error, 0.5);
    EXPECT_NEAR(r.offset_after, 2.0, 0.75);
    // The catch-up went through the time scale, at most 5 % and visibly more than 1 %.
    EXPECT_LE(r.max_scale_dev, 0.05 + 1e-12);
    EXPECT_GT(r.max_scale_dev, 0.01);
}

TEST(ClockSyncLoop, LatencyStepBeyondTheThresholdResyncsHard) {
    // 20 ms -> 400 ms one-way: the lead must grow by ~23 ticks, beyond hard_resync_ticks (16).
    std::vector<Phase> phases{{10_s, 20_ms, 20_ms}, {10_s, 400_ms, 400_ms}};
    const LoopResult r = run_loop(phases, {}, 3, 0_ms, 2_s);
    EXPECT_GE(r.stats.hard_resyncs, 1u);
    EXPECT_NEAR(r.offset_after, 2.0, 0.75);
}

TEST(ClockSyncLoop, ConvergesUnderJitterAndAsymmetry) {
    for (std::uint64_t seed : {11u, 12u, 13u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        const LoopResult r = run_loop({{20_s, 90_ms, 30_ms}}, {}, seed, 20_ms, 5_s);
        EXPECT_EQ(r.stats.hard_resyncs, 0u);
        EXPECT_NEAR(r.offset_after, 2.0, 1.0);
        EXPECT_LE(r.max_scale_dev, 0.05 + 1e-12);
    }
}

TEST(ClockSyncLoop, ServerReportedOffsetCorrectsABiasedLead) {
    // No safety margin in the open-loop lead: only the reported arrival offset can bring inputs 2 ticks
    // early.
    ClockSyncConfig cfg;
    cfg.safety_margin_ticks = 0.0;
    const LoopResult r = run_loop({{40_s, 60_ms, 60_ms}}, cfg, 4, 0_ms, 3_s);
    EXPECT_EQ(r.stats.hard_resyncs, 0u);
    EXPECT_GT(r.stats.input_offset_reports, 100u);
    EXPECT_NEAR(r.offset_after, 2.0, 0.75);
}

TEST(ClockSyncLoop, ATargetChangeIsReachedByTimeScaleNudgingNotByAJump) {
    // The server's input buffer tuner deepens the buffer from 2 to 8 ticks, then drops it to 1: the client
    // must follow by running faster, then slower, within a few seconds each way, never by jumping its tick.
    std::vector<Phase> phases{
        {10_s, 50_ms, 50_ms, 2.0}, {12_s, 50_ms, 50_ms, 8.0}, {12_s, 50_ms, 50_ms, 1.0}};
    const LoopResult r = run_loop(phases, {}, 5, 0_ms, 2_s);
    std::string trace;
    for (double o : r.offset_per_second) trace += std::to_string(o).substr(0, 4) + " ";
    SCOPED_TRACE(trace);
    std::printf("offset per second: %s\n", trace.c_str());
    EXPECT_EQ(r.stats.initial_syncs, 1u);
    EXPECT_EQ(r.stats.hard_resyncs, 0u);
    EXPECT_EQ(r.resyncs, 1u);  // the initial sync only
    EXPECT_LE(r.max_scale_dev, 0.05 + 1e-12);
    ASSERT_EQ(r.offset_per_second.size(), 34u);
    // offset_per_second[i] is the offset at i seconds: up within 6 s of the change at 10 s, down within 6 s
    // of the change at 22 s, and each then holds.
    for (std::size_t i = 16; i <= 22; ++i) EXPECT_NEAR(r.offset_per_second[i], 8.0, 0.75) << "second " << i;
    for (std::size_t i = 28; i < 34; ++i) EXPECT_NEAR(r.offset_per_second[i], 1.0, 0.75) << "second " << i;
    EXPECT_NEAR(r.offset_after, 1.0, 0.75);
}

TEST(ClockSync, SetTargetInputOffsetRejectsOutOfRangeValues) {
    ClockSync clock;
    EXPECT_FALSE(clock.set_target_input_offset(-1.0));
    EXPECT_FALSE(clock.set_target_input_offset(17.0));
    EXPECT_FALSE(clock.set_target_input_offset(std::nan("")));
    EXPECT_TRUE(clock.set_target_input_offset(8.0));
    EXPECT_EQ(clock.config().target_input_offset_ticks, 8.0);
}

}  // namespace
}  // namespace rwd::sync
