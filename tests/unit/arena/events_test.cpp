// ArenaGame::collect_events: hits, deaths and scores from one step, in a fixed order; nothing on a quiet
// tick.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "arena_test_util.hpp"

namespace arena::test {
namespace {

namespace cs = rwd::client_server;
using Events = std::vector<cs::GameEvent>;

static_assert(cs::EmitsEvents<ArenaGame>, "the server must find the arena's events");

// Slot 0 at (20, 40) m aiming east; slot 1 `dx` metres east of it.
State duel(double dx) {
    return staged({{0, Point{meters(20), meters(40)}}, {1, Point{meters(20 + dx), meters(40)}}});
}

Input trigger(std::uint8_t buttons, std::uint16_t aim) {
    Input in;
    in.buttons = buttons;
    in.aim = aim;
    return in;
}

// Steps once and returns what collect_events reports for that step.
Events step_events(State& s, const Inputs& in) {
    const State before = s;
    step(s, in);
    Events out;
    ArenaGame::collect_events(before, s, out);
    return out;
}

cs::GameEvent hit(int shooter, int target, int damage) {
    return {cs::EventKind::hit, static_cast<std::uint8_t>(shooter), static_cast<std::uint8_t>(target),
            damage};
}
cs::GameEvent death(int victim, int killer, std::int32_t weapon) {
    return {cs::EventKind::death, static_cast<std::uint8_t>(victim), static_cast<std::uint8_t>(killer),
            weapon};
}
cs::GameEvent score(int slot, int value) {
    return {cs::EventKind::score, static_cast<std::uint8_t>(slot), static_cast<std::uint8_t>(slot), value};
}

bool same(const cs::GameEvent& a, const cs::GameEvent& b) {
    return a.kind == b.kind && a.subject == b.subject && a.other == b.other && a.value == b.value;
}

void expect_events(const Events& got, const Events& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_TRUE(same(got[i], want[i]))
            << "event " << i << ": kind " << static_cast<int>(got[i].kind) << " subject "
            << int{got[i].subject} << " other " << int{got[i].other} << " value " << got[i].value;
    }
}

TEST(ArenaEvents, AScriptedRifleKillGivesItsHitsOneDeathAndOneScore) {
    State s = duel(10);
    Events all;
    int quiet_ticks = 0;
    for (int t = 0; t < 200 && s.players[1].alive(); ++t) {
        const Events e = step_events(s, only(0, trigger(kFire, 0)));
        quiet_ticks += e.empty();
        all.insert(all.end(), e.begin(), e.end());
    }
    ASSERT_FALSE(s.players[1].alive());
    // Five rifle hits of 20 hp, the last one kills: hit, death, score, in that order on the killing tick.
    const int shots = (kMaxHp + kRifleDamage - 1) / kRifleDamage;
    Events want;
    for (int i = 0; i < shots; ++i) want.push_back(hit(0, 1, kRifleDamage));
    want.push_back(death(1, 0, ArenaGame::kEventWeaponRifle));
    want.push_back(score(0, 1));
    expect_events(all, want);
    EXPECT_GT(quiet_ticks, 0);  // the ticks between shots (rifle cooldown) reported nothing
    // While dead and on the respawn tick: nothing (a respawn is not a game event).
    for (int t = 0; t <= kRespawnTicks; ++t) EXPECT_TRUE(step_events(s, Inputs{}).empty()) << "tick " << t;
    EXPECT_TRUE(s.players[1].alive());
}

TEST(ArenaEvents, AQuietTickReportsNothingAndTheHitLogIsCleared) {
    State s = duel(10);
    EXPECT_TRUE(step_events(s, Inputs{}).empty());
    expect_events(step_events(s, only(0, trigger(kFire, 0))), {hit(0, 1, kRifleDamage)});
    EXPECT_EQ(s.hit_count, 1);
    EXPECT_TRUE(step_events(s, Inputs{}).empty());
    EXPECT_EQ(s.hit_count, 0);
    for (const HitRecord& h : s.hits) EXPECT_EQ(h.shooter + h.target + h.damage + h.flags, 0);
}

TEST(ArenaEvents, ALauncherKillReportsTheDamageActuallyDealtAndItsWeapon) {
    State s = duel(6);
    s.players[1].hp = 30;  // less than one rocket
    Events all;
    for (int t = 0; t < 100 && s.players[1].alive(); ++t) {
        const Events e = step_events(s, t == 0 ? only(0, trigger(kAltFire, 0)) : Inputs{});
        all.insert(all.end(), e.begin(), e.end());
    }
    expect_events(all, {hit(0, 1, 30), death(1, 0, ArenaGame::kEventWeaponLauncher), score(0, 1)});
}

TEST(ArenaEvents, ATradeOnOneTickIsReportedInSlotOrder) {
    State s = duel(10);
    s.players[0].hp = kRifleDamage;
    s.players[1].hp = kRifleDamage;
    // Slot 1 aims west (half a turn) at slot 0; both fire on the same tick and both die together.
    Inputs in{};
    in[0] = trigger(kFire, 0);
    in[1] = trigger(kFire, 32768);
    expect_events(step_events(s, in), {hit(0, 1, kRifleDamage), hit(1, 0, kRifleDamage),
                                       death(0, 1, ArenaGame::kEventWeaponRifle),
                                       death(1, 0, ArenaGame::kEventWeaponRifle), score(0, 1), score(1, 1)});
}

TEST(ArenaEvents, TheSameStepGivesTheSameEvents) {
    State a = duel(10);
    State b = a;
    std::size_t reported = 0;
    for (int t = 0; t < 120; ++t) {
        Inputs in{};
        in[0] = trigger(t % 3 == 0 ? std::uint8_t{kFire} : std::uint8_t{0}, 0);
        in[1] = trigger(t % 5 == 0 ? std::uint8_t{kAltFire} : std::uint8_t{0}, 32768);
        const Events ea = step_events(a, in);
        expect_events(ea, step_events(b, in));
        reported += ea.size();
    }
    EXPECT_GT(reported, 0u);
    EXPECT_EQ(ArenaGame::checksum(a), ArenaGame::checksum(b));
}

}  // namespace
}  // namespace arena::test
