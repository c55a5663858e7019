/// Honest players are unaffected by an attacker in their match: the same seeded arena match is run without
/// and with a hostile client going through every attack, and the honest clients' prediction error and hit
/// registration are compared.
#include "integration/adversarial_client.hpp"
#include "unit/session/client_server/toy_harness.hpp"

#include <arena/arena_game.hpp>

#include <rewind/core/rng.hpp>
#include <rewind/transport/link_config.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace {

using adversary::Attacker;
using adversary::RawInput;
using arena::ArenaGame;
using rwd::Micros;
using rwd::Tick;
namespace cs = rwd::client_server;

/// What the honest side of a match measured.
struct HonestFigures {
    double max_error_m[2] = {0, 0};  ///< largest correction of client A, B
    double p95_error_m[2] = {0, 0};  ///< 95th percentile correction
    std::uint64_t corrections[2] = {0, 0};
    std::uint64_t clamped = 0;  ///< A's shots whose view time the server clamped to the rewind cap
    int rounds = 0;             ///< rounds A's rifle fired (server)
    int hits = 0;               ///< of them, hits on B (server)
    int attacks = 0;            ///< attacker connections that were refused or disconnected
};

double p95(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[v.size() * 95 / 100];
}

/// Who else is in the match.
enum class Third { nobody, idle, attacker };

/// A (slot 0) stands and shoots at B as its client renders B; B (slot 1) strafes north and south. With
/// Third::attacker, a hostile client joins and goes through every attack, reconnecting after each kick; with
/// Third::idle the same raw client joins and only sends neutral inputs (the control for the comparison).
HonestFigures run_match(std::uint64_t seed, Third third) {
    const bool attack = third != Third::nobody;
    cs::ServerConfig sc;
    sc.max_clients = 4;
    // On this link an honest client's view time is about 250 ms old (lead ~9 ticks + interpolation ~6): with
    // the default 250 ms cap every one of A's shots is clamped and 2/3 miss a strafing target (see the
    // report). A cap that covers honest clients makes hit registration a sensitive measure.
    sc.max_rewind_ms = 400;
    toy::Match<ArenaGame> m(seed, rwd::transport::link_profile("checklist").value(), sc,
                            arena::new_match(seed));
    m.connect_client();
    EXPECT_TRUE(m.run_until_playing(Micros{10'000'000}));
    m.connect_client();
    EXPECT_TRUE(m.run_until_playing(Micros{10'000'000}));
    auto& world = m.server->state();
    auto place = [&](int slot, double x_m, double y_m) {
        world.players[static_cast<std::size_t>(slot)].x =
            static_cast<std::int32_t>(x_m * arena::kUnitsPerMeter);
        world.players[static_cast<std::size_t>(slot)].y =
            static_cast<std::int32_t>(y_m * arena::kUnitsPerMeter);
    };
    place(m.client(0).slot(), 38, 42);  // open ground, 8 m apart, nothing in between
    place(m.client(1).slot(), 46, 42);
    const Tick settled = m.server->tick() + 120;  // the teleport itself is one big correction: not counted

    std::vector<std::unique_ptr<Attacker>> attackers;
    int next_addr = 0;
    auto new_attacker = [&](bool hello = true) -> Attacker& {
        attackers.push_back(
            std::make_unique<Attacker>(*m.net,
                                       rwd::transport::Address{"evil" + std::to_string(next_addr),
                                                               static_cast<std::uint16_t>(900 + next_addr)},
                                       m.server_addr));
        ++next_addr;
        attackers.back()->connect(m.now, hello);
        return *attackers.back();
    };
    Attacker* cur = nullptr;
    bool parked = false;
    Micros last_new{};
    rwd::Rng rng(seed, 99);
    RawInput bad_axis;
    bad_axis.move_x_bits = 255;
    arena::Input corner;  // into the south-west corner, aiming at it: away from everyone
    corner.move_x = -arena::kAxisMax;
    corner.move_y = -arena::kAxisMax;
    corner.aim = 40960;

    HonestFigures f;
    const int a_slot = m.client(0).slot(), b_slot = m.client(1).slot();
    Tick last_a{}, last_b{}, last_server = m.server->tick();
    std::int16_t b_hp = world.players[static_cast<std::size_t>(b_slot)].hp;
    std::uint8_t a_ammo = world.players[static_cast<std::size_t>(a_slot)].ammo;
    const Micros start = m.now;
    m.run(Micros{30'000'000}, [&] {
        const Micros t = m.now - start;
        // Honest A: aim at B where A's client draws it, trigger held, reload when empty.
        auto& a = m.client(0);
        if (a.tick() != last_a) {
            last_a = a.tick();
            arena::Input in;
            const auto& self = a.predicted_state().players[static_cast<std::size_t>(a_slot)];
            for (const auto& e : a.render_entities(m.now)) {
                if (e.id != ArenaGame::player_entity(b_slot)) continue;
                const double ang = std::atan2(double(e.snap.y - self.y), double(e.snap.x - self.x));
                in.aim = static_cast<std::uint16_t>(std::lround((ang < 0 ? ang + 2 * std::numbers::pi : ang) *
                                                                65536.0 / (2 * std::numbers::pi)) &
                                                    0xFFFF);
                in.buttons = arena::kFire;
            }
            if (self.ammo == 0) in.buttons = arena::kReload;
            a.set_input(in);
        }
        auto& b = m.client(1);
        if (b.tick() != last_b) {
            last_b = b.tick();
            arena::Input in;
            in.move_y =
                (b.tick().value / 45) % 2 ? arena::kAxisMax : static_cast<std::int8_t>(-arena::kAxisMax);
            b.set_input(in);
        }
        // The server's view of A's rounds and hits on B, once per tick.
        if (m.server->tick() != last_server) {
            last_server = m.server->tick();
            const auto& pa = world.players[static_cast<std::size_t>(a_slot)];
            const auto& pb = world.players[static_cast<std::size_t>(b_slot)];
            if (pa.ammo < a_ammo) f.rounds += a_ammo - pa.ammo;
            if (pb.hp < b_hp && b_hp > 0)
                f.hits += (b_hp - pb.hp + arena::kRifleDamage - 1) / arena::kRifleDamage;
            a_ammo = pa.ammo;
            // B never dies (a respawn would carry it out of range): topped up on the server, where the hits
            // are counted. Same in both runs.
            if (pb.hp < 3 * arena::kRifleDamage && pb.hp > 0)
                world.players[static_cast<std::size_t>(b_slot)].hp = arena::kMaxHp;
            b_hp = world.players[static_cast<std::size_t>(b_slot)].hp;
        }
        if (!attack) return;
        for (auto& x : attackers) x->pump(m.now);
        // The attack schedule: one hostile connection at a time, a new one after each kick.
        const Tick st = m.server->tick();
        if ((!cur || cur->told() != cs::DisconnectCode::none || cur->transport_closed()) &&
            m.now - last_new >= Micros{300'000} && attackers.size() < 40) {
            if (cur) ++f.attacks;
            cur = &new_attacker(t < Micros{24'000'000});
            last_new = m.now;
            parked = false;
        }
        if (!cur) return;
        if (!cur->seated()) return;
        if (!parked) {
            parked = true;
            world.players[static_cast<std::size_t>(cur->slot())].x = 2 * arena::kUnitsPerMeter;
            world.players[static_cast<std::size_t>(cur->slot())].y = 2 * arena::kUnitsPerMeter;
        }
        if (third == Third::idle) {
            if (m.now.count % 16'000 == 0) cur->send_inputs(st + 2, arena::Input{}, 1);
        } else if (t < Micros{5'000'000}) {
            cur->send_inputs(st + 2, corner, 4);  // flood: every millisecond, a speed hack
        } else if (t < Micros{8'000'000}) {
            if (m.now.count % 16'000 == 0) {  // rapid fire with a view time 2 s old
                arena::Input in = corner;
                in.buttons = (st.value % 2) ? arena::kFire : 0;
                ArenaGame::set_view_time(in, st + 2, rwd::ViewTime{st + 2 - 120, 0});
                cur->send_inputs(st + 2, in, 1);
            }
        } else if (t < Micros{10'000'000}) {
            if (m.now.count % 16'000 == 0) cur->send_inputs(st + 100'000, corner, 4);  // far in the future
        } else if (t < Micros{13'000'000}) {
            if (m.now.count % 16'000 == 0) cur->send_inputs(st + 2, bad_axis, 1);  // out of range: kicked
        } else if (t < Micros{16'000'000}) {
            if (m.now.count % 10'000 == 0) {  // garbage: kicked
                std::vector<std::uint8_t> junk(8 + rng.next_u32() % 52);
                for (auto& byte : junk) byte = static_cast<std::uint8_t>(rng.next_u32());
                junk.back() |= 1;
                (void)cur->send_bytes(rwd::transport::Delivery::unreliable, junk);
            }
        } else if (t < Micros{17'000'000}) {
            if (m.now.count % 20'000 == 0)
                cur->inject(m.now, std::vector<std::uint8_t>(100, 0x7F));  // transport kick
        } else if (t < Micros{18'000'000}) {
            if (m.now.count % 100'000 == 0) new_attacker(true);  // more connections than seats
        }
        // From 18 s on: silent (timed out after client_timeout), then mute connections without a hello.
    });
    for (int i = 0; i < 2; ++i) {
        auto& c = m.client(i);
        EXPECT_EQ(c.phase(), cs::ClientPhase::playing);
        EXPECT_EQ(c.stats().events_out_of_order, 0u);
        std::vector<double> errors;
        for (const auto& r : c.corrections()) {
            if (r.tick < settled) continue;
            errors.push_back(r.error_m);
            f.max_error_m[i] = std::max(f.max_error_m[i], r.error_m);
            ++f.corrections[i];
        }
        f.p95_error_m[i] = p95(errors);
    }
    f.clamped = m.server->client_stats(a_slot).shots_rewind_clamped;
    if (third == Third::attacker) {
        const auto& s = m.server->stats();
        std::printf(
            "[ measured ] attacker connections %d ended; server: refused %llu, kicked garbage %llu, timeouts "
            "%llu, "
            "malformed %llu, unexpected %llu; transport malformed %llu\n",
            f.attacks, static_cast<unsigned long long>(s.refused),
            static_cast<unsigned long long>(s.kicked_garbage), static_cast<unsigned long long>(s.timeouts),
            static_cast<unsigned long long>(s.malformed), static_cast<unsigned long long>(s.unexpected),
            static_cast<unsigned long long>(m.net->stats().malformed));
    }
    return f;
}

TEST(AdversarialMatch, HonestPlayersAreUnaffectedByTheAttacker) {
    const std::uint64_t seed = 4711;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const HonestFigures calm = run_match(seed, Third::nobody);
    const HonestFigures idle = run_match(seed, Third::idle);
    const HonestFigures war = run_match(seed, Third::attacker);
    for (const auto* f : {&calm, &idle, &war})
        std::printf(
            "[ measured ] %s: A hit B %d of %d rounds (%.1f %%); corrections A %llu B %llu; error max A %.4f "
            "B %.4f m, "
            "p95 A %.4f B %.4f m; A's shots rewind-clamped %llu\n",
            f == &calm   ? "alone       "
            : f == &idle ? "idle third  "
                         : "attacker    ",
            f->hits, f->rounds, f->rounds ? 100.0 * f->hits / f->rounds : 0.0,
            static_cast<unsigned long long>(f->corrections[0]),
            static_cast<unsigned long long>(f->corrections[1]), f->max_error_m[0], f->max_error_m[1],
            f->p95_error_m[0], f->p95_error_m[1], static_cast<unsigned long long>(f->clamped));
    EXPECT_GE(war.attacks, 5) << "the attack schedule did not run";
    ASSERT_GT(calm.rounds, 100) << "the honest scene measures nothing";
    ASSERT_GT(calm.hits, calm.rounds * 3 / 4)
        << "lag compensation misses a strafing target: the scene measures nothing";
    // Tolerance. The honest links' randomness is per link (seed and addresses), the attacker's body is parked
    // in a far corner and shoots into it, and the server applies exactly one input per seat per tick. What
    // remains is timing: any third connection (the idle control too) shifts when packets are handled by a
    // millisecond here and there, which moves single mispredictions by a tick and single hits by a round. So
    // we allow what one tick of movement at top speed (0.1 m) and 5 % of the rounds can explain. An attack
    // that reached the honest players (a stalled tick, their inputs dropped or late, rewinds on their behalf)
    // costs several ticks of movement per correction and a visible share of hits, far outside this.
    const double top_speed_tick_m = double(arena::kTopSpeed) / arena::kUnitsPerMeter;
    const double hit_calm = double(calm.hits) / calm.rounds,
                 hit_war = war.rounds ? double(war.hits) / war.rounds : 0.0;
    EXPECT_NEAR(hit_war, hit_calm, 0.05) << "hit registration changed";
    EXPECT_NEAR(war.rounds, calm.rounds, calm.rounds / 20 + 1) << "A's rate of fire changed";
    for (int i = 0; i < 2; ++i) {
        EXPECT_LE(war.max_error_m[i], calm.max_error_m[i] + top_speed_tick_m) << "client " << i;
        EXPECT_LE(war.p95_error_m[i], calm.p95_error_m[i] + top_speed_tick_m / 2) << "client " << i;
        EXPECT_LE(war.corrections[i], calm.corrections[i] * 3 / 2 + 10) << "client " << i;
    }
}

}  // namespace
