// ArenaGame::collect_messages: hits, deaths and scores from one step, in a fixed order and scope; nothing on
// a quiet tick.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "arena_test_util.hpp"

namespace arena::test {
namespace {

namespace cs = rwd::client_server;

static_assert(cs::EmitsMessages<ArenaGame>, "the server must find the arena's messages");
static_assert(cs::message_id<ArenaGame, HitMessage>() == cs::kFirstGameMessageId);
static_assert(cs::message_id<ArenaGame, DeathMessage>() == cs::kFirstGameMessageId + 1);
static_assert(cs::message_id<ArenaGame, ScoreMessage>() == cs::kFirstGameMessageId + 2);

// One message collect_messages sent, decoded: who receives it and what it says.
struct Sent {
    cs::MessageScope scope = cs::MessageScope::everyone;
    std::uint8_t a = 0, b = 0;  // the slots of a nearby message (0 for everyone)
    std::variant<HitMessage, DeathMessage, ScoreMessage> body;
    friend bool operator==(const Sent&, const Sent&) = default;
};
using Events = std::vector<Sent>;

// Decodes an outgoing message; a type or payload that is not one of the arena's fails the test.
Sent decode(const cs::OutMessage& m) {
    EXPECT_TRUE(m.reliable) << "the arena's messages are all reliable";
    Sent out{m.scope, m.a, m.b, HitMessage{}};
    if (m.type == cs::message_id<ArenaGame, HitMessage>()) {
        HitMessage h;
        EXPECT_TRUE(cs::decode_payload(m.payload, h).ok());
        out.body = h;
    } else if (m.type == cs::message_id<ArenaGame, DeathMessage>()) {
        DeathMessage d;
        EXPECT_TRUE(cs::decode_payload(m.payload, d).ok());
        out.body = d;
    } else if (m.type == cs::message_id<ArenaGame, ScoreMessage>()) {
        ScoreMessage sc;
        EXPECT_TRUE(cs::decode_payload(m.payload, sc).ok());
        out.body = sc;
    } else {
        ADD_FAILURE() << "unknown message type " << int{m.type};
    }
    return out;
}

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

// Steps once and returns what collect_messages sends for that step, decoded.
Events step_events(State& s, const Inputs& in) {
    const State before = s;
    step(s, in);
    cs::MessageOutbox<ArenaGame> out;
    ArenaGame::collect_messages(before, s, out);
    Events events;
    for (const cs::OutMessage& m : out.items()) events.push_back(decode(m));
    return events;
}

// A hit goes to the two players and whoever sees one of them.
Sent hit(int shooter, int target, int damage) {
    const auto sh = static_cast<std::uint8_t>(shooter), tg = static_cast<std::uint8_t>(target);
    return {cs::MessageScope::nearby, sh, tg, HitMessage{sh, tg, static_cast<std::uint8_t>(damage)}};
}
// Deaths and scores go to everyone.
Sent death(int victim, int killer, Weapon weapon) {
    return {cs::MessageScope::everyone, 0, 0,
            DeathMessage{static_cast<std::uint8_t>(victim), static_cast<std::uint8_t>(killer), weapon}};
}
Sent score(int slot, int value) {
    return {cs::MessageScope::everyone, 0, 0, ScoreMessage{static_cast<std::uint8_t>(slot), value}};
}

std::string describe(const Sent& e) {
    std::string out = "scope " + std::to_string(static_cast<int>(e.scope)) + " a " + std::to_string(e.a) +
                      " b " + std::to_string(e.b) + ": ";
    if (const auto* h = std::get_if<HitMessage>(&e.body))
        return out + "hit " + std::to_string(h->shooter) + "->" + std::to_string(h->target) + " damage " +
               std::to_string(h->damage);
    if (const auto* d = std::get_if<DeathMessage>(&e.body))
        return out + "death victim " + std::to_string(d->victim) + " killer " + std::to_string(d->killer) +
               " weapon " + std::to_string(static_cast<int>(d->weapon));
    const auto& sc = std::get<ScoreMessage>(e.body);
    return out + "score slot " + std::to_string(sc.slot) + " value " + std::to_string(sc.score);
}

void expect_events(const Events& got, const Events& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(got[i], want[i]) << "message " << i << ": got " << describe(got[i]) << ", want "
                                   << describe(want[i]);
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
    want.push_back(death(1, 0, Weapon::rifle));
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
    expect_events(all, {hit(0, 1, 30), death(1, 0, Weapon::launcher), score(0, 1)});
}

TEST(ArenaEvents, ATradeOnOneTickIsReportedInSlotOrder) {
    State s = duel(10);
    s.players[0].hp = kRifleDamage;
    s.players[1].hp = kRifleDamage;
    // Slot 1 aims west (half a turn) at slot 0; both fire on the same tick and both die together.
    Inputs in{};
    in[0] = trigger(kFire, 0);
    in[1] = trigger(kFire, 32768);
    expect_events(step_events(s, in),
                  {hit(0, 1, kRifleDamage), hit(1, 0, kRifleDamage), death(0, 1, Weapon::rifle),
                   death(1, 0, Weapon::rifle), score(0, 1), score(1, 1)});
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
