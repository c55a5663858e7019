/// Server<ToyGame>/Client<ToyGame>: interpolation cap, clock sync after a latency step, lag compensation cap.
#include "toy_harness.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <optional>

namespace {

using namespace toy;
using rwd::Micros;
namespace cs = rwd::client_server;

std::optional<ToyGame::EntitySnapshot> rendered(cs::Client<ToyGame>& c, std::uint32_t id, Micros now) {
    for (const auto& e : c.render_entities(now))
        if (e.id == id) return e.snap;
    return std::nullopt;
}

TEST(CsSync, InterpolationNeverExtrapolatesPastTheCap) {
    const std::uint64_t seed = 21;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(40, 5));
    const int viewer = m.connect_client();
    const int mover = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.client(mover).set_input(move(100, 0));
    m.run(Micros{2'000'000});
    const std::uint32_t id = ToyGame::player_entity(m.client(mover).slot());
    const auto before = m.client(viewer).stats().interp_starvations;

    // 600 ms without snapshots to the viewer: it must extrapolate at most 2 ticks, then hold still.
    auto dead = link(40, 5);
    dead.loss = 1.0;
    ASSERT_TRUE(m.net->set_link(m.server_addr, m.client_addrs[static_cast<std::size_t>(viewer)], dead).ok());
    std::vector<std::int32_t> xs;
    m.run(Micros{600'000}, [&] {
        if (auto e = rendered(m.client(viewer), id, m.now)) xs.push_back(e->x);
    });
    ASSERT_TRUE(
        m.net->set_link(m.server_addr, m.client_addrs[static_cast<std::size_t>(viewer)], link(40, 5)).ok());
    const auto& st = m.client(viewer).stats();
    EXPECT_GT(st.interp_starvations, before);
    EXPECT_GT(st.held_frames, 0u);
    EXPECT_LE(st.max_extrapolation_seen_ticks, 2.0 + 1e-9);
    ASSERT_GT(xs.size(), 400u);
    // The last 300 frames of the outage all hold the same position.
    for (std::size_t i = xs.size() - 300; i < xs.size(); ++i) EXPECT_EQ(xs[i], xs.back()) << "frame " << i;
    // The held position is at most 2 ticks of motion past where the stream ended (the fastest
    // frame-to-frame).
    m.run(Micros{1'000'000});
    EXPECT_EQ(m.client(viewer).phase(), cs::ClientPhase::playing);
}

TEST(CsSync, ClockSyncConvergesAfterLatencyStep) {
    const std::uint64_t seed = 22;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(20, 2));
    m.connect_client();
    m.client(0).set_input(move(50, 0));
    ASSERT_TRUE(m.run_until_playing());
    m.run(Micros{8'000'000});
    const double lead_before = m.client(0).stats().lead_ticks;
    const double offset_before = m.server->client_stats(0).arrival_offset_ticks;
    // Inputs arrive as early as the server's (adaptive) jitter buffer asks: its target for this client.
    const int target_before = m.server->client_stats(0).input_buffer_target;
    EXPECT_EQ(m.client(0).stats().server_input_buffer_target, target_before);
    EXPECT_NEAR(offset_before, target_before, 1.0);

    m.set_link(0, link(150, 2));
    m.run(Micros{15'000'000});
    const auto& st = m.client(0).stats();
    const double lead_after = st.lead_ticks;
    const double offset_after = m.server->client_stats(0).arrival_offset_ticks;
    std::printf(
        "[ measured ] lead %.2f -> %.2f ticks, arrival offset %.2f -> %.2f ticks, rtt %.1f ms, hard resyncs "
        "%llu\n",
        lead_before, lead_after, offset_before, offset_after, st.rtt.millis(),
        static_cast<unsigned long long>(st.hard_resyncs));
    // One way grew by 130 ms = 7.8 ticks: the lead follows, inputs arrive at the target again (the link's
    // spread did not change, nor does the target).
    const int target_after = m.server->client_stats(0).input_buffer_target;
    EXPECT_EQ(target_after, target_before);
    EXPECT_NEAR(lead_after - lead_before, 7.8, 2.0);
    EXPECT_NEAR(offset_after, target_after, 1.0);
    EXPECT_LE(st.hard_resyncs, 1u);
    EXPECT_NEAR(st.rtt.millis(), 300.0, 20.0);
}

TEST(CsSync, AJitteryLinkIsNotPlayedOnTheMinimumBufferWhileItsSpreadIsUnmeasured) {
    // In a client's first second of play the server has too few arrivals to measure their spread; the
    // target then comes from the transport's RTT deviation: deeper than the minimum on a jittery link, the
    // minimum on a quiet one. The client is told and aims there.
    for (const int jitter_ms : {20, 0}) {
        const std::uint64_t seed = 41 + static_cast<std::uint64_t>(jitter_ms);
        SCOPED_TRACE("seed=" + std::to_string(seed) + " jitter=" + std::to_string(jitter_ms));
        Match<> m(seed, link(100, jitter_ms));
        m.connect_client();
        m.client(0).set_input(move(50, 0));
        ASSERT_TRUE(m.run_until_playing());
        m.run(Micros{500'000});
        const int target = m.server->client_stats(0).input_buffer_target;
        if (jitter_ms > 0)
            EXPECT_GE(target, 2);
        else
            EXPECT_EQ(target, 1);
        m.run(Micros{300'000});  // one snapshot round trip and more: the client follows
        EXPECT_EQ(m.client(0).stats().server_input_buffer_target,
                  m.server->client_stats(0).input_buffer_target);
    }
}

TEST(CsSync, ClientAdoptsTheServersInputBufferTarget) {
    // The client is left at its default target (2 ticks); the server's jitter buffer wants 3 or 1. The accept
    // tells the client, and its inputs settle that early on the server.
    for (const int target : {3, 1}) {
        const std::uint64_t seed = 25 + static_cast<std::uint64_t>(target);
        SCOPED_TRACE("seed=" + std::to_string(seed) + " target=" + std::to_string(target));
        cs::ServerConfig sc;
        sc.adaptive_input_buffer = false;  // the fixed target this test is about
        sc.input_buffer_target = target;
        Match<> m(seed, link(40, 2), sc);
        ASSERT_EQ(m.client_config.clock_sync.target_input_offset_ticks, 2.0);
        m.connect_client();
        m.client(0).set_input(move(50, 0));
        ASSERT_TRUE(m.run_until_playing());
        m.run(Micros{10'000'000});
        double sum = 0.0;
        int samples = 0;
        m.run(Micros{5'000'000}, [&] {
            if (m.now.count % 100'000 != 0) return;
            sum += m.server->client_stats(0).arrival_offset_ticks;
            ++samples;
        });
        const double mean = sum / samples;
        std::printf(
            "[ measured ] server target %d: client aims at %.1f, inputs arrive %.2f ticks early (mean of "
            "%d)\n",
            target, m.client(0).clock().config().target_input_offset_ticks, mean, samples);
        EXPECT_EQ(m.client(0).clock().config().target_input_offset_ticks, static_cast<double>(target));
        EXPECT_NEAR(mean, static_cast<double>(target), 0.5);
        EXPECT_NEAR(m.client(0).stats().server_input_offset_ticks, static_cast<double>(target), 0.75);
    }
}

/// The target runs up and down across the shooter's row; the shooter fires whenever its screen shows the
/// target on the row. Returns (shots, hits, rewind-clamped shots) as the server counted them.
struct ShotResult {
    std::int64_t shots = 0, hits = 0;
    std::uint64_t clamped = 0;
};

ShotResult duel(std::uint64_t seed, int one_way_ms) {
    Match<> m(seed, link(one_way_ms));
    const int shooter = m.connect_client();
    const int target = m.connect_client();
    EXPECT_TRUE(m.run_until_playing());
    auto& sc = m.client(shooter);
    auto& tc = m.client(target);
    // The target walks right, away from the shooter, then oscillates vertically.
    tc.set_input(move(100, 0));
    m.run(Micros{1'000'000});
    const std::uint32_t tid = ToyGame::player_entity(tc.slot());
    const auto s0 = m.server->state().players[static_cast<std::size_t>(sc.slot())];
    const auto t0 = m.server->state().players[static_cast<std::size_t>(tc.slot())];
    int dir = 1;
    rwd::Tick fired_at{};
    bool firing = false;
    m.run(Micros{20'000'000}, [&] {
        if (auto own = tc.own_entity()) {
            if (own->y > 700) dir = -1;
            if (own->y < -700) dir = 1;
        }
        tc.set_input(move(0, 100 * dir));
        if (firing && sc.tick() != fired_at) {
            firing = false;
            sc.set_input(move(0, 0));
        }
        const auto seen = rendered(sc, tid, m.now);
        const auto self = sc.own_entity();
        if (!firing && seen && self && seen->x > self->x && std::abs(seen->y - self->y) <= 30 &&
            self->cooldown == 0) {
            sc.set_input(move(0, 0, true));
            fired_at = sc.tick();
            firing = true;
        }
    });
    const auto& s1 = m.server->state().players[static_cast<std::size_t>(sc.slot())];
    (void)t0;
    return ShotResult{s1.shots - s0.shots, s1.hits_scored - s0.hits_scored,
                      m.server->client_stats(sc.slot()).shots_rewind_clamped};
}

TEST(CsSync, ShotOnScreenRegistersWithinTheRewindCapButNotBeyond) {
    const std::uint64_t seed = 23;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const ShotResult near = duel(seed, 30);
    const ShotResult far = duel(seed, 160);
    std::printf(
        "[ measured ] 30 ms one way: %lld/%lld shots registered (%llu clamped); 160 ms: %lld/%lld (%llu "
        "clamped)\n",
        static_cast<long long>(near.hits), static_cast<long long>(near.shots),
        static_cast<unsigned long long>(near.clamped), static_cast<long long>(far.hits),
        static_cast<long long>(far.shots), static_cast<unsigned long long>(far.clamped));
    ASSERT_GT(near.shots, 20);
    ASSERT_GT(far.shots, 20);
    EXPECT_EQ(near.clamped, 0u);
    EXPECT_GE(static_cast<double>(near.hits), 0.95 * static_cast<double>(near.shots));
    EXPECT_EQ(far.clamped, static_cast<std::uint64_t>(far.shots));
    EXPECT_LE(static_cast<double>(far.hits), 0.3 * static_cast<double>(far.shots));
}

}  // namespace

namespace {

// One client playing and running east for a second on a clean link: nothing to correct yet.
void run_one_uncorrected(Match<>& m) {
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.client(0).set_input(move(100, 0));
    m.run(Micros{1'000'000});
    ASSERT_EQ(m.client(0).stats().corrections, 0u);
}

TEST(CsSync, TheCorrectionLogKeepsTheNewestAndCountsEveryOne) {
    const std::uint64_t seed = 25;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(50, 0));
    m.client_config.correction_log_size = 3;
    ASSERT_NO_FATAL_FAILURE(run_one_uncorrected(m));
    auto& c = m.client(0);
    // Five nudges of 1..5 cm, each corrected on its own.
    for (int k = 1; k <= 5; ++k) {
        m.server->state().players[static_cast<std::size_t>(c.slot())].y += 10 * k;
        m.run(Micros{300'000});
    }
    ASSERT_GE(c.stats().corrections, 5u);
    ASSERT_EQ(c.corrections().size(), 3u);
    EXPECT_NEAR(c.corrections().back().error_m, 0.05, 0.001);  // the newest kept
    EXPECT_LT(c.corrections().front().tick.value, c.corrections().back().tick.value);
}

TEST(CsSync, SmallCorrectionsAreSmoothedLargeOnesSnap) {
    const std::uint64_t seed = 24;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(50, 0));
    ASSERT_NO_FATAL_FAILURE(run_one_uncorrected(m));
    auto& c = m.client(0);

    // The server nudges the player 50 units (5 cm): a small correction, drawn smoothly.
    m.server->state().players[static_cast<std::size_t>(c.slot())].y += 50;
    const auto before = c.stats().corrections;
    int smoothed_frames = 0;
    m.run(Micros{300'000}, [&] {
        if (c.stats().corrections > before && c.smoother().magnitude() > 0.5 * 0.05) {
            ++smoothed_frames;
            const auto drawn = c.smoothed_own_entity();
            const auto exact = c.own_entity();
            ASSERT_TRUE(drawn && exact);
            EXPECT_NE(drawn->y, exact->y);  // still showing part of the old position
        }
    });
    ASSERT_GT(c.stats().corrections, before);
    EXPECT_GT(smoothed_frames, 20);  // about 70 ms of frames with more than half the offset showing
    EXPECT_EQ(c.stats().snaps, 0u);
    EXPECT_NEAR(c.corrections().back().error_m, 0.05, 0.001);
    m.run(Micros{1'000'000});
    EXPECT_EQ(c.smoother().magnitude(), 0.0);
    EXPECT_EQ(c.smoothed_own_entity()->y, c.own_entity()->y);

    // A 5 m teleport is too large to hide: it snaps.
    m.server->state().players[static_cast<std::size_t>(c.slot())].y += 5000;
    m.run(Micros{500'000});
    EXPECT_EQ(c.stats().snaps, 1u);
    EXPECT_GT(c.stats().max_error_m, 4.9);
}

TEST(CsSync, ACorrectionIsHiddenWithTheTicksOfItsFrame) {
    // The server moves the player against the bound: from then on the corrected prediction stands still
    // there. In the frame that brings the correction, the drawn player must go on exactly as the old
    // prediction went (its ticks run before the reconciliation), the smoothing hiding the rest; reconciled
    // first, it would stop dead for that frame.
    const std::uint64_t seed = 25;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(50, 0));
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    auto& c = m.client(0);
    const auto slot = static_cast<std::size_t>(c.slot());
    c.set_input(move(ToyGame::kAxisMax, 0));  // kSpeed units a tick to the right
    m.server->state().players[slot].x = ToyGame::kBound - 5000;
    const Micros tick{16'667};
    m.run(Micros{1'000'000}, {}, tick);  // settled after that jump, a few ticks from the bound
    ASSERT_LT(m.server->state().players[slot].x, ToyGame::kBound - 600);
    while (m.server->state().players[slot].x < ToyGame::kBound - 600) m.run(tick, {}, tick);
    m.server->state().players[slot].x += 500;  // now at most 100 units from the bound

    bool checked = false;
    for (int frame = 0; frame < 60 && !checked; ++frame) {
        const auto drawn_before = c.smoothed_own_entity();
        const auto corrections = c.stats().corrections;
        const rwd::Tick ticks_before = c.tick();
        m.run(tick, {}, tick);
        const int ran = c.tick() - ticks_before;
        if (c.stats().corrections == corrections) continue;
        ASSERT_EQ(c.stats().snaps, 1u);  // the first jump only
        ASSERT_GT(ran, 0) << "no tick in the correction's frame: the test shows nothing";
        const auto drawn_after = c.smoothed_own_entity();
        ASSERT_TRUE(drawn_before && drawn_after);
        EXPECT_EQ(drawn_after->x - drawn_before->x, ran * ToyGame::kSpeed);
        EXPECT_GT(c.own_entity()->x - drawn_after->x, 0)
            << "the corrected prediction is ahead of the drawn player";
        checked = true;
    }
    EXPECT_TRUE(checked);
}

TEST(CsSync, ConfigsValidate) {
    EXPECT_TRUE(cs::ServerConfig{}.validate().ok());
    EXPECT_TRUE(cs::ClientConfig{}.validate().ok());
    cs::ServerConfig s;
    s.snapshot_rate_hz = 5;
    EXPECT_EQ(s.validate().code(), rwd::Errc::invalid_config);
    s = {};
    s.snapshot_rate_hz = 61;
    EXPECT_FALSE(s.validate().ok());
    s = {};
    s.max_rewind_ms = 2000;
    EXPECT_FALSE(s.validate().ok());
    cs::ClientConfig c;
    c.max_extrapolation_ticks = 11;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.clock_sync.max_adjust = 0.5;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.snap_distance_m = 0.0;  // the correction smoother needs a positive snap distance
    EXPECT_FALSE(c.validate().ok());
}

TEST(CsSync, RewindCapMustFitTheHitboxHistory) {
    // 64 ticks of history, less the two the interpolation pair at the cap needs: 62 ticks.
    cs::ServerConfig s;
    s.rewind_limit = cs::RewindLimitMode::fixed_cap;  // the one cap for everyone
    s.tick_rate_hz = 60;
    s.max_rewind_ms = 1000;  // 60 ticks
    EXPECT_TRUE(s.validate().ok());
    s.tick_rate_hz = 120;
    s.max_rewind_ms = 500;  // 60 ticks
    EXPECT_TRUE(s.validate().ok());
    s.max_rewind_ms = 600;  // 72 ticks: within 0..1000 but beyond the history
    EXPECT_EQ(s.validate().code(), rwd::Errc::invalid_config);
    s.tick_rate_hz = 1000;
    s.snapshot_rate_hz = 60;
    s.max_rewind_ms = 62;
    EXPECT_TRUE(s.validate().ok());
    s.max_rewind_ms = 250;  // the default cap does not fit at 1000 Hz
    EXPECT_FALSE(s.validate().ok());
}

TEST(CsSync, ClientSnapDistanceAndInterpolationDelayAreChecked) {
    cs::ClientConfig c;
    for (const double bad : {0.0, -1.0, std::nan("")}) {
        c.snap_distance_m = bad;
        EXPECT_EQ(c.validate().code(), rwd::Errc::invalid_config) << bad;
    }
    c = {};
    c.snap_distance_m = 0.01;
    EXPECT_TRUE(c.validate().ok());
    // Under one snapshot interval there is nothing to interpolate toward: refused rather than silently
    // raised.
    for (const double bad : {0.0, 0.5, 0.999, 10.5, std::nan("")}) {
        c.interp_delay_snapshots = bad;
        EXPECT_EQ(c.validate().code(), rwd::Errc::invalid_config) << bad;
    }
    for (const double good : {1.0, 2.0, 10.0}) {
        c.interp_delay_snapshots = good;
        EXPECT_TRUE(c.validate().ok()) << good;
    }
}

}  // namespace
