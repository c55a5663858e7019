// A game with only the required hooks runs a client-server match on a lossy link and a rollback sync test:
// the defaults (plain step, no lag compensation, held interpolation, "entity" diffs, whole-entity deltas).
#include "dots_game.hpp"
#include "toy_harness.hpp"

#include <rewind/session/game_hooks.hpp>
#include <rewind/session/rollback/sync_test_session.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace {

using dots::DotsGame;

static_assert(rwd::ReplicatedGame<DotsGame>);
static_assert(rwd::StepsPlain<DotsGame> && !rwd::StepsRewound<DotsGame>);
static_assert(!rwd::HasLagCompensation<DotsGame> && !rwd::HasInputSanitizer<DotsGame>);
static_assert(!rwd::HasInterpolation<DotsGame> && !rwd::HasFieldDiff<DotsGame> &&
              !rwd::HasPositionError<DotsGame>);
static_assert(!rwd::HasRenderOffset<DotsGame> && !rwd::HasDeltaCodec<DotsGame> &&
              !rwd::HasMetersPerUnit<DotsGame>);
static_assert(rwd::contract::replicated_game<DotsGame>());

DotsGame::Input dir(int dx, int dy) {
    DotsGame::Input in;
    in.dx = static_cast<std::int8_t>(dx);
    in.dy = static_cast<std::int8_t>(dy);
    return in;
}

TEST(MinimalContract, DefaultsAreTheDocumentedOnes) {
    const DotsGame::EntitySnapshot a{1, 2}, b{5, 6};
    EXPECT_EQ(rwd::hooks::interpolate<DotsGame>(a, b, 0.25f), b);  // holds the newer snapshot
    EXPECT_EQ(rwd::hooks::diff_fields<DotsGame>(a, a), 0u);
    EXPECT_EQ(rwd::hooks::diff_fields<DotsGame>(a, b), 1u);
    EXPECT_EQ(rwd::hooks::field_name<DotsGame>(0), "entity");
    EXPECT_EQ(rwd::hooks::position_error_q<DotsGame>(a, b), 0);
    EXPECT_EQ(rwd::hooks::with_render_offset<DotsGame>(a, {1.0, 2.0, 0.0}), a);
    EXPECT_EQ(rwd::hooks::meters_per_unit<DotsGame>(), 1.0);
    std::uint32_t violations = 0;
    EXPECT_EQ(rwd::hooks::sanitize<DotsGame>(dir(3, -2), violations), dir(3, -2));
    EXPECT_EQ(violations, 0u);
    EXPECT_FALSE(rwd::hooks::fires<DotsGame>(dir(1, 1)));
    EXPECT_EQ(rwd::lerp_linear(10, 20, 0.25f), 13);  // 12.5 rounds away from zero
    EXPECT_EQ(rwd::lerp_linear(-10, 10, 0.5f), 0);
}

TEST(MinimalContract, ClientServerMatchOnALossyLink) {
    constexpr std::uint64_t kSeed = 4242;
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    toy::Match<DotsGame> m(kSeed, toy::link(40, 8, 0.05));
    for (int i = 0; i < 3; ++i) m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    const std::array<DotsGame::Input, 3> moves{dir(1, 0), dir(0, -2), dir(-3, 1)};
    for (int i = 0; i < 3; ++i) m.client(i).set_input(moves[static_cast<std::size_t>(i)]);
    m.run(rwd::Micros{2'000'000});
    for (int i = 0; i < 3; ++i) m.client(i).set_input(DotsGame::Input{});
    m.run(rwd::Micros{1'500'000});

    const auto& world = m.server->state().dots;
    for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE("client " + std::to_string(i));
        auto& c = m.client(i);
        const int slot = c.slot();
        ASSERT_GE(slot, 0);
        const auto& dot = world[static_cast<std::size_t>(slot)];
        EXPECT_NE(dot.x == 0 && dot.y == 0, true) << "the player moved";
        // The prediction agrees with the server once everyone stands still.
        const auto own = c.own_entity();
        ASSERT_TRUE(own.has_value());
        EXPECT_EQ(own->x, dot.x);
        EXPECT_EQ(own->y, dot.y);
        // Without render hooks the drawn player is the prediction.
        EXPECT_EQ(c.smoothed_own_entity(), own);
        // Every other dot is drawn where the server has it (held, not interpolated).
        int others = 0;
        for (const auto& e : c.render_entities(m.now)) {
            if (e.id == DotsGame::player_entity(slot)) continue;
            ++others;
            EXPECT_EQ(e.snap.x, world[e.id].x);
            EXPECT_EQ(e.snap.y, world[e.id].y);
        }
        EXPECT_EQ(others, 2);
        EXPECT_EQ(m.server->client_stats(slot).shots, 0u);
        // Corrections (5 % loss repeats inputs) name the default field and have no known size.
        for (const auto& corr : c.corrections()) {
            EXPECT_EQ(corr.fields, 1u);
            EXPECT_EQ(corr.error_q, 0);
        }
    }
}

TEST(MinimalContract, RollbackSyncTestWithThePlainStep) {
    DotsGame::State ref{};
    DotsGame::add_player(ref, 0);
    DotsGame::add_player(ref, 1);
    auto s =
        rwd::rollback::SyncTestSession<DotsGame>::create(rwd::rollback::SyncTestConfig{2, 6}, ref).value();
    for (int f = 0; f < 600; ++f) {
        const DotsGame::Input a = dir(f % 9 - 4, (f / 7) % 9 - 4), b = dir((f * 5) % 9 - 4, 1);
        ASSERT_TRUE(s.add_local_input(0, a).ok());
        ASSERT_TRUE(s.add_local_input(1, b).ok());
        s.advance();
        const std::array<DotsGame::Input, DotsGame::kMaxPlayers> in{a, b};
        DotsGame::step(ref, in);
    }
    EXPECT_EQ(s.first_mismatch(), rwd::rollback::kNullFrame);
    EXPECT_GT(s.frames_resimulated(), 0u);
    EXPECT_EQ(DotsGame::checksum(s.state()), DotsGame::checksum(ref));
}

}  // namespace
