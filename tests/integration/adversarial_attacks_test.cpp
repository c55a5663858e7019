/// Adversarial clients against an arena server on SimNetwork: each attack is rejected or clamped with a
/// counter, and the ones that keep on are disconnected with a reason; the honest clients in the match keep
/// playing.
#include "integration/adversarial_client.hpp"
#include "unit/session/client_server/toy_harness.hpp"

#include <arena/arena_game.hpp>

#include <rewind/core/rng.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

using adversary::Attacker;
using adversary::RawInput;
using arena::ArenaGame;
using rwd::Micros;
using rwd::Tick;
namespace cs = rwd::client_server;

/// Two honest clients playing, then one attacker seated next to them (far corner, out of rifle range).
struct Scene {
    toy::Match<ArenaGame> m;
    std::vector<std::unique_ptr<Attacker>> attackers;

    explicit Scene(std::uint64_t seed, cs::ServerConfig sc = {})
        : m(seed, toy::link(30, 5, 0.01), sc, arena::new_match(seed)) {
        m.connect_client();
        m.connect_client();
        EXPECT_TRUE(m.run_until_playing(Micros{10'000'000}));
    }
    Attacker& add_attacker(bool hello = true) {
        const auto i = attackers.size();
        attackers.push_back(std::make_unique<Attacker>(
            *m.net,
            rwd::transport::Address{"attacker" + std::to_string(i), static_cast<std::uint16_t>(600 + i)},
            m.server_addr));
        attackers.back()->connect(m.now, hello);
        return *attackers.back();
    }
    /// Runs `d`; `each` after every 1 ms frame, with the attackers pumped.
    void run(Micros d, const std::function<void()>& each = {}) {
        m.run(d, [&] {
            for (auto& a : attackers) a->pump(m.now);
            if (each) each();
        });
    }
    /// Runs until `a` is seated; parks its player in the far corner so it touches nobody.
    void seat(Attacker& a) {
        for (int i = 0; i < 3000 && !a.seated(); ++i) run(Micros{1000});
        ASSERT_TRUE(a.seated());
        auto& p = m.server->state().players[static_cast<std::size_t>(a.slot())];
        p.x = p.y = 2 * arena::kUnitsPerMeter;
    }
    /// Honest clients are still in the match, and the server saw nothing malformed from them.
    void expect_honest_fine() {
        for (int i = 0; i < 2; ++i) {
            EXPECT_EQ(m.client(i).phase(), cs::ClientPhase::playing) << "honest client " << i;
            EXPECT_EQ(m.server->client_stats(m.client(i).slot()).malformed, 0u);
            EXPECT_EQ(m.client(i).stats().events_out_of_order, 0u);
        }
    }
    const cs::ServerClientStats& stats_of(const Attacker& a) const {
        return m.server->client_stats(a.slot());
    }
};

arena::Input walk_east(bool fire = false) {
    arena::Input in;
    in.move_x = arena::kAxisMax;
    in.buttons = fire ? arena::kFire : 0;
    return in;
}

TEST(Adversarial, InputFloodSpeedHackIsRateLimitedAndMovesNoFaster) {
    const std::uint64_t seed = 801;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const auto& p = s.m.server->state().players[static_cast<std::size_t>(a.slot())];
    const std::int32_t x0 = p.x;
    const Tick t0 = s.m.server->tick();
    std::uint32_t ahead = 0;
    // A packet every millisecond (~17 per tick), each claiming four new ticks: a client trying to move 68x.
    s.run(Micros{3'000'000}, [&] {
        ahead += 4;
        a.send_inputs(s.m.server->tick() + 2 + static_cast<std::int32_t>(ahead % 8), walk_east(), 4);
    });
    const int ticks = s.m.server->tick() - t0;
    const auto& st = s.stats_of(a);
    std::printf(
        "[ measured ] flood: %d ticks, applied %llu, rate limited %llu, overflow %llu, duplicate %llu, moved "
        "%.2f m "
        "(top speed allows %.2f m)\n",
        ticks, static_cast<unsigned long long>(st.inputs_applied),
        static_cast<unsigned long long>(st.inputs_rate_limited),
        static_cast<unsigned long long>(st.inputs_overflow),
        static_cast<unsigned long long>(st.inputs_duplicate), (p.x - x0) / double(arena::kUnitsPerMeter),
        ticks * double(arena::kTopSpeed) / arena::kUnitsPerMeter);
    EXPECT_GT(st.inputs_rate_limited, 1000u);
    EXPECT_TRUE(st.flagged);
    EXPECT_LE(st.inputs_applied, static_cast<std::uint64_t>(ticks) + 1) << "at most one input per tick";
    EXPECT_LE(p.x - x0, ticks * arena::kTopSpeed) << "the speed hack moved the player faster than top speed";
    EXPECT_GT(p.x - x0, 0) << "the attacker's inputs were all dropped: the test measures nothing";
    s.expect_honest_fine();
}

// A client that floods input packets without end is kicked as cheating once its refused packets pass
// abusive_packets_per_window for max_abusive_windows windows in a row.
TEST(Adversarial, SustainedInputFloodIsDisconnected) {
    const std::uint64_t seed = 802;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const int slot = a.slot();
    s.run(Micros{20'000'000}, [&] { a.send_inputs(s.m.server->tick() + 2, walk_east(), 4); });
    EXPECT_EQ(a.told(), cs::DisconnectCode::cheating);
    EXPECT_FALSE(s.m.server->seated(slot));
    EXPECT_EQ(s.m.server->stats().kicked_cheating, 1u);
    s.expect_honest_fine();
}

// Input packets stamped far in the future, sent without end, are refused one by one and then kicked the same
// way.
TEST(Adversarial, SustainedFutureStampsAreDisconnected) {
    const std::uint64_t seed = 812;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const int slot = a.slot();
    s.run(Micros{20'000'000}, [&] {
        if (s.m.server->seated(slot)) a.send_inputs(s.m.server->tick() + 500, walk_east(), 1);
    });
    EXPECT_EQ(a.told(), cs::DisconnectCode::cheating);
    EXPECT_FALSE(s.m.server->seated(slot));
    s.expect_honest_fine();
}

// Well-formed messages of a type the server never takes (a client sending Event, Snapshot or ConnectAccept
// messages) count per client toward max_malformed, so a client cannot send them forever.
TEST(Adversarial, EndlessUnexpectedMessagesAreDisconnected) {
    const std::uint64_t seed = 811;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    cs::ServerMessage ev;  // a server-to-client message, sent to the server
    s.run(Micros{5'000'000}, [&] {
        if (s.m.now.count % 10'000 == 0) (void)a.send(rwd::transport::Delivery::unreliable, ev);
    });
    const int slot = a.slot();
    EXPECT_GE(s.m.server->stats().unexpected, 20u);  // max_malformed
    EXPECT_EQ(a.told(), cs::DisconnectCode::garbage);
    EXPECT_FALSE(s.m.server->seated(slot));
    s.expect_honest_fine();
}

TEST(Adversarial, OutOfRangeAxesAreRejectedAndTheSenderKicked) {
    const std::uint64_t seed = 803;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const int slot = a.slot();
    const std::uint64_t malformed0 = s.m.server->stats().malformed;
    RawInput bad;
    bad.move_x_bits = 255;  // +128: one past the axis range, which the real encoder refuses to write
    int sent = 0;
    s.run(Micros{2'000'000}, [&] {
        if (s.m.now.count % 16'000 == 0 && s.m.server->seated(slot) &&
            a.send_inputs(s.m.server->tick() + 2, bad))
            ++sent;
    });
    std::printf("[ measured ] out-of-range axes: %d packets sent, %llu malformed, told %s\n", sent,
                static_cast<unsigned long long>(s.m.server->stats().malformed - malformed0),
                cs::disconnect_code_name(a.told()).data());
    EXPECT_GE(s.m.server->stats().malformed - malformed0, s.m.server->config().max_malformed);
    EXPECT_EQ(a.told(), cs::DisconnectCode::garbage);
    EXPECT_EQ(s.m.server->stats().kicked_garbage, 1u);
    EXPECT_FALSE(s.m.server->seated(slot));
    EXPECT_FALSE(s.m.server->state().players[static_cast<std::size_t>(slot)].present())
        << "ghost after the kick";
    // Unknown buttons cannot even be sent: the wire has 4 button bits and all 4 are defined. Values that do
    // reach the game through other paths are clamped by sanitize(), one violation per field:
    arena::Input raw;
    raw.move_x = -128;
    raw.move_y = -128;
    raw.buttons = 0xF0 | arena::kFire;
    raw.view_delay = 200;
    std::uint32_t violations = 0;
    const arena::Input clean = ArenaGame::sanitize(raw, violations);
    EXPECT_EQ(violations, 4u);
    EXPECT_EQ(clean.move_x, -arena::kAxisMax);
    EXPECT_EQ(clean.buttons, arena::kFire);
    EXPECT_EQ(clean.view_delay, arena::kMaxViewDelay);
    s.expect_honest_fine();
}

TEST(Adversarial, FiringFasterThanTheWeaponIsHeldToItsCooldown) {
    const std::uint64_t seed = 804;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const auto& p = s.m.server->state().players[static_cast<std::size_t>(a.slot())];
    Tick last = s.m.server->tick();
    int fired = 0, ticks = 0;
    std::uint8_t ammo = p.ammo;
    // One input per tick, trigger pressed and released on alternate ticks (the semi-automatic exploit), plus
    // redundant copies that claim the trigger on the ticks in between.
    s.run(Micros{4'000'000}, [&] {
        const Tick now_tick = s.m.server->tick();
        if (now_tick == last) return;
        last = now_tick;
        ++ticks;
        if (p.ammo < ammo) fired += ammo - p.ammo;
        ammo = p.ammo;
        arena::Input in;
        in.buttons = (now_tick.value % 2) ? arena::kFire : 0;
        in.aim = 16384;  // north, at nobody
        a.send_inputs(now_tick + 2, in, 1);
    });
    const auto& st = s.stats_of(a);
    std::printf(
        "[ measured ] rapid fire: %d ticks, %llu trigger ticks, %d rounds fired (cooldown allows %d)\n",
        ticks, static_cast<unsigned long long>(st.shots), fired, ticks / arena::kRifleInterval + 1);
    EXPECT_GT(st.shots, static_cast<std::uint64_t>(ticks) / 3) << "the server counts every trigger pull";
    EXPECT_GT(fired, 0);
    EXPECT_LE(fired, ticks / arena::kRifleInterval + 1) << "rounds fired faster than the rifle's interval";
    s.expect_honest_fine();
}

TEST(Adversarial, RenderTimeTwoSecondsInThePastIsClampedToTheRewindCap) {
    const std::uint64_t seed = 805;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    Tick last = s.m.server->tick();
    int claim_ticks = 6;               // first an honest 100 ms old view, then "I saw this 2 s ago"
    a.claim_interpolation_delay(100);  // honest: it draws others 100 ms behind the server
    auto shoot = [&] {
        const Tick t = s.m.server->tick();
        if (t == last) return;
        last = t;
        arena::Input in;
        in.buttons = arena::kFire;
        ArenaGame::set_view_time(in, t + 2, rwd::ViewTime{t + 2 - claim_ticks, 0});
        a.send_inputs(t + 2, in, 1);
    };
    s.run(Micros{1'000'000}, shoot);
    const std::uint64_t honest_shots = s.stats_of(a).shots,
                        honest_clamped = s.stats_of(a).shots_rewind_clamped;
    EXPECT_GT(honest_shots, 30u);
    EXPECT_EQ(honest_clamped, 0u) << "a 100 ms old view time is within the cap";
    claim_ticks = 120;
    s.run(Micros{3'000'000}, shoot);
    const auto& st = s.stats_of(a);
    std::printf("[ measured ] 2 s view time: %llu shots, %llu clamped to the %d ms rewind cap\n",
                static_cast<unsigned long long>(st.shots),
                static_cast<unsigned long long>(st.shots_rewind_clamped), s.m.server->config().max_rewind_ms);
    const std::uint64_t old_shots = st.shots - honest_shots,
                        old_clamped = st.shots_rewind_clamped - honest_clamped;
    EXPECT_GT(old_shots, 100u);
    EXPECT_GE(old_clamped * 10, old_shots * 9) << "claimed view times older than the cap must be clamped";
    s.expect_honest_fine();
}

TEST(Adversarial, InputsStampedFarInTheFutureAreDropped) {
    const std::uint64_t seed = 806;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const auto& p = s.m.server->state().players[static_cast<std::size_t>(a.slot())];
    const std::int32_t x0 = p.x;
    s.run(Micros{2'000'000}, [&] {
        if (s.m.now.count % 16'000 == 0) a.send_inputs(s.m.server->tick() + 100'000, walk_east(), 4);
    });
    const auto& st = s.stats_of(a);
    std::printf("[ measured ] future stamps: %llu packets dropped as too far ahead, applied %llu\n",
                static_cast<unsigned long long>(st.inputs_future),
                static_cast<unsigned long long>(st.inputs_applied));
    EXPECT_GT(st.inputs_future, 100u);
    EXPECT_TRUE(st.flagged);
    EXPECT_EQ(st.inputs_applied, 0u);
    EXPECT_EQ(p.x, x0) << "a future-stamped input moved the player";
    s.expect_honest_fine();
}

TEST(Adversarial, OversizedAndTruncatedMessagesAreMalformedAndTheSenderKicked) {
    const std::uint64_t seed = 807;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const int slot = a.slot();
    cs::InputPacket<arena::Input> pkt;
    pkt.count = 4;
    std::vector<std::uint8_t> good;
    ASSERT_TRUE(cs::encode_message(pkt, good).ok());
    std::vector<std::uint8_t> oversized = good;
    oversized.resize(1000, 0xFF);  // a real packet and then junk, within one datagram
    const std::vector<std::uint8_t> truncated(good.begin(),
                                              good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2));
    int n = 0;
    s.run(Micros{2'000'000}, [&] {
        if (s.m.now.count % 20'000 != 0 || !s.m.server->seated(slot)) return;
        (void)a.send_bytes(rwd::transport::Delivery::unreliable, (n++ % 2) ? oversized : truncated);
    });
    const auto& st = s.stats_of(a);
    std::printf("[ measured ] oversized/truncated: %d sent, %llu malformed, told %s\n", n,
                static_cast<unsigned long long>(st.malformed), cs::disconnect_code_name(a.told()).data());
    EXPECT_GE(st.malformed, s.m.server->config().max_malformed);
    EXPECT_EQ(a.told(), cs::DisconnectCode::garbage);
    EXPECT_FALSE(s.m.server->seated(slot));
    // A datagram above the MTU never reaches anyone: the link drops it (counted). Malformed datagrams below
    // it reach the transport, which drops and counts them and disconnects the sender after max_malformed.
    Attacker& b = s.add_attacker();
    s.seat(b);
    const rwd::transport::Address b_addr{"attacker1", 601};
    const auto mtu0 =
        s.m.net->link_counters(b_addr, s.m.server_addr).value_or(rwd::transport::LinkCounters{});
    const std::uint64_t net_malformed0 = s.m.net->stats().malformed;
    int k = 0;
    s.run(Micros{1'000'000}, [&] {
        if (s.m.now.count % 20'000 != 0) return;
        if (k++ % 2)
            b.inject(s.m.now, std::vector<std::uint8_t>(1500, 0x01));  // over the MTU
        else
            b.inject(s.m.now, std::vector<std::uint8_t>(100, 0x7F));  // under it, no valid header
    });
    const auto mtu1 =
        s.m.net->link_counters(b_addr, s.m.server_addr).value_or(rwd::transport::LinkCounters{});
    std::printf(
        "[ measured ] raw datagrams: %llu over the MTU dropped by the link, %llu malformed at the transport, "
        "sender %s\n",
        static_cast<unsigned long long>(mtu1.dropped_mtu - mtu0.dropped_mtu),
        static_cast<unsigned long long>(s.m.net->stats().malformed - net_malformed0),
        b.transport_closed() ? "disconnected" : "still connected");
    EXPECT_GT(mtu1.dropped_mtu - mtu0.dropped_mtu, 0u);
    EXPECT_GE(s.m.net->stats().malformed - net_malformed0, s.m.net->config().max_malformed);
    EXPECT_TRUE(b.transport_closed());
    EXPECT_FALSE(s.m.server->seated(b.slot()));
    s.expect_honest_fine();
}

TEST(Adversarial, MoreConnectionsThanSeatsAreRefused) {
    const std::uint64_t seed = 808;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    cs::ServerConfig sc;
    sc.max_clients = 4;
    Scene s(seed, sc);
    const std::uint64_t refused0 = s.m.server->stats().refused;
    std::vector<Attacker*> hello;
    for (int i = 0; i < 6; ++i) hello.push_back(&s.add_attacker(true));
    s.run(Micros{1'000'000});
    // And a crowd that opens connections and never says hello: the transport's peer cap (64 here) bounds
    // them, and the server drops each after hello_timeout.
    std::vector<Attacker*> mute;
    for (int i = 0; i < 70; ++i) mute.push_back(&s.add_attacker(false));
    s.run(Micros{4'000'000});
    int seated = 0, full = 0, dropped = 0;
    for (Attacker* a : hello) {
        seated += a->seated() ? 1 : 0;
        full += a->told() == cs::DisconnectCode::server_full ? 1 : 0;
    }
    for (Attacker* a : mute) dropped += a->transport_closed() ? 1 : 0;
    std::printf(
        "[ measured ] 6 hellos for 2 free seats: %d seated, %d told server_full, refused %llu; 70 mute "
        "connections: %d closed, server timeouts %llu\n",
        seated, full, static_cast<unsigned long long>(s.m.server->stats().refused - refused0), dropped,
        static_cast<unsigned long long>(s.m.server->stats().timeouts));
    EXPECT_EQ(seated, 2);
    EXPECT_EQ(full, 4);
    EXPECT_EQ(s.m.server->stats().refused - refused0, 4u);
    EXPECT_EQ(s.m.server->seated_count(), 4);
    EXPECT_EQ(dropped, 70) << "every mute connection is refused or dropped";
    s.expect_honest_fine();
}

TEST(Adversarial, ConnectAndGoSilentIsTimedOut) {
    const std::uint64_t seed = 809;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const int slot = a.slot();
    const std::uint64_t timeouts0 = s.m.server->stats().timeouts;
    s.run(s.m.server->config().client_timeout + Micros{1'000'000});
    EXPECT_EQ(a.told(), cs::DisconnectCode::timed_out);
    EXPECT_EQ(s.m.server->stats().timeouts - timeouts0, 1u);
    EXPECT_FALSE(s.m.server->seated(slot));
    EXPECT_FALSE(s.m.server->state().players[static_cast<std::size_t>(slot)].present());
    s.expect_honest_fine();
}

TEST(Adversarial, GarbageAfterConnectingIsKicked) {
    const std::uint64_t seed = 810;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Scene s(seed);
    Attacker& a = s.add_attacker();
    s.seat(a);
    const int slot = a.slot();
    rwd::Rng rng(seed);
    int sent = 0;
    s.run(Micros{3'000'000}, [&] {
        if (s.m.now.count % 10'000 != 0 || !s.m.server->seated(slot)) return;
        // At least 8 bytes ending in a non-zero byte: a 1-byte blob is often a well-formed goodbye, and a
        // message may only be followed by zero padding.
        std::vector<std::uint8_t> junk(8 + rng.next_u32() % 52);
        for (auto& b : junk) b = static_cast<std::uint8_t>(rng.next_u32());
        junk.back() |= 1;
        (void)a.send_bytes(
            sent++ % 2 ? rwd::transport::Delivery::reliable_ordered : rwd::transport::Delivery::unreliable,
            junk);
    });
    const auto& st = s.stats_of(a);
    std::printf(
        "[ measured ] garbage: %d sent before the kick, %llu malformed, %llu unexpected (server-wide), told "
        "%s\n",
        sent, static_cast<unsigned long long>(st.malformed),
        static_cast<unsigned long long>(s.m.server->stats().unexpected),
        cs::disconnect_code_name(a.told()).data());
    EXPECT_EQ(a.told(), cs::DisconnectCode::garbage);
    EXPECT_EQ(s.m.server->stats().kicked_garbage, 1u);
    EXPECT_FALSE(s.m.server->seated(slot));
    EXPECT_FALSE(s.m.server->state().players[static_cast<std::size_t>(slot)].present());
    s.expect_honest_fine();
}

}  // namespace
