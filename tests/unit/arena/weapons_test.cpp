// Weapons: rifle fire rate, magazine, reload, damage, range and walls; death, kill credit, respawn;
// projectiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "arena_test_util.hpp"

namespace arena::test {
namespace {

// Shooter in slot 0 at (20, 40) m aiming east; target in slot 1 `dx` metres east of it.
State duel(double dx) {
    return staged({{0, Point{meters(20), meters(40)}}, {1, Point{meters(20 + dx), meters(40)}}});
}

// Steps with no input until slot 0's first projectile is gone (at most 100 ticks); returns the ticks taken.
int fly_out(State& s) {
    int t = 0;
    while (s.projectiles[0][0].active() && t < 100) {
        step(s, Inputs{});
        ++t;
    }
    return t;
}

Input fire(std::uint8_t buttons = kFire) {
    Input in;
    in.buttons = buttons;
    in.aim = 0;  // east
    return in;
}

// Ticks (1-based) at which slot 0 fired the rifle (its cooldown restarted) while holding `in` for `ticks`
// ticks.
std::vector<int> shot_ticks(State& s, const Input& in, int ticks) {
    std::vector<int> shots;
    for (int t = 1; t <= ticks; ++t) {
        step(s, only(0, in));
        if (s.players[0].fire_cooldown == kRifleInterval) shots.push_back(t);
    }
    return shots;
}

TEST(Weapons, RifleFiresAtItsRate) {
    State s = staged({{0, Point{meters(20), meters(40)}}});
    const auto shots = shot_ticks(s, fire(), 60);
    ASSERT_GE(shots.size(), 2u);
    for (std::size_t i = 1; i < shots.size(); ++i) {
        EXPECT_EQ(shots[i] - shots[i - 1], kRifleInterval);
    }
    EXPECT_EQ(shots.size(), static_cast<std::size_t>(60 / kRifleInterval));
}

TEST(Weapons, EmptyMagazineReloadsThenFiresAgain) {
    State s = staged({{0, Point{meters(20), meters(40)}}});
    const auto shots = shot_ticks(s, fire(), 300);
    ASSERT_GT(shots.size(), static_cast<std::size_t>(kRifleMagazine));
    // The magazine empties after kRifleMagazine shots; the next trigger pull starts a kReloadTicks reload.
    EXPECT_EQ(shots[kRifleMagazine] - shots[kRifleMagazine - 1], kRifleInterval + kReloadTicks);
    for (int i = 1; i < kRifleMagazine; ++i) {
        EXPECT_EQ(shots[i] - shots[i - 1], kRifleInterval);
    }
}

TEST(Weapons, ReloadButtonRefillsAndBlocksFiring) {
    State s = staged({{0, Point{meters(20), meters(40)}}});
    (void)shot_ticks(s, fire(), 3 * kRifleInterval);
    const int ammo = s.players[0].ammo;
    ASSERT_LT(ammo, kRifleMagazine);
    step(s, only(0, fire(kReload)));
    EXPECT_EQ(s.players[0].reload_timer, kReloadTicks);
    // Holding fire during the reload does nothing until it is done.
    int t = 0;
    while (s.players[0].reload_timer > 0) {
        step(s, only(0, fire()));
        ++t;
        if (s.players[0].reload_timer > 0) {
            EXPECT_EQ(s.players[0].ammo, ammo);
        }
    }
    EXPECT_EQ(t, kReloadTicks);
    EXPECT_EQ(s.players[0].ammo,
              kRifleMagazine - 1);  // refilled, and the held trigger fired on the same tick
    // A full magazine does not reload.
    State full = staged({{0, Point{meters(20), meters(40)}}});
    step(full, only(0, fire(kReload)));
    EXPECT_EQ(full.players[0].reload_timer, 0);
}

TEST(Weapons, HitscanDamagesKillsCreditsAndRespawns) {
    State s = duel(10);
    int hits = 0;
    int t = 0;
    while (s.players[1].alive() && t < 200) {
        const int hp = s.players[1].hp;
        step(s, only(0, fire()));
        ++t;
        if (s.players[1].hp < hp) {
            EXPECT_EQ(hp - s.players[1].hp, kRifleDamage);
            ++hits;
        }
    }
    EXPECT_FALSE(s.players[1].alive());
    EXPECT_TRUE(s.players[1].present());
    EXPECT_EQ(hits, (kMaxHp + kRifleDamage - 1) / kRifleDamage);
    EXPECT_EQ(s.players[1].hp, 0);
    EXPECT_EQ(s.players[1].deaths, 1);
    EXPECT_EQ(s.players[0].score, 1);
    EXPECT_EQ(s.players[1].respawn_timer, kRespawnTicks);
    // Dead: not hit, does not move, comes back after the delay at a spawn point with full health.
    int waited = 0;
    while (!s.players[1].alive() && waited < 1000) {
        step(s, only(0, fire()));
        ++waited;
    }
    EXPECT_EQ(waited, kRespawnTicks);
    EXPECT_EQ(s.players[1].hp, kMaxHp);
    EXPECT_EQ(s.players[1].ammo, kRifleMagazine);
    bool at_spawn = false;
    for (const Point& p : spawn_points())
        at_spawn = at_spawn || (p.x == s.players[1].x && p.y == s.players[1].y);
    EXPECT_TRUE(at_spawn);
    EXPECT_EQ(s.players[0].score, 1);
}

TEST(Weapons, RespawnPointsAreSeededAndVary) {
    std::vector<std::int64_t> xs;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        State s = new_match(seed);
        ArenaGame::add_player(s, 2);
        xs.push_back(std::int64_t{s.players[2].x} * 65536 + s.players[2].y);
        State again = new_match(seed);
        ArenaGame::add_player(again, 2);
        EXPECT_EQ(again.players[2].x, s.players[2].x);  // same seed, same spawn
    }
    std::sort(xs.begin(), xs.end());
    EXPECT_GT(std::unique(xs.begin(), xs.end()) - xs.begin(), 3);
    // One player dying again and again comes back at varying spawn points, from its own seeded generator.
    State s = staged({{0, Point{meters(20), meters(40)}}});
    std::vector<std::int64_t> spots;
    for (int life = 0; life < 12; ++life) {
        s.players[0].flags = kPresent;
        s.players[0].respawn_timer = 1;
        step(s, Inputs{});
        ASSERT_TRUE(s.players[0].alive());
        spots.push_back(std::int64_t{s.players[0].x} * 65536 + s.players[0].y);
    }
    std::sort(spots.begin(), spots.end());
    EXPECT_GT(std::unique(spots.begin(), spots.end()) - spots.begin(), 3);
}

TEST(Weapons, RifleRangeAndWallsStopShots) {
    State far = duel(41);  // beyond the 40 m range
    (void)shot_ticks(far, fire(), 30);
    EXPECT_EQ(far.players[1].hp, kMaxHp);

    const Box w = thin_wall(true);  // shoot across the thinnest wall
    const std::int32_t y = (w.min_y + w.max_y) / 2;
    State walled = staged({{0, Point{w.min_x - meters(3), y}}, {1, Point{w.max_x + meters(3), y}}});
    (void)shot_ticks(walled, fire(), 30);
    EXPECT_EQ(walled.players[1].hp, kMaxHp);
    EXPECT_LT(walled.players[0].ammo, kRifleMagazine);  // it did shoot

    State miss = duel(10);
    Input up = fire();
    up.aim = 16384;  // north: away from the target
    (void)shot_ticks(miss, up, 30);
    EXPECT_EQ(miss.players[1].hp, kMaxHp);
}

TEST(Weapons, NearestTargetTakesTheBullet) {
    State s = staged({{0, Point{meters(20), meters(40)}},
                      {1, Point{meters(30), meters(40)}},
                      {2, Point{meters(25), meters(40)}}});
    step(s, only(0, fire()));
    EXPECT_EQ(s.players[1].hp, kMaxHp);
    EXPECT_EQ(s.players[2].hp, kMaxHp - kRifleDamage);
}

TEST(Weapons, ProjectileFliesAndExpiresAfterItsLifetime) {
    // Launched north from the south-east corner area, where 18 m of flight meets no wall.
    State s = staged({{0, Point{meters(60), meters(36)}}});
    Input in = fire(kAltFire);
    in.aim = 16384;
    step(s, only(0, in));
    const Projectile& pr = s.projectiles[0][0];
    ASSERT_TRUE(pr.active());
    EXPECT_EQ(pr.ttl, kRocketTtl);
    EXPECT_EQ(s.players[0].shots, 1);
    const std::int32_t y0 = pr.y;
    step(s, Inputs{});
    EXPECT_EQ(pr.y - y0, kRocketSpeed);
    EXPECT_EQ(pr.x, meters(60));
    int lived = 1;
    while (pr.active() && lived < 1000) {
        step(s, Inputs{});
        ++lived;
    }
    EXPECT_EQ(lived, kRocketTtl);
    std::vector<ArenaGame::EntityRecord> ents;
    ArenaGame::capture(s, ents);
    EXPECT_EQ(ents.size(), 1u);  // despawned: only the player is left
}

TEST(Weapons, ProjectileHitsPlayerButNotItsOwner) {
    State s = duel(6);
    step(s, only(0, fire(kAltFire)));
    ASSERT_TRUE(s.projectiles[0][0].active());
    const int t = fly_out(s);
    EXPECT_EQ(s.players[1].hp, kMaxHp - kRocketDamage);
    EXPECT_EQ(s.players[0].hp, kMaxHp);
    // Reached the target's surface: (6 m - 0.5 m - 0.15 m) at kRocketSpeed per tick.
    EXPECT_NEAR(t, (meters(6) - kPlayerRadius - kRocketRadius) / kRocketSpeed + 1, 1);
}

TEST(Weapons, ProjectileReachIsExactBesideItsPath) {
    // A rocket flying east passes slot 1 exactly at reach (player radius + rocket radius: no hit) and then
    // slot 2 one unit closer (a hit), each level with one of its sub-steps.
    constexpr std::int32_t kReach = kPlayerRadius + kRocketRadius;
    const std::int32_t x0 = meters(20), y0 = meters(40);
    State s = staged({{0, Point{x0, y0}},
                      {1, Point{x0 + 8 * kRocketSpeed, y0 + kReach}},
                      {2, Point{x0 + 12 * kRocketSpeed, y0 - (kReach - 1)}}});
    step(s, only(0, fire(kAltFire)));
    ASSERT_TRUE(s.projectiles[0][0].active());
    ASSERT_EQ(s.projectiles[0][0].vx, kRocketSpeed);
    ASSERT_EQ(s.projectiles[0][0].vy, 0);
    const int t = fly_out(s);
    EXPECT_EQ(t, 12);
    EXPECT_EQ(s.players[1].hp, kMaxHp);
    EXPECT_EQ(s.players[2].hp, kMaxHp - kRocketDamage);
}

TEST(Weapons, ProjectileStopsAtWalls) {
    const Box w = thin_wall(true);
    const std::int32_t y = (w.min_y + w.max_y) / 2;
    State s = staged({{0, Point{w.min_x - meters(3), y}}, {1, Point{w.max_x + meters(2), y}}});
    step(s, only(0, fire(kAltFire)));
    const int t = fly_out(s);
    EXPECT_LT(t, 20);
    EXPECT_EQ(s.players[1].hp, kMaxHp);
}

TEST(Weapons, LauncherCooldownAndSlotRing) {
    State s = staged({{0, Point{meters(60), meters(36)}}});
    Input in = fire(kAltFire);
    in.aim = 16384;
    int launched = 0;
    for (int t = 0; t < 10 * kRocketCooldown; ++t) {
        const std::uint16_t before = s.players[0].shots;
        step(s, only(0, in));
        launched += s.players[0].shots != before ? 1 : 0;
        int live = 0;
        for (const Projectile& pr : s.projectiles[0]) live += pr.active() ? 1 : 0;
        EXPECT_LE(live, (kRocketTtl + kRocketCooldown - 1) / kRocketCooldown);
    }
    EXPECT_EQ(launched, 10);
}

TEST(Weapons, RemovedPlayerLeavesNothingBehind) {
    State s = duel(10);
    step(s, only(1, fire(kAltFire)));
    ArenaGame::remove_player(s, 1);
    std::vector<ArenaGame::EntityRecord> ents;
    ArenaGame::capture(s, ents);
    ASSERT_EQ(ents.size(), 1u);
    EXPECT_EQ(ents[0].id, ArenaGame::player_entity(0));
    const Player empty{};
    EXPECT_EQ(std::memcmp(&s.players[1], &empty, sizeof(Player)), 0);
}

}  // namespace
}  // namespace arena::test
