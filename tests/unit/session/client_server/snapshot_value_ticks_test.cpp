/// Client::newest_snapshot_value_ticks(): how old the value of each entity the client holds is, what the
/// server's byte budget costs in staleness.
#include "toy_harness.hpp"

#include <gtest/gtest.h>

namespace {

namespace cs = rwd::client_server;
using rwd::Micros;
using toy::ToyGame;

TEST(ValueTicks, EveryEntityValueIsFromTheNewestSnapshotWithoutABudget) {
    toy::Match<> m(8);
    for (int i = 0; i < 3; ++i) m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.run(Micros{500'000}, [&] {
        for (auto& p : m.server->state().players)
            if (p.present) p.x = (p.x + 7) % ToyGame::kBound;
    });
    const auto& c = m.client(0);
    ASSERT_EQ(c.newest_snapshot_value_ticks().size(), c.newest_snapshot_entities().size());
    ASSERT_FALSE(c.newest_snapshot_entities().empty());
    for (const rwd::Tick t : c.newest_snapshot_value_ticks()) EXPECT_EQ(t, c.newest_server_tick());
}

TEST(ValueTicks, AnEntityTheBudgetLeftOutKeepsTheTickOfItsValue) {
    cs::ServerConfig sc;
    sc.snapshots.budget_bytes = 24;  // the header, the own player and little else
    toy::Match<> m(9, {}, sc);
    for (int i = 0; i < 8; ++i) m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    bool behind = false;
    m.run(Micros{1'000'000}, [&] {
        for (auto& p : m.server->state().players)
            if (p.present) p.x = (p.x + 997) % ToyGame::kBound;
        const auto& c = m.client(0);
        const auto ticks = c.newest_snapshot_value_ticks();
        for (const rwd::Tick t : ticks) {
            EXPECT_LE(t, c.newest_server_tick());
            behind = behind || t < c.newest_server_tick();
        }
    });
    EXPECT_TRUE(behind) << "some entity was left out and shows an older value";
}

}  // namespace
