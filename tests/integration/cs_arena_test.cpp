/// Client-server sessions on the arena over SimNetwork: bots on the checklist profile, straight lines, no ghosts.
#include "unit/session/client_server/toy_harness.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>

#include <rewind/transport/link_config.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

using arena::ArenaGame;
using rwd::Micros;
namespace cs = rwd::client_server;
using ArenaMatch = toy::Match<ArenaGame>;

rwd::transport::LinkConfig checklist() { return rwd::transport::link_profile("checklist").value(); }

/// What a bot on a client sees: its predicted self and everyone else as rendered.
arena::BotView view_of(cs::Client<ArenaGame>& c, Micros now) {
    arena::BotView v;
    v.self_slot = c.slot();
    v.self = c.predicted_state().players[static_cast<std::size_t>(c.slot())];
    for (const auto& e : c.render_entities(now)) {
        if (e.snap.kind != arena::EntityKind::kPlayer || e.id >= static_cast<std::uint32_t>(arena::kMaxPlayers)) continue;
        auto& o = v.others[e.id];
        o.visible = true;
        o.alive = (e.snap.flags & arena::kAlive) != 0;
        o.x = e.snap.x;
        o.y = e.snap.y;
    }
    return v;
}

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
        for (int i = 0; i < 8; ++i) m.client(i).set_input(bots[static_cast<std::size_t>(i)].think(view_of(m.client(i), m.now)));
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
    std::printf("[ measured ] 8 bots, checklist, 30 s: %llu corrections in %llu reconciliations (%.3f/s per client), "
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
    std::printf("[ measured ] arena straight line, checklist, 15 s: %llu corrections in %llu reconciliations\n",
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
    for (const auto& p : m.server->state().projectiles[static_cast<std::size_t>(gone)]) EXPECT_EQ(p.ttl, 0) << "projectile ghost";
    for (const auto& e : m.client(1).render_entities(m.now)) {
        EXPECT_NE(e.id, ArenaGame::player_entity(gone));
        if (e.snap.kind == arena::EntityKind::kProjectile) {
            EXPECT_NE(e.snap.owner, gone);
        }
    }
}

}  // namespace
