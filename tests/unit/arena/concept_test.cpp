// ArenaGame satisfies the library's game concepts, and the forensic hooks (State serialize, describe_diff)
// work.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/wire/stream.hpp>

#include "arena_test_util.hpp"

namespace arena::test {
namespace {

static_assert(rwd::DeterministicGame<ArenaGame>);
static_assert(rwd::ServerGame<ArenaGame>);
static_assert(rwd::ReplicatedGame<ArenaGame>);
static_assert(rwd::StateSerializable<ArenaGame>);
static_assert(rwd::DescribesDiff<ArenaGame>);
// The arena is the reference game: it implements every optional hook of the contract.
static_assert(rwd::StepsRewound<ArenaGame> && rwd::HasLagCompensation<ArenaGame>);
static_assert(rwd::HasInputSanitizer<ArenaGame> && rwd::HasInterpolation<ArenaGame>);
static_assert(rwd::HasFieldDiff<ArenaGame> && rwd::HasPositionError<ArenaGame> &&
              rwd::HasMetersPerUnit<ArenaGame>);
static_assert(rwd::HasRenderOffset<ArenaGame> && rwd::HasDeltaCodec<ArenaGame>);
static_assert(rwd::HasEntityPrediction<ArenaGame> && rwd::HasRemoteView<ArenaGame> &&
              rwd::HasSnapshotModel<ArenaGame>);
static_assert(rwd::contract::replicated_game<ArenaGame>());

TEST(Forensics, StateSerializesBitForBit) {
    State s = new_match(5);
    for (int i = 0; i < 8; ++i) ArenaGame::add_player(s, i);
    Inputs in{};
    in[3].move_x = 90;
    in[3].buttons = kAltFire | kFire;
    for (int t = 0; t < 20; ++t) step(s, in);
    std::vector<std::uint8_t> buf(16384);
    rwd::wire::WriteStream w(buf);
    ASSERT_TRUE(serialize(w, s));
    w.flush();
    rwd::wire::MeasureStream m;
    ASSERT_TRUE(serialize(m, s));
    EXPECT_EQ(m.bits_used(), w.bits_used());
    rwd::wire::ReadStream r(w.data());
    State back{};
    ASSERT_TRUE(serialize(r, back));
    EXPECT_EQ(ArenaGame::checksum(back), ArenaGame::checksum(s));
    std::string diff;
    ArenaGame::describe_diff(s, back, diff);
    EXPECT_EQ(diff, "");
}

TEST(Forensics, DescribeDiffNamesEveryDifferingField) {
    State a = new_match(5);
    ArenaGame::add_player(a, 2);
    State b = a;
    b.players[2].x += 3;
    b.players[2].hp = 7;
    b.projectiles[1][3].ttl = 9;
    b.tick = 4;
    std::string diff;
    ArenaGame::describe_diff(a, b, diff);
    EXPECT_NE(diff.find("players[2].x: " + std::to_string(a.players[2].x) + " -> " +
                        std::to_string(a.players[2].x + 3)),
              std::string::npos)
        << diff;
    EXPECT_NE(diff.find("players[2].hp: 100 -> 7"), std::string::npos) << diff;
    EXPECT_NE(diff.find("projectiles[1][3].ttl: 0 -> 9"), std::string::npos) << diff;
    EXPECT_NE(diff.find("state.tick: 0 -> 4"), std::string::npos) << diff;
    EXPECT_EQ(std::count(diff.begin(), diff.end(), '\n'), 4);
    EXPECT_NE(ArenaGame::checksum(a), ArenaGame::checksum(b));
}

}  // namespace
}  // namespace arena::test
