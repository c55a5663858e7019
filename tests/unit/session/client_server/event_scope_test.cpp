/// Interest management for messages: a nearby message reaches its two players and whoever can see one of
/// them, an everyone message every client.
#include "toy_harness.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

namespace cs = rwd::client_server;
using rwd::Micros;
using toy::ToyGame;

/// A hit marker, scoped to those nearby.
struct NearbyHit {
    static constexpr cs::MessageSpec kMessage{"nearby_hit", cs::MessageDirection::to_client,
                                              cs::MessageDelivery::reliable, 2};
    std::uint8_t shooter = 0;
};
/// A score announcement, for everyone.
struct Score {
    static constexpr cs::MessageSpec kMessage{"score", cs::MessageDirection::to_client,
                                              cs::MessageDelivery::reliable, 8};
    std::uint8_t slot = 0;
    std::int32_t value = 0;
};
template <class Stream>
bool serialize(Stream& s, NearbyHit& m) {
    return rwd::wire::serialize_int(s, m.shooter, std::uint8_t{0}, std::uint8_t{7});
}
template <class Stream>
bool serialize(Stream& s, Score& m) {
    return rwd::wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{7}) &&
           rwd::wire::serialize_relative(s, 0, m.value);
}

/// The toy with its hit messages scoped to those nearby, and one score message per hit for everyone.
struct NearbyToy : ToyGame {
    using Messages = cs::MessageList<NearbyHit, Score>;
    // The same step (no lag compensation: the players here stand still).
    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<NearbyToy>*) {
        ToyGame::step(s, inputs, nullptr);
    }
    static void collect_messages(const State& a, const State& b, cs::MessageOutbox<NearbyToy>& out) {
        for (int p = 0; p < kMaxPlayers; ++p) {
            const auto i = static_cast<std::size_t>(p);
            if (!b.players[i].present || b.players[i].hits_scored == a.players[i].hits_scored) continue;
            out.nearby(p, p, NearbyHit{static_cast<std::uint8_t>(p)});
            out.broadcast(Score{static_cast<std::uint8_t>(p), b.players[i].hits_scored});
        }
    }
};

TEST(EventScope, ANearbyEventReachesOnlyThoseWhoCanSeeIt) {
    cs::ServerConfig sc;
    sc.snapshots.aoi_radius_m = 10.0;  // 10 000 toy units
    sc.snapshots.cell_size_m = 5.0;
    toy::Match<NearbyToy> m(7, {}, sc);
    for (int i = 0; i < 3; ++i) m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    // Slot 0 shoots slot 1 (on its row, to its right); slot 2 stands far off, outside both areas of interest.
    auto place = [&] {
        auto& pl = m.server->state().players;
        pl[1].x = 500, pl[1].y = 0;
        pl[0].x = 0, pl[0].y = 0;
        pl[2].x = 0, pl[2].y = 60000;
    };
    m.run(Micros{300'000}, place);  // every client's snapshots now show what it can see
    for (int i = 0; i < 3; ++i) {
        cs::Message msg;
        while (m.client(i).poll_message(msg)) {
        }
    }
    m.client(0).set_input(toy::move(0, 0, true));
    m.run(Micros{1'000'000}, place);
    std::vector<int> hits(3, 0), scores(3, 0);
    for (int i = 0; i < 3; ++i) {
        cs::Message msg;
        while (m.client(i).poll_message(msg)) {
            NearbyHit hit;
            Score score;
            hits[static_cast<std::size_t>(i)] += m.client(i).read(msg, hit);
            scores[static_cast<std::size_t>(i)] += m.client(i).read(msg, score);
        }
    }
    const int slot0 = m.client(0).slot();
    ASSERT_EQ(slot0, 0);
    EXPECT_GT(hits[0], 3);            // the shooter
    EXPECT_EQ(hits[1], hits[0]);      // the target sees the shooter
    EXPECT_EQ(hits[2], 0);            // far off: sees neither
    EXPECT_EQ(scores[2], scores[0]);  // but every client gets the everyone events
    EXPECT_GT(scores[2], 3);
}

}  // namespace
