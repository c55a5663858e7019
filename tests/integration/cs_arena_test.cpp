/// Client-server sessions on the arena over SimNetwork: bots on the checklist profile, straight lines, no
/// ghosts.
#include "unit/session/client_server/toy_harness.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>
#include <arena/bot_view.hpp>

#include <rewind/transport/link_config.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

using arena::ArenaGame;
using rwd::Micros;
namespace cs = rwd::client_server;
using ArenaMatch = toy::Match<ArenaGame>;

rwd::transport::LinkConfig checklist() { return rwd::transport::link_profile("checklist").value(); }

TEST(CsArena, EightBotsOnTheChecklistProfile) {
    const std::uint64_t seed = 4242;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    ArenaMatch m(seed, checklist(), {}, arena::new_match(seed));
    std::vector<arena::Bot> bots;
    for (int i = 0; i < 8; ++i) {
        m.connect_client();
        bots.emplace_back(seed * 100 + static_cast<std::uint64_t>(i));
    }
    ASSERT_TRUE(m.run_until_playing(Micros{10'000'000}));
    m.run(Micros{30'000'000}, [&] {
        if (m.now.count % 16'000 != 0) return;  // bots think about once a tick
        for (int i = 0; i < 8; ++i)
            m.client(i).set_input(
                bots[static_cast<std::size_t>(i)].think(arena::bot_view_of(m.client(i), m.now)));
    });
    std::uint64_t corrections = 0, reconciliations = 0, snaps = 0, out_of_order = 0;
    std::vector<double> errors;
    for (int i = 0; i < 8; ++i) {
        auto& c = m.client(i);
        EXPECT_EQ(c.phase(), cs::ClientPhase::playing);
        corrections += c.stats().corrections;
        reconciliations += c.stats().reconciliations;
        snaps += c.stats().snaps;
        out_of_order += c.stats().events_out_of_order;
        for (const auto& r : c.corrections()) errors.push_back(r.error_m);
    }
    std::sort(errors.begin(), errors.end());
    const double median = errors.empty() ? 0.0 : errors[errors.size() / 2];
    const double p95 = errors.empty() ? 0.0 : errors[errors.size() * 95 / 100];
    std::uint64_t repeated = 0, applied = 0, shots = 0;
    std::size_t max_snapshot = 0;
    for (int s = 0; s < 8; ++s) {
        repeated += m.server->client_stats(s).inputs_repeated;
        applied += m.server->client_stats(s).inputs_applied;
        shots += m.server->client_stats(s).shots;
        max_snapshot = std::max(max_snapshot, m.server->client_stats(s).max_snapshot_bytes);
    }
    std::printf(
        "[ measured ] 8 bots, checklist, 30 s: %llu corrections in %llu reconciliations (%.3f/s per client), "
        "%llu snaps, error median %.4f m p95 %.4f m; inputs %llu applied %llu repeated; %llu shots; "
        "max snapshot %zu B; client kbps down %.1f up %.1f\n",
        static_cast<unsigned long long>(corrections), static_cast<unsigned long long>(reconciliations),
        static_cast<double>(corrections) / 8.0 / 30.0, static_cast<unsigned long long>(snaps), median, p95,
        static_cast<unsigned long long>(applied), static_cast<unsigned long long>(repeated),
        static_cast<unsigned long long>(shots), max_snapshot, m.client(0).stats().kbps_received,
        m.client(0).stats().kbps_sent);
    EXPECT_EQ(out_of_order, 0u);
    EXPECT_GT(reconciliations, 8u * 25u * 30u / 2u);
    EXPECT_LT(static_cast<double>(repeated), 0.05 * static_cast<double>(applied));
    EXPECT_GT(shots, 0u);
    EXPECT_EQ(m.server->stats().malformed, 0u);
}

TEST(CsArena, DrawnOwnPlayerNeverJumps) {
    // Eight bots bump into each other on the checklist profile, so their predictions get corrected; the drawn
    // own player must stay continuous: between two frames it moves at most as far as the player can move in
    // the ticks run (top speed plus a push) plus one frame's decay of the largest smoothable offset.
    const std::uint64_t seed = 4243;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    ArenaMatch m(seed, checklist(), {}, arena::new_match(seed));
    const int n = 8;
    std::vector<arena::Bot> bots;
    for (int i = 0; i < n; ++i) {
        m.connect_client();
        bots.emplace_back(seed * 100 + static_cast<std::uint64_t>(i));
    }
    ASSERT_TRUE(m.run_until_playing(Micros{10'000'000}));
    const cs::ClientConfig cc = m.client_config;
    const Micros frame{7'000};  // ~144 fps, never aligned with the 60 Hz ticks
    const double decay_share =
        cc.snap_distance_m * (1.0 - std::exp(-frame.seconds() / cc.smoothing_time.seconds()));
    const double per_tick_m =
        static_cast<double>(arena::kMaxSpeed + arena::kMaxPush) * ArenaGame::kMetersPerUnit;
    const double rounding_m = 2.0 * ArenaGame::kMetersPerUnit;
    struct Seen {
        bool has = false;
        arena::EntitySnapshot drawn{};
        bool alive = false;
        rwd::Tick tick{};
        std::uint64_t snaps = 0;
        std::uint64_t resyncs = 0;
        arena::State predicted{};  // the client's prediction at the end of the frame
        arena::Input input{};      // the input its next ticks use
    };
    // The prediction's own motion over `ticks`: re-run from the last frame's predicted world without the
    // reconciliation that update() may have done in between (own input, everyone else neutral, like the
    // client).
    auto own_motion = [](const Seen& s, int slot, int ticks) {
        arena::State w = s.predicted;
        std::array<arena::Input, arena::kMaxPlayers> in{};
        in[static_cast<std::size_t>(slot)] = s.input;
        for (int t = 0; t < ticks; ++t) ArenaGame::step(w, in, nullptr);
        const auto& before = s.predicted.players[static_cast<std::size_t>(slot)];
        const auto& after = w.players[static_cast<std::size_t>(slot)];
        return std::array<double, 2>{static_cast<double>(after.x - before.x),
                                     static_cast<double>(after.y - before.y)};
    };
    std::vector<Seen> seen(static_cast<std::size_t>(n));
    double worst_excess_m = -1.0, worst_step_m = 0.0, worst_beyond_motion_m = 0.0;
    std::uint64_t frames = 0, frames_with_correction = 0;
    std::vector<std::uint64_t> corrections_before(static_cast<std::size_t>(n));
    int frame_no = 0;
    m.run(
        Micros{20'000'000},
        [&] {
            const bool think = frame_no++ % 2 == 0;
            for (int i = 0; i < n; ++i) {
                auto& c = m.client(i);
                auto& s = seen[static_cast<std::size_t>(i)];
                const arena::Input next =
                    think ? bots[static_cast<std::size_t>(i)].think(arena::bot_view_of(c, m.now)) : s.input;
                const auto drawn = c.smoothed_own_entity();
                if (!drawn || c.phase() != cs::ClientPhase::playing) {
                    s.has = false;
                    continue;
                }
                const bool alive = (drawn->flags & arena::kAlive) != 0;
                // Excluded by design: snaps (a correction too large to hide), clock resyncs and
                // deaths/respawns.
                if (s.has && s.snaps == c.stats().snaps && s.resyncs == c.stats().hard_resyncs && alive &&
                    s.alive) {
                    const double step = std::hypot(static_cast<double>(drawn->x - s.drawn.x),
                                                   static_cast<double>(drawn->y - s.drawn.y)) *
                                        ArenaGame::kMetersPerUnit;
                    const double ticks = static_cast<double>(c.tick() - s.tick);
                    const double bound = ticks * per_tick_m + decay_share + rounding_m;
                    worst_excess_m = std::max(worst_excess_m, step - bound);
                    worst_step_m = std::max(worst_step_m, step);
                    ++frames;
                    if (c.stats().corrections != corrections_before[static_cast<std::size_t>(i)])
                        ++frames_with_correction;
                    EXPECT_LE(step, bound)
                        << "client " << i << " at " << m.now.count << " us, " << ticks << " ticks";
                    // Beyond its own motion, the drawn player moves only by the offset's decay (the lab's
                    // figure).
                    const auto motion = own_motion(s, c.slot(), static_cast<int>(ticks));
                    if (std::hypot(motion[0], motion[1]) < arena::kUnitsPerMeter) {  // not a respawn
                        const double beyond =
                            std::hypot(static_cast<double>(drawn->x - s.drawn.x) - motion[0],
                                       static_cast<double>(drawn->y - s.drawn.y) - motion[1]) *
                            ArenaGame::kMetersPerUnit;
                        worst_beyond_motion_m = std::max(worst_beyond_motion_m, beyond);
                        EXPECT_LE(beyond, decay_share + rounding_m)
                            << "client " << i << " at " << m.now.count << " us";
                    }
                }
                corrections_before[static_cast<std::size_t>(i)] = c.stats().corrections;
                c.set_input(next);
                s = Seen{true,
                         *drawn,
                         alive,
                         c.tick(),
                         c.stats().snaps,
                         c.stats().hard_resyncs,
                         c.predicted_state(),
                         next};
            }
        },
        frame);
    std::uint64_t corrections = 0, snaps = 0;
    double largest_smoothed_m = 0.0;
    for (int i = 0; i < n; ++i) {
        corrections += m.client(i).stats().corrections;
        snaps += m.client(i).stats().snaps;
        for (const auto& r : m.client(i).corrections())
            if (!r.snapped) largest_smoothed_m = std::max(largest_smoothed_m, r.error_m);
    }
    std::printf(
        "[ measured ] 8 bots, checklist, 20 s at 144 fps: %llu frames, %llu with a correction (%llu "
        "corrections, %llu snaps, largest smoothed %.3f m); largest drawn step %.3f m, worst margin %.4f m; "
        "largest move beyond the prediction's own motion %.3f m (allowed %.3f m)\n",
        static_cast<unsigned long long>(frames), static_cast<unsigned long long>(frames_with_correction),
        static_cast<unsigned long long>(corrections), static_cast<unsigned long long>(snaps),
        largest_smoothed_m, worst_step_m, -worst_excess_m, worst_beyond_motion_m, decay_share + rounding_m);
    EXPECT_GT(frames, 8u * 1500u);
    EXPECT_GT(frames_with_correction, 50u);  // the run really exercised the smoothing
}

TEST(CsArena, StraightLineHasZeroCorrections) {
    const std::uint64_t seed = 77;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    ArenaMatch m(seed, checklist(), {}, arena::new_match(seed));
    m.connect_client();
    m.connect_client();  // an idle second player far away
    ASSERT_TRUE(m.run_until_playing(Micros{10'000'000}));
    arena::Input in;
    in.move_x = 90;
    in.move_y = 40;
    m.client(0).set_input(in);
    m.run(Micros{15'000'000});
    const auto& st = m.client(0).stats();
    std::printf(
        "[ measured ] arena straight line, checklist, 15 s: %llu corrections in %llu reconciliations\n",
        static_cast<unsigned long long>(st.corrections), static_cast<unsigned long long>(st.reconciliations));
    EXPECT_GT(st.reconciliations, 300u);
    EXPECT_EQ(st.corrections, 0u);
}

TEST(CsArena, DisconnectedPlayerLeavesNoGhost) {
    const std::uint64_t seed = 78;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    ArenaMatch m(seed, checklist(), {}, arena::new_match(seed));
    m.connect_client();
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing(Micros{10'000'000}));
    arena::Input in;
    in.move_x = 127;
    in.buttons = arena::kAltFire;  // leave projectiles in flight
    m.client(0).set_input(in);
    m.run(Micros{2'000'000});
    const int gone = m.client(0).slot();
    m.client(0).disconnect(m.now);
    m.run(Micros{3'000'000});
    EXPECT_FALSE(m.server->seated(gone));
    EXPECT_FALSE(m.server->state().players[static_cast<std::size_t>(gone)].present());
    for (const auto& p : m.server->state().projectiles[static_cast<std::size_t>(gone)])
        EXPECT_EQ(p.ttl, 0) << "projectile ghost";
    for (const auto& e : m.client(1).render_entities(m.now)) {
        EXPECT_NE(e.id, ArenaGame::player_entity(gone));
        if (e.snap.kind == arena::EntityKind::kProjectile) {
            EXPECT_NE(e.snap.owner, gone);
        }
    }
}

}  // namespace
