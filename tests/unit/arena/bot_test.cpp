// Bots: only ever valid inputs (from real matches and from arbitrary, even nonsensical views), seeded
// reproducibility, and that they actually fight.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

#include "arena/bot.hpp"
#include "arena_test_util.hpp"

namespace arena::test {
namespace {

bool valid(const Input& in) {
    std::uint32_t violations = 0;
    return ArenaGame::sanitize(in, violations) == in && violations == 0 && in.view_delay == 0;
}

RC_GTEST_PROP(Bots, ProduceOnlyValidInputsInMatches, (std::uint64_t seed)) {
    const int players = *rc::gen::inRange(1, 17);
    State s = new_match(seed);
    std::vector<Bot> bots;
    BotConfig cfg;
    cfg.aim_error = *rc::gen::inRange<std::uint16_t>(0, 16385);
    cfg.reaction_ticks = *rc::gen::inRange<std::uint16_t>(0, 60);
    cfg.dash_chance = *rc::gen::inRange<std::uint32_t>(0, 50);
    cfg.rocket_chance = *rc::gen::inRange<std::uint32_t>(0, 10);
    RC_ASSERT(cfg.validate().ok());
    for (int i = 0; i < players; ++i) {
        ArenaGame::add_player(s, i);
        bots.emplace_back(seed + static_cast<std::uint64_t>(i), cfg);
    }
    Inputs in{};
    for (int t = 0; t < 200; ++t) {
        for (int i = 0; i < players; ++i) {
            in[i] = bots[i].think(view_of(s, i));
            RC_ASSERT(valid(in[i]));
        }
        ArenaGame::step(s, in, nullptr);
    }
}

RC_GTEST_PROP(Bots, ProduceOnlyValidInputsFromArbitraryViews, (std::uint64_t seed)) {
    Bot bot(seed);
    for (int t = 0; t < 50; ++t) {
        BotView v;
        v.self_slot = *rc::gen::inRange(-5, 70);
        v.self.flags = *rc::gen::arbitrary<std::uint8_t>();
        v.self.x = *rc::gen::arbitrary<std::int32_t>();
        v.self.y = *rc::gen::arbitrary<std::int32_t>();
        v.self.ammo = *rc::gen::arbitrary<std::uint8_t>();
        v.self.aim = *rc::gen::arbitrary<std::uint16_t>();
        for (SeenPlayer& o : v.others) {
            o.visible = *rc::gen::arbitrary<bool>();
            o.alive = *rc::gen::arbitrary<bool>();
            o.x = *rc::gen::arbitrary<std::int32_t>();
            o.y = *rc::gen::arbitrary<std::int32_t>();
        }
        RC_ASSERT(valid(bot.think(v)));
    }
}

TEST(Bots, SameSeedSameChoices) {
    State s = staged({{0, Point{meters(20), meters(40)}}, {1, Point{meters(30), meters(40)}}});
    Bot a(42);
    Bot b(42);
    Bot c(43);
    int differ = 0;
    for (int t = 0; t < 200; ++t) {
        const BotView v = view_of(s, 0);
        const Input ia = a.think(v);
        EXPECT_EQ(ia, b.think(v));
        differ += ia == c.think(v) ? 0 : 1;
        step(s, only(0, ia));
    }
    EXPECT_GT(differ, 0);
}

TEST(Bots, EngageAVisibleTargetAndHoldFireBehindWalls) {
    State s = staged({{0, Point{meters(20), meters(40)}}, {1, Point{meters(30), meters(40)}}});
    BotConfig cfg;
    cfg.aim_error = 0;
    cfg.rocket_chance = 0;
    Bot bot(1, cfg);
    int fired = 0;
    for (int t = 0; t < 60; ++t) {
        const Input in = bot.think(view_of(s, 0));
        EXPECT_EQ(bot.target(), 1);
        if (t < cfg.reaction_ticks) {
            EXPECT_EQ(in.buttons & kFire, 0) << "fired before its reaction time";
        }
        fired += (in.buttons & kFire) != 0 ? 1 : 0;
        step(s, only(0, in));
        s.players[1].hp = kMaxHp;  // keep the target alive
    }
    EXPECT_GT(fired, 10);

    const Box w = thin_wall(true);
    const std::int32_t y = (w.min_y + w.max_y) / 2;
    State hidden = staged({{0, Point{w.min_x - meters(3), y}}, {1, Point{w.max_x + meters(3), y}}});
    Bot blind(1, cfg);
    for (int t = 0; t < 30; ++t) {
        const Input in = blind.think(view_of(hidden, 0));
        EXPECT_EQ(blind.target(), -1);
        EXPECT_EQ(in.buttons & kFire, 0);
    }
}

TEST(Bots, ReloadWhenEmpty) {
    State s = staged({{0, Point{meters(20), meters(40)}}, {1, Point{meters(30), meters(40)}}});
    s.players[0].ammo = 0;
    Bot bot(3);
    bool reloaded = false;
    for (int t = 0; t < 30 && !reloaded; ++t) reloaded = (bot.think(view_of(s, 0)).buttons & kReload) != 0;
    EXPECT_TRUE(reloaded);
}

TEST(Bots, AMatchOfBotsHasKillsAndDeaths) {
    State s = new_match(11);
    std::vector<Bot> bots;
    for (int i = 0; i < 16; ++i) {
        ArenaGame::add_player(s, i);
        bots.emplace_back(100 + static_cast<std::uint64_t>(i));
    }
    Inputs in{};
    for (int t = 0; t < 3600; ++t) {
        for (int i = 0; i < 16; ++i) in[i] = bots[i].think(view_of(s, i));
        ArenaGame::step(s, in, nullptr);
    }
    int kills = 0;
    int deaths = 0;
    int shots = 0;
    for (const Player& p : s.players) {
        kills += p.score;
        deaths += p.deaths;
        shots += p.shots;
    }
    EXPECT_GT(kills, 10);
    EXPECT_EQ(kills, deaths);  // no suicides in the arena: every death is someone's kill
    EXPECT_GT(shots, 5);
}

TEST(Bots, ConfigValidation) {
    EXPECT_TRUE(BotConfig{}.validate().ok());
    BotConfig bad;
    bad.chase_distance = bad.retreat_distance;
    EXPECT_FALSE(bad.validate().ok());
    BotConfig bad2;
    bad2.aim_error_period = 0;
    EXPECT_FALSE(bad2.validate().ok());
}

}  // namespace
}  // namespace arena::test
