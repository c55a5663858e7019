// A client-server match whose world lives on the heap: clients predict and reconcile with copies of a
// std::vector world, the server records and replays late inputs over it, and everyone ends where the server
// is.
#include "heap_dots_game.hpp"
#include "toy_harness.hpp"

#include <rewind/session/game_contract.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using heap_dots::HeapDotsGame;

static_assert(rwd::ReplicatedGame<HeapDotsGame>);
static_assert(rwd::contract::replicated_game<HeapDotsGame>());

HeapDotsGame::Input dir(int dx, int dy) {
    HeapDotsGame::Input in;
    in.dx = static_cast<std::int8_t>(dx);
    in.dy = static_cast<std::int8_t>(dy);
    return in;
}

const HeapDotsGame::Dot* dot_of(const HeapDotsGame::State& s, int slot) {
    for (const auto& d : s.dots)
        if (d.slot == slot) return &d;
    return nullptr;
}

TEST(HeapWorld, ClientServerMatchOnAJitteryLossyLinkEndsWhereTheServerIs) {
    constexpr std::uint64_t kSeed = 5151;
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    // Jitter makes some inputs late: the server replays them over its recorded heap worlds.
    toy::Match<HeapDotsGame> m(kSeed, toy::link(60, 20, 0.05));
    for (int i = 0; i < 3; ++i) m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    EXPECT_EQ(m.server->state().dots.size(), 3u);  // the world grew with the seats
    // Inputs that change every few ticks: a late one differs from the repeat the server played, so it is
    // replayed.
    for (int round = 0; round < 120; ++round) {
        for (int i = 0; i < 3; ++i) m.client(i).set_input(dir((round + i) % 9 - 4, (round * 3 + i) % 9 - 4));
        m.run(rwd::Micros{35'000});
    }
    for (int i = 0; i < 3; ++i) m.client(i).set_input(HeapDotsGame::Input{});
    m.run(rwd::Micros{1'500'000});

    for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE("client " + std::to_string(i));
        auto& c = m.client(i);
        const int slot = c.slot();
        ASSERT_GE(slot, 0);
        const auto* dot = dot_of(m.server->state(), slot);
        ASSERT_NE(dot, nullptr);
        EXPECT_FALSE(dot->x == 0 && dot->y == 0) << "the player moved";
        const auto own = c.own_entity();
        ASSERT_TRUE(own.has_value());
        EXPECT_EQ(own->x, dot->x);
        EXPECT_EQ(own->y, dot->y);
        // The predicted world is a copy of the heap world with every seat in it.
        EXPECT_EQ(c.predicted_state().dots.size(), 3u);
        EXPECT_GT(c.stats().reconciliations, 0u);
        for (const auto& e : c.render_entities(m.now)) {
            if (e.id == HeapDotsGame::player_entity(slot)) continue;
            const auto* other = dot_of(m.server->state(), static_cast<int>(e.id));
            ASSERT_NE(other, nullptr);
            EXPECT_EQ(e.snap.x, other->x);
            EXPECT_EQ(e.snap.y, other->y);
        }
    }
    // Late inputs were replayed over the recorded heap worlds (the world check by checksum lets them).
    EXPECT_GT(m.server->stats().inputs_late, 0u);
    EXPECT_GT(m.server->stats().replays, 0u);
}

TEST(HeapWorld, ALeavingPlayerShrinksTheWorldEverywhere) {
    constexpr std::uint64_t kSeed = 5152;
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    toy::Match<HeapDotsGame> m(kSeed, toy::link(30, 5, 0.0));
    for (int i = 0; i < 3; ++i) m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.client(1).disconnect(m.now);
    m.run(rwd::Micros{1'000'000});
    EXPECT_EQ(m.server->state().dots.size(), 2u);
    for (int i : {0, 2}) {
        SCOPED_TRACE("client " + std::to_string(i));
        m.client(i).set_input(dir(2, 2));
    }
    m.run(rwd::Micros{1'000'000});
    m.client(0).set_input(HeapDotsGame::Input{});
    m.client(2).set_input(HeapDotsGame::Input{});
    m.run(rwd::Micros{1'000'000});
    for (int i : {0, 2}) {
        SCOPED_TRACE("client " + std::to_string(i));
        EXPECT_EQ(m.client(i).predicted_state().dots.size(), 2u);
        const auto* dot = dot_of(m.server->state(), m.client(i).slot());
        ASSERT_NE(dot, nullptr);
        EXPECT_EQ(m.client(i).own_entity()->x, dot->x);
    }
}

}  // namespace
