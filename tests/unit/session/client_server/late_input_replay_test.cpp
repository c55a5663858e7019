// Late inputs replayed by the server: the client's prediction stands, the budget bounds it, an app's write
// to the world stops replays over it, and without replays the same network corrects the client.
#include "toy_harness.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using namespace toy;
using rwd::Micros;
namespace cs = rwd::client_server;

struct Outcome {
    std::uint64_t late = 0;
    std::uint64_t replayed = 0;
    std::uint64_t refused = 0;
    std::uint64_t replays = 0;
    std::uint64_t corrections = 0;  // after the client settled
    std::uint64_t deferred = 0;
};

/// One client on a 40 ms link whose input changes every tick; `bursts` times the up link's latency jumps
/// by 50 ms for 60 ms, so that a few inputs arrive after their tick. `write_world` writes to the server's
/// world (a change to an empty seat) after every frame.
Outcome run(std::uint64_t seed, int replay_ticks, double share, int bursts, bool write_world = false,
            bool constant_input = false) {
    SCOPED_TRACE("seed=" + std::to_string(seed));
    cs::ServerConfig sc;
    sc.late_input_replay_ticks = replay_ticks;
    sc.max_replayed_share = share;
    sc.adaptive_input_buffer = false;  // a fixed 2-tick buffer: the bursts must make inputs late
    Match<> m(seed, link(40), sc);
    const int c = m.connect_client();
    EXPECT_TRUE(m.run_until_playing());
    auto each = [&] {
        auto& cl = m.client(c);
        cl.set_input(constant_input ? move(100, 50) : move(cl.tick().value % 2 ? 100 : -100, 50));
        if (write_world) m.server->state().players[5].x += 1;  // seat 5 is empty: nothing else changes
    };
    m.run(Micros{2'000'000}, each);
    const std::uint64_t settled = m.client(c).stats().corrections;
    for (int b = 0; b < bursts; ++b) {
        EXPECT_TRUE(m.net->set_link(m.client_addrs[0], m.server_addr, link(90)).ok());
        m.run(Micros{60'000}, each);
        EXPECT_TRUE(m.net->set_link(m.client_addrs[0], m.server_addr, link(40)).ok());
        m.run(Micros{1'500'000}, each);
    }
    const auto& st = m.server->client_stats(m.client(c).slot());
    Outcome o;
    o.late = st.inputs_late;
    o.replayed = st.inputs_replayed;
    o.refused = st.inputs_replay_refused;
    o.replays = m.server->stats().replays;
    o.corrections = m.client(c).stats().corrections - settled;
    o.deferred = m.client(c).stats().reconciles_deferred;
    EXPECT_EQ(m.client(c).phase(), cs::ClientPhase::playing);
    return o;
}

TEST(LateInputReplay, ALateInputIsAppliedAfterAllAndThePredictionStands) {
    const Outcome o = run(31, 8, 0.02, 3);
    EXPECT_GT(o.late, 0u);
    EXPECT_EQ(o.replayed, o.late);
    EXPECT_EQ(o.refused, 0u);
    EXPECT_GT(o.replays, 0u);
    EXPECT_GT(o.deferred, 0u);  // the provisional snapshots in between were not corrected to
    EXPECT_EQ(o.corrections, 0u);
}

TEST(LateInputReplay, WithoutReplayTheSameNetworkCorrectsTheClient) {
    const Outcome o = run(31, 0, 0.02, 3);
    EXPECT_GT(o.late, 0u);
    EXPECT_EQ(o.replayed, 0u);
    EXPECT_EQ(o.replays, 0u);
    EXPECT_EQ(o.deferred, 0u);
    EXPECT_GT(o.corrections, 0u);
}

TEST(LateInputReplay, TheBudgetBoundsWhatOneClientGetsReplayed) {
    // A share so small the bucket (2 x 8 tokens) never refills: after 16 replayed inputs the repeats stand.
    const Outcome o = run(32, 8, 1e-6, 16);
    EXPECT_GT(o.late, 16u);
    EXPECT_EQ(o.replayed, 16u);
    EXPECT_EQ(o.refused, o.late - 16u);
}

TEST(LateInputReplay, AWriteToTheWorldIsNeverReplayedOver) {
    const Outcome o = run(31, 8, 0.02, 3, true);
    EXPECT_GT(o.late, 0u);
    EXPECT_EQ(o.replays, 0u);  // every late input's tick lies before a write
    EXPECT_EQ(o.replayed, 0u);
}

TEST(LateInputReplay, ALateInputEqualToItsRepeatCostsNoReplay) {
    // The same bursts with an input that never changes: every repeat was right.
    const Outcome o = run(31, 8, 0.02, 3, false, true);
    EXPECT_GT(o.late, 0u);
    EXPECT_EQ(o.replays, 0u);
    EXPECT_EQ(o.replayed, 0u);
    EXPECT_EQ(o.refused, 0u);
    EXPECT_EQ(o.corrections, 0u);
}

TEST(LateInputReplay, ConfigRangesAreValidated) {
    cs::ServerConfig sc;
    sc.late_input_replay_ticks = 17;
    EXPECT_FALSE(sc.validate().ok());
    sc.late_input_replay_ticks = 0;
    EXPECT_TRUE(sc.validate().ok());
    sc.max_replayed_share = 0.0;
    EXPECT_FALSE(sc.validate().ok());
    cs::ClientConfig cc;
    cc.provisional_hold_ticks = 121;
    EXPECT_FALSE(cc.validate().ok());
}

}  // namespace
