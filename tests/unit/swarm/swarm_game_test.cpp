// Swarm, the heap-world rollback game: its rules (throws, bounces, hits, cooldowns), the contract it meets
// through save/load hooks, and a bot-driven sync test at every rollback depth 1..8 over 10 000 frames.
#include <swarm/swarm_game.hpp>

#include <rewind/session/game_contract.hpp>
#include <rewind/session/rollback/sync_test_session.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>

namespace {

using swarm::Input;
using swarm::State;
using swarm::SwarmGame;

static_assert(!std::is_trivially_copyable_v<State>, "the point of this game");
static_assert(rwd::HasStateSaveLoad<SwarmGame> && rwd::DeterministicGame<SwarmGame>);
static_assert(rwd::contract::deterministic_game<SwarmGame>());

std::array<Input, SwarmGame::kMaxPlayers> idle() { return {}; }

TEST(Swarm, ThrowsTowardTheAimOncePerCooldown) {
    State s = swarm::new_match(2);
    auto in = idle();
    in[0] = Input{0, 0, 4, 1};  // aim +y
    SwarmGame::step(s, in);
    ASSERT_EQ(s.bodies.size(), 1u);
    EXPECT_EQ(s.bodies[0].owner, 0);
    EXPECT_EQ(s.bodies[0].vx, 0);
    EXPECT_GT(s.bodies[0].vy, 0);
    int frames = 1;
    while (s.bodies.size() < 2 && frames < 100) SwarmGame::step(s, in), ++frames;
    EXPECT_EQ(frames, 13) << "one throw, then 12 frames of cooldown";
}

TEST(Swarm, AimTowardPicksTheClosestOfSixteenDirections) {
    EXPECT_EQ(swarm::aim_toward(5, 0), 0);
    EXPECT_EQ(swarm::aim_toward(10, 10), 2);
    EXPECT_EQ(swarm::aim_toward(0, 3), 4);
    EXPECT_EQ(swarm::aim_toward(-1, 0), 8);
    EXPECT_EQ(swarm::aim_toward(0, -9), 12);
    EXPECT_EQ(swarm::aim_toward(100, -41), 15);
}

TEST(Swarm, ABodyBouncesOffTheWallAndExpires) {
    State s = swarm::new_match(1);
    auto in = idle();
    in[0] = Input{-7, 0, 8, 1};  // walk and aim -x
    SwarmGame::step(s, in);
    in[0] = Input{};
    bool bounced = false;
    for (int f = 0; f < 400 && !s.bodies.empty(); ++f) {
        SwarmGame::step(s, in);
        if (!s.bodies.empty() && s.bodies[0].vx > 0) bounced = true;
        if (!s.bodies.empty()) {
            EXPECT_GE(s.bodies[0].x, 0);
            EXPECT_LE(s.bodies[0].x, swarm::kField);
        }
    }
    EXPECT_TRUE(bounced);
    EXPECT_TRUE(s.bodies.empty()) << "the body's time ran out";
}

TEST(Swarm, AHitScoresForTheOwnerAndRemovesTheBody) {
    State s = swarm::new_match(2);  // slot 0 at (1024, 1024), slot 1 at (3072, 1024): same row
    auto in = idle();
    in[0] = Input{0, 0, 0, 1};  // aim +x, at slot 1
    SwarmGame::step(s, in);
    in[0] = Input{};
    for (int f = 0; f < 100 && !s.bodies.empty(); ++f) SwarmGame::step(s, in);
    EXPECT_TRUE(s.bodies.empty());
    EXPECT_EQ(s.players[0].score, 1);
    EXPECT_EQ(s.players[1].score, -1);
}

TEST(Swarm, SeatingTwiceKeepsOnePlayerInSlotOrder) {
    State s;
    for (int slot : {3, 1, 2, 1}) SwarmGame::add_player(s, slot);
    ASSERT_EQ(s.players.size(), 3u);
    EXPECT_TRUE(std::is_sorted(s.players.begin(), s.players.end(),
                               [](const auto& a, const auto& b) { return a.slot < b.slot; }));
}

TEST(Swarm, TheChecksumSeesEveryBody) {
    State a = swarm::new_match(2);
    auto in = idle();
    in[0] = Input{2, 1, 1, 1};
    SwarmGame::step(a, in);
    State b = a;
    EXPECT_EQ(SwarmGame::checksum(a), SwarmGame::checksum(b));
    b.bodies.back().ttl += 1;
    EXPECT_NE(SwarmGame::checksum(a), SwarmGame::checksum(b));
    b = a;
    b.bodies.pop_back();
    EXPECT_NE(SwarmGame::checksum(a), SwarmGame::checksum(b));
}

TEST(Swarm, BotsPlayASyncTestAtEveryDepthWithoutAMismatch) {
    constexpr std::uint64_t kSeed = 17;
    constexpr int kPlayers = 4;
    for (int depth = 1; depth <= 8; ++depth) {
        SCOPED_TRACE("seed=" + std::to_string(kSeed) + " depth=" + std::to_string(depth));
        auto s = rwd::rollback::SyncTestSession<SwarmGame>::create(
                     rwd::rollback::SyncTestConfig{kPlayers, depth}, swarm::new_match(kPlayers))
                     .value();
        std::array<swarm::Bot, kPlayers> bots{swarm::Bot(kSeed), swarm::Bot(kSeed + 1), swarm::Bot(kSeed + 2),
                                              swarm::Bot(kSeed + 3)};
        std::size_t most = 0, least = 1000;
        int hits = 0;
        for (int f = 0; f < 10'000 && s.first_mismatch() == rwd::rollback::kNullFrame; ++f) {
            for (int p = 0; p < kPlayers; ++p) {
                const Input in = bots[static_cast<std::size_t>(p)].think(s.state(), p);
                ASSERT_TRUE(s.add_local_input(p, in).ok());
            }
            s.advance();
            most = std::max(most, s.state().bodies.size());
            if (f > 600) least = std::min(least, s.state().bodies.size());
        }
        for (const auto& p : s.state().players) hits += p.score > 0 ? p.score : 0;
        EXPECT_EQ(s.first_mismatch(), rwd::rollback::kNullFrame);
        EXPECT_EQ(s.current_frame(), 10'000);
        EXPECT_GE(s.checksums_compared(), static_cast<std::uint64_t>((10'000 - depth) * depth));
        EXPECT_GE(most, 12u) << "the world grew on the heap";
        EXPECT_LT(least, most) << "and shrank again";
        EXPECT_GT(hits, 0) << "bots hit each other";
    }
}

TEST(Swarm, BotsAreRepeatableBySeed) {
    const State s = swarm::new_match(3);
    swarm::Bot a(5), b(5), c(6);
    bool differs = false;
    for (int f = 0; f < 200; ++f) {
        const Input x = a.think(s, 1), y = b.think(s, 1), z = c.think(s, 1);
        EXPECT_EQ(x, y);
        differs = differs || !(x == z);
    }
    EXPECT_TRUE(differs);
}

}  // namespace
