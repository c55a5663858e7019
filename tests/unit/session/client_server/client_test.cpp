/// Client<G>, the adapter: the own player is captured once per predicted state, the newest snapshot is API
/// (the server's world, uninterpolated), the interpolation depth is per entity, and remote players are
/// predicted with the game's guess of their input.
#include "toy_harness.hpp"

#include <rewind/session/client_server/client.hpp>

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace toy;
using rwd::Micros;
using rwd::Tick;
namespace cs = rwd::client_server;

/// ToyGame's step for a game derived from it (its rewound targets are ToyGame's under another name).
template <class G>
void step_as_toy(ToyGame::State& s, std::span<const ToyGame::Input> inputs,
                 const rwd::RewoundTargets<G>* rewound) {
    if (!rewound) return ToyGame::step(s, inputs, nullptr);
    rwd::RewoundTargets<ToyGame> same;
    same.active = rewound->active;
    same.targets = rewound->targets;
    ToyGame::step(s, inputs, &same);
}

/// ToyGame that counts G::capture calls (the cost own_entity() must not pay once per question).
struct CountingGame : ToyGame {
    static inline std::uint64_t captures = 0;
    static void capture(const State& s, std::vector<EntityRecord>& out) {
        ++captures;
        ToyGame::capture(s, out);
    }
    static void step(State& s, std::span<const Input> inputs,
                     const rwd::RewoundTargets<CountingGame>* rewound) {
        step_as_toy(s, inputs, rewound);
    }
};

TEST(Client, OwnEntityIsCapturedOncePerPredictedStateNotOncePerQuestion) {
    Match<CountingGame> m(3, link(30, 2));
    m.connect_client();
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    auto& c = m.client(0);
    c.set_input(move(100, 20));

    // 1 ms frames (about 16 per tick), each asking for the own player three times, as the client app does.
    std::uint64_t client_captures = 0;
    const Tick tick_before = c.tick();
    const auto reconciliations_before = c.stats().reconciliations;
    for (int f = 0; f < 2000; ++f) {
        m.now += Micros{1000};
        m.server->update(m.now);
        m.client(1).update(m.now);
        const std::uint64_t before = CountingGame::captures;
        c.update(m.now);
        (void)c.render_entities(m.now);
        (void)c.smoothed_own_entity();
        (void)c.own_entity();
        client_captures += CountingGame::captures - before;
    }
    const auto ticks = static_cast<std::uint64_t>(c.tick() - tick_before);
    const std::uint64_t reconciliations = c.stats().reconciliations - reconciliations_before;
    ASSERT_GT(ticks, 100u);
    ASSERT_GT(reconciliations, 50u);
    // At most one capture per predicted tick, plus per snapshot the acknowledged tick's prediction and the
    // reconciled world.
    EXPECT_LE(client_captures, ticks + 2 * reconciliations);

    // Asking again without a new tick or snapshot captures nothing.
    const std::uint64_t before = CountingGame::captures;
    for (int i = 0; i < 100; ++i) {
        ASSERT_TRUE(c.own_entity().has_value());
        (void)c.smoothed_own_entity();
        (void)c.render_entities(m.now);
    }
    EXPECT_EQ(CountingGame::captures, before);
    // And the cached answer is the predicted world's.
    std::vector<ToyGame::EntityRecord> world;
    ToyGame::capture(c.predicted_state(), world);
    const std::uint32_t own_id = ToyGame::player_entity(c.slot());
    for (const auto& e : world) {
        if (e.id == own_id) {
            EXPECT_EQ(e.snap, *c.own_entity());
        }
    }
}

TEST(Client, NewestSnapshotEntitiesAreTheServersWorldAtTheNewestTick) {
    Match<> m(5, link(20, 3));
    m.connect_client();
    m.connect_client();
    EXPECT_TRUE(m.client(0).newest_snapshot_entities().empty());
    ASSERT_TRUE(m.run_until_playing());
    m.client(0).set_input(move(60, -40));
    m.client(1).set_input(move(-100, 10));
    std::map<std::uint32_t, std::vector<ToyGame::EntityRecord>> worlds;  // server tick -> captured world
    int compared = 0;
    m.run(Micros{1'500'000}, [&] {
        auto& world = worlds[(m.server->tick() - 1).value];
        ToyGame::capture(m.server->state(), world);
        const auto& c = m.client(1);
        const auto it = worlds.find(c.newest_server_tick().value);
        if (it == worlds.end()) return;
        const auto got = c.newest_snapshot_entities();
        ASSERT_EQ(got.size(), it->second.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i].id, it->second[i].id);
            EXPECT_EQ(got[i].snap, it->second[i].snap);
        }
        ++compared;
    });
    EXPECT_GT(compared, 1000);
}

TEST(Client, EntityBufferDepthIsPerEntity) {
    Match<> m(9, link(20));
    m.connect_client();
    m.connect_client();
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.run(Micros{500'000});
    auto& c = m.client(0);
    (void)c.render_entities(m.now);
    const std::uint32_t own = ToyGame::player_entity(c.slot());
    const std::uint32_t leaving = ToyGame::player_entity(m.client(2).slot());
    auto stats = c.entity_buffer_stats();
    ASSERT_EQ(stats.size(), 2u);  // the other two players, never the own one
    for (const auto& e : stats) {
        EXPECT_NE(e.id, own);
        EXPECT_DOUBLE_EQ(e.depth_ticks, c.stats().interp_buffer_ticks);  // both in the newest snapshot
    }

    // One player leaves: its newest data stops while the others' keeps coming.
    m.client(2).disconnect(m.now);
    m.run(Micros{250'000});
    (void)c.render_entities(m.now);
    stats = c.entity_buffer_stats();
    ASSERT_EQ(stats.size(), 2u);
    for (const auto& e : stats) {
        if (e.id == leaving) {
            EXPECT_LT(e.depth_ticks, c.stats().interp_buffer_ticks - 10.0);
        } else {
            EXPECT_DOUBLE_EQ(e.depth_ticks, c.stats().interp_buffer_ticks);
        }
    }
}

}  // namespace

/// ToyGame whose clients guess that the player in an even slot runs along +x at full speed and one in an odd
/// slot along -x (an empty seat: no input), so a guess asked for the wrong slot or state is wrong.
struct GuessingGame : ToyGame {
    static Input remote_input(const State& s, int slot) {
        if (!s.players[static_cast<std::size_t>(slot)].present) return Input{};
        return move(slot % 2 == 0 ? 100 : -100, 0);
    }
    static void step(State& s, std::span<const Input> inputs,
                     const rwd::RewoundTargets<GuessingGame>* rewound) {
        step_as_toy(s, inputs, rewound);
    }
};

/// How many of client 0's predicted ticks put the remote player (client 1, moving as GuessingGame guesses)
/// where the server had it at that tick, and how many were compared.
std::pair<int, int> remote_predictions_right(bool predict_remote_inputs) {
    Match<GuessingGame> m(9, link(40, 3));
    m.client_config.predict_remote_inputs = predict_remote_inputs;
    m.connect_client();
    m.connect_client();
    if (!m.run_until_playing()) return {0, 0};
    m.client(1).set_input(GuessingGame::remote_input(m.server->state(), m.client(1).slot()));
    const auto remote = static_cast<std::size_t>(m.client(1).slot());
    std::map<std::uint32_t, std::int32_t> server_x, predicted_x;  // tick -> the remote's x
    m.run(Micros{3'000'000}, [&] {
        server_x[(m.server->tick() - 1).value] = m.server->state().players[remote].x;
        const auto& c = m.client(0);
        predicted_x[(c.tick() - 1).value] = c.predicted_state().players[remote].x;
    });
    int right = 0, compared = 0;
    for (const auto& [t, x] : predicted_x) {
        const auto it = server_x.find(t);
        if (t < predicted_x.begin()->first + 30 || it == server_x.end()) continue;  // after half a second
        ++compared;
        right += x == it->second ? 1 : 0;
    }
    return {right, compared};
}

TEST(Client, RemotePlayersArePredictedWithTheGamesGuessOfTheirInput) {
    // The remote player does exactly what the game guesses: every predicted tick has it where the server
    // does.
    const auto [right, compared] = remote_predictions_right(true);
    EXPECT_GT(compared, 120);
    EXPECT_EQ(right, compared);
    // With the guess turned off it stands still in the prediction, behind the server by the prediction's
    // lead.
    const auto [right_off, compared_off] = remote_predictions_right(false);
    EXPECT_GT(compared_off, 120);
    EXPECT_EQ(right_off, 0);
}
