/// Server<ToyGame>: a shot is judged against the world its shooter was sent
/// (ServerConfig::judge_shots_as_seen).
#include "toy_harness.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using namespace toy;
using rwd::Micros;
namespace cs = rwd::client_server;

struct RowShots {
    std::int64_t shots = 0;      ///< shots the server ran for the shooter
    std::int32_t near_hits = 0;  ///< hits the player inside the shooter's area of interest took
    std::int32_t far_hits = 0;   ///< hits the player outside it took
    bool far_sent = true;        ///< the shooter's newest snapshot held the far player
    bool near_sent = false;      ///< ... and the near one
};

// Three toy players start at the origin. The near one walks 3 m right, the far one 8 m right, both staying
// on the shooter's row; the shooter, at the origin with a 5 m area of interest, then fires along the row
// (the toy's hitscan passes through everyone on it) for one second over a 40 ms link.
RowShots fire_along_the_row(std::uint64_t seed, bool judge_as_seen) {
    cs::ServerConfig sc;
    sc.snapshots.aoi_radius_m = 5.0;
    sc.judge_shots_as_seen = judge_as_seen;
    Match<> m(seed, link(40, 2), sc);
    const int shooter = m.connect_client();
    const int near = m.connect_client();
    const int far = m.connect_client();
    EXPECT_TRUE(m.run_until_playing());
    auto& sc_client = m.client(shooter);
    auto& nc = m.client(near);
    auto& fc = m.client(far);
    nc.set_input(move(100, 0));
    fc.set_input(move(100, 0));
    m.run(Micros{5'000'000}, [&] {
        if (auto own = nc.own_entity(); own && own->x >= 3000) nc.set_input(move(0, 0));
        if (auto own = fc.own_entity(); own && own->x >= 8000) fc.set_input(move(0, 0));
    });
    const auto& before = m.server->state().players;
    const auto s = static_cast<std::size_t>(sc_client.slot());
    const auto n = static_cast<std::size_t>(nc.slot());
    const auto f = static_cast<std::size_t>(fc.slot());
    const std::int64_t shots0 = before[s].shots;
    const std::int32_t near0 = before[n].hits_taken, far0 = before[f].hits_taken;
    sc_client.set_input(move(0, 0, true));
    m.run(Micros{1'000'000});
    sc_client.set_input(move(0, 0));
    m.run(Micros{500'000});
    const auto& after = m.server->state().players;
    RowShots r;
    r.shots = after[s].shots - shots0;
    r.near_hits = after[n].hits_taken - near0;
    r.far_hits = after[f].hits_taken - far0;
    r.far_sent = r.near_sent = false;
    for (const auto& e : sc_client.newest_snapshot_entities()) {
        r.far_sent = r.far_sent || e.id == ToyGame::player_entity(fc.slot());
        r.near_sent = r.near_sent || e.id == ToyGame::player_entity(nc.slot());
    }
    return r;
}

TEST(CsShotVisibility, APlayerTheShooterWasNotSentIsNotHit) {
    const std::uint64_t seed = 31;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const RowShots r = fire_along_the_row(seed, true);
    ASSERT_GE(r.shots, 5);
    ASSERT_TRUE(r.near_sent);
    ASSERT_FALSE(r.far_sent);  // outside the area of interest: never on the shooter's screen
    EXPECT_EQ(r.near_hits, r.shots);
    EXPECT_EQ(r.far_hits, 0);
}

TEST(CsShotVisibility, WithoutTheRuleEveryPlayerOnTheLineIsHit) {
    const std::uint64_t seed = 31;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const RowShots r = fire_along_the_row(seed, false);
    ASSERT_GE(r.shots, 5);
    ASSERT_FALSE(r.far_sent);
    EXPECT_EQ(r.near_hits, r.shots);
    EXPECT_EQ(r.far_hits, r.shots);
}

}  // namespace
