// Tests for SnapshotPlanner: interest management (zero bytes outside, enter in full, leave), budgets without
// starvation, and delta round trips between a server and a client under loss.
#include "unit/sync/toy_entity.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/sync/snapshot_planner.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace rwd::sync {
namespace {

using toy::Rec;
using toy::Snap;

/// One server-side client and its real client: plan, encode, commit; receive, decode against the stored
/// baseline.
struct Link {
    explicit Link(const SnapshotPlannerConfig& c, bool with_prediction = false)
        : planner(c), predicted(with_prediction) {
        server.reset(c.window);
        if (predicted) planner.set_predictor(&drift);
    }
    /// The toy's prediction: x moves 3 units per tick.
    static Snap drift(const Snap& s, std::int32_t ticks) {
        Snap p = s;
        p.x = s.x + 3 * ticks;
        return p;
    }
    SnapshotPlanner<Rec> planner;
    SnapshotClient<Rec> server;
    SnapshotWindow<Rec> client{64};
    SnapshotPlan<Rec> plan;
    bool predicted = false;
    std::vector<Rec> reference;  // the client's predicted baseline
    std::uint16_t seq = 0;
    std::uint32_t tick = 0;
    EntityDeltaStats stats;

    struct Packet {
        std::uint16_t seq = 0;
        std::uint32_t tick = 0;
        std::uint8_t age = 0;
        std::vector<std::uint8_t> bytes;
    };

    Packet send(const std::vector<Rec>& world, int viewer) {
        const auto pos = toy::positions(world);
        planner.set_world(std::span<const Rec>(world), std::span<const GridPoint>(pos));
        planner.set_now(Tick{tick});
        planner.plan(server, seq, viewer, plan);
        Packet p{seq, tick, plan.baseline_age, {}};
        EXPECT_TRUE(encode_entity_delta(plan.baseline, plan.held, plan.stale, p.bytes, kDefaultMaxEntities,
                                        std::span<const Rec>(plan.reference))
                        .ok());
        // The planner's figure is the codec's own: the list is exactly that long.
        EXPECT_EQ((plan.stats.planned_bits + 7) / 8, static_cast<std::int64_t>(p.bytes.size()));
        planner.commit(server, seq, Tick{tick}, plan);
        ++seq;
        tick += 2;
        return p;
    }
    /// Decodes like a client: false (and nothing stored) when the baseline is unknown or the bits are bad.
    bool receive(const Packet& p, std::vector<Rec>& view, std::vector<std::uint32_t>& stale) {
        std::span<const Rec> base{};
        if (p.age != 0) {
            const auto* e = client.find(static_cast<std::uint16_t>(p.seq - p.age));
            if (!e) return ++stats.unknown_baseline, ++stats.rejected, false;
            base = e->entities;
            reference.clear();
            if (predicted)
                predict_records(base, prediction_ticks(std::int64_t{Tick{p.tick} - e->tick}), &drift,
                                reference);
        }
        if (!decode_entity_delta(std::span<const std::uint8_t>(p.bytes), base, view, stale, stats,
                                 kDefaultMaxEntities, std::span<const Rec>(p.age != 0 ? reference : empty))
                 .ok())
            return false;
        client.push(p.seq, Tick{p.tick}) = view;
        return true;
    }
    void ack(const Packet& p) { (void)server.window.ack(Tick{p.tick}); }
    std::vector<Rec> empty;
};

SnapshotPlannerConfig aoi_config(std::int64_t radius) {
    SnapshotPlannerConfig c;
    c.aoi_radius = radius;
    c.grid.cell_size = static_cast<std::int32_t>(radius);
    return c;
}

TEST(SnapshotPlannerConfig, ValidatesFields) {
    EXPECT_TRUE(SnapshotPlannerConfig{}.validate().ok());
    SnapshotPlannerConfig c;
    c.window = 65;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.aoi_radius = -1;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.priority.far_weight = 0;
    EXPECT_FALSE(c.validate().ok());
}

TEST(SnapshotPlanner, AnEntityOutsideTheAreaOfInterestCostsZeroBytes) {
    // The same scene with and without a far entity that moves every snapshot: the client's bytes are
    // identical.
    Link with(aoi_config(1000)), without(aoi_config(1000));
    std::vector<Rec> view;
    std::vector<std::uint32_t> stale;
    for (int n = 0; n < 20; ++n) {
        const std::vector<Rec> near{{0, {n * 3, 0, 100}}, {1, {500, n, 100}}};
        auto far = near;
        far.push_back(Rec{2, {50'000 + n * 100, 0, 100}});
        const auto a = with.send(far, 0);
        const auto b = without.send(near, 0);
        EXPECT_EQ(a.bytes, b.bytes) << n;
        EXPECT_EQ(with.plan.stats.relevant, 2u);
        ASSERT_TRUE(with.receive(a, view, stale));
        EXPECT_EQ(view, near);
        with.ack(a);
        without.ack(b);
    }
}

TEST(SnapshotPlanner, AnEntityThatEntersArrivesCompleteAndOneThatLeavesIsRemoved) {
    Link link(aoi_config(1000));
    std::vector<Rec> view;
    std::vector<std::uint32_t> stale;
    auto world = [](std::int32_t x2) { return std::vector<Rec>{{0, {0, 0, 100}}, {2, {x2, 0, 37}}}; };
    auto p = link.send(world(5000), 0);
    ASSERT_TRUE(link.receive(p, view, stale));
    link.ack(p);
    EXPECT_EQ(view.size(), 1u);
    p = link.send(world(900), 0);  // walks in
    EXPECT_EQ(link.plan.stats.entered, 1u);
    EXPECT_EQ(p.age, 1);  // against the acknowledged snapshot, which lacks it: so in full
    ASSERT_TRUE(link.receive(p, view, stale));
    link.ack(p);
    EXPECT_EQ(view, world(900));
    p = link.send(world(1001), 0);  // walks out
    EXPECT_EQ(link.plan.stats.removed, 1u);
    ASSERT_TRUE(link.receive(p, view, stale));
    EXPECT_EQ(view.size(), 1u);
    EXPECT_EQ(view[0].id, 0u);
}

TEST(SnapshotPlanner, TightBudgetDeliversEveryRelevantEntityWithoutStarvation) {
    constexpr int kEntities = 40;
    SnapshotPlannerConfig c = aoi_config(20'000);
    c.budget_bits = 150;  // room for about three changed entities per snapshot
    Link link(c);
    Rng rng(11);
    std::vector<Rec> world;
    for (std::uint32_t i = 0; i < kEntities; ++i)
        world.push_back(Rec{i, {rng.range(-15'000, 15'000) / 2, rng.range(-15'000, 15'000) / 2, 100}});
    world[0].snap = {0, 0, 100};  // the client's own player
    std::vector<int> last_fresh(kEntities, -1);
    int worst_gap = 0;
    std::vector<Rec> view, shown;
    std::vector<std::uint32_t> stale;
    for (int n = 0; n < 400; ++n) {
        for (Rec& r : world) r.snap.x += 1 + static_cast<std::int32_t>(rng.uniform(3));  // everything changes
        const auto p = link.send(world, 0);
        ASSERT_TRUE(link.receive(p, view, stale));
        link.ack(p);
        if (n >= 60) {
            ASSERT_EQ(view.size(), static_cast<std::size_t>(kEntities)) << "every entity entered by now";
        }
        EXPECT_EQ(view[0], world[0]) << "own player must be fresh in every snapshot, n=" << n;
        for (const Rec& r : view) {
            const std::size_t i = r.id;
            if (r == world[i]) {
                if (n >= 60) worst_gap = std::max(worst_gap, n - last_fresh[i]);
                last_fresh[i] = n;
            }
        }
        if (n >= 60) {
            EXPECT_LE(link.plan.stats.planned_bits, c.budget_bits + 120)
                << n;  // one over-budget top pick at most
        }
    }
    for (int i = 0; i < kEntities; ++i) EXPECT_GE(last_fresh[static_cast<std::size_t>(i)], 400 - 60) << i;
    // Far entities gain 1/4 of the near weight: none waits longer than ~4x the round-robin period.
    EXPECT_GT(worst_gap, 1);  // the budget really bound
    EXPECT_LE(worst_gap, 4 * kEntities / 3 + 10);
}

TEST(SnapshotPlanner, StaleEntitiesAreMarkedAndTheClientCanShowItsNewerValue) {
    SnapshotPlannerConfig c;
    c.budget_bits = 0;  // only the top candidate each time
    Link link(c);
    std::vector<Rec> world{{0, {0, 0, 100}}, {1, {10, 0, 100}}, {2, {20, 0, 100}}};
    std::vector<Rec> view;
    std::vector<std::uint32_t> stale;
    auto p = link.send(world, -1);
    ASSERT_TRUE(link.receive(p, view, stale));
    link.ack(p);
    EXPECT_EQ(view.size(), 1u);  // one entity enters per snapshot
    for (Rec& r : world) r.snap.y += 5;
    p = link.send(world, -1);
    ASSERT_TRUE(link.receive(p, view, stale));
    EXPECT_EQ(link.plan.stats.stale + link.plan.stats.changed + link.plan.stats.entered, 2u);
    EXPECT_EQ(stale, link.plan.stale);
}

TEST(SnapshotPlanner, RoundTripsUnderLossAndLateAcks) {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        const bool predicted = seed > 4;  // the same with predicted deltas
        SCOPED_TRACE("seed=" + std::to_string(seed) + (predicted ? " predicted" : ""));
        Rng rng(seed);
        SnapshotPlannerConfig c = aoi_config(3000);
        c.window = 8;  // small, so that late acks often name a snapshot that fell out (too old)
        c.budget_bits = seed % 2 ? -1 : 400;
        Link link(c, predicted);
        std::vector<Rec> world;
        for (std::uint32_t i = 0; i < 30; ++i)
            world.push_back(Rec{i * 3, {rng.range(-5000, 5000), rng.range(-5000, 5000), 100}});
        std::vector<Link::Packet> acks_in_flight;
        std::vector<Rec> view;
        std::vector<std::uint32_t> stale;
        int decoded = 0, without_baseline = 0;
        for (int n = 0; n < 300; ++n) {
            for (Rec& r : world) {
                r.snap.x = std::clamp(r.snap.x + rng.range(-300, 300), -6000, 6000);
                if (rng.uniform(20) == 0) r.snap.hp = static_cast<std::uint8_t>(rng.uniform(101));
            }
            if (rng.uniform(10) == 0)
                world.erase(world.begin() + 1 + rng.uniform(static_cast<std::uint32_t>(world.size() - 1)));
            if (rng.uniform(8) == 0)
                world.push_back(Rec{world.back().id + 1 + rng.uniform(50), {rng.range(-5000, 5000), 0, 9}});
            const auto p = link.send(world, 0);
            if (p.age == 0) ++without_baseline;
            if (rng.uniform(4) == 0) continue;  // lost
            ASSERT_TRUE(link.receive(p, view, stale)) << n;
            ++decoded;
            // What the client holds is exactly what the server committed for that sequence.
            EXPECT_EQ(view, link.server.window.find(p.seq)->entities);
            acks_in_flight.push_back(p);
            const std::size_t delay = rng.uniform(12);
            while (acks_in_flight.size() > delay) {
                if (rng.uniform(5) != 0) link.ack(acks_in_flight.front());  // acks get lost too
                acks_in_flight.erase(acks_in_flight.begin());
            }
        }
        EXPECT_GT(decoded, 150);
        EXPECT_GT(without_baseline, 1);  // lost or too-old baselines happened and were handled
        EXPECT_EQ(link.stats.rejected, 0u);
    }
}

TEST(SnapshotPlanner, WithAPredictionEntitiesMovingAsPredictedCostOneBitAtAnyAckDelay) {
    for (const int ack_delay : {1, 7, 20}) {
        SCOPED_TRACE("ack_delay=" + std::to_string(ack_delay));
        Link plain(aoi_config(100'000)), predicted(aoi_config(100'000), true);
        std::vector<Rec> world;
        for (std::uint32_t i = 0; i < 30; ++i)
            world.push_back(Rec{i, {static_cast<std::int32_t>(100 * i), static_cast<std::int32_t>(i), 100}});
        std::vector<Link::Packet> in_flight_a, in_flight_b;
        std::vector<Rec> view;
        std::vector<std::uint32_t> stale;
        std::int64_t bits_plain = 0, bits_predicted = 0;
        for (int n = 0; n < 60; ++n) {
            for (Rec& r : world) r.snap.x += 6;  // 3 units per tick, a snapshot every 2 ticks: as predicted
            const auto a = plain.send(world, 0);
            const auto b = predicted.send(world, 0);
            ASSERT_TRUE(plain.receive(a, view, stale));
            ASSERT_TRUE(predicted.receive(b, view, stale));
            EXPECT_EQ(view, world) << n;
            if (n >= 30) {
                bits_plain += plain.plan.stats.planned_bits;
                bits_predicted += predicted.plan.stats.planned_bits;
                EXPECT_EQ(predicted.plan.stats.unchanged, 30u) << n;
            }
            in_flight_a.push_back(a);
            in_flight_b.push_back(b);
            if (static_cast<int>(in_flight_a.size()) >= ack_delay) {
                plain.ack(in_flight_a.front());
                predicted.ack(in_flight_b.front());
                in_flight_a.erase(in_flight_a.begin());
                in_flight_b.erase(in_flight_b.begin());
            }
        }
        EXPECT_EQ(bits_predicted, 30 * (30 + 1));  // one bit per entity and "nothing enters"
        EXPECT_GT(bits_plain, 10 * bits_predicted);
    }
}

TEST(SnapshotPlanner, PlannedBitsAreTheEncodedBitsOnRandomWorlds) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        Rng rng(seed);
        SnapshotPlannerConfig c = aoi_config(4000);
        c.budget_bits = seed % 3 == 0 ? -1 : static_cast<std::int64_t>(100 + rng.uniform(600));
        Link link(c, seed % 2 == 0);
        std::vector<Rec> world;
        for (std::uint32_t i = 0; i < 50; ++i)
            world.push_back(
                Rec{i * (1 + rng.uniform(30)) + i, {rng.range(-6000, 6000), rng.range(-6000, 6000), 100}});
        std::sort(world.begin(), world.end(), [](const Rec& a, const Rec& b) { return a.id < b.id; });
        world.erase(
            std::unique(world.begin(), world.end(), [](const Rec& a, const Rec& b) { return a.id == b.id; }),
            world.end());
        std::vector<Rec> view;
        std::vector<std::uint32_t> stale;
        for (int n = 0; n < 80; ++n) {
            for (Rec& r : world) {
                if (rng.uniform(3) == 0) r.snap.x += rng.range(-400, 400);
                if (rng.uniform(9) == 0) r.snap.hp = static_cast<std::uint8_t>(rng.uniform(101));
            }
            const auto p =
                link.send(world, static_cast<int>(rng.uniform(static_cast<std::uint32_t>(world.size()))));
            // send() checks planned bits against the encoded length; here the exact bits as well.
            wire::MeasureStream m;
            auto held = link.plan.held;
            auto st = link.plan.stale;
            ASSERT_TRUE(serialize_entity_delta(m, link.plan.baseline, held, st, kDefaultMaxEntities,
                                               std::span<const Rec>(link.plan.reference)));
            EXPECT_EQ(link.plan.stats.planned_bits, static_cast<std::int64_t>(m.bits_used())) << n;
            EXPECT_LE(link.plan.stats.planned_bits, link.plan.stats.estimated_bits) << n;
            ASSERT_TRUE(link.receive(p, view, stale)) << n;
            if (rng.uniform(3) != 0) link.ack(p);
        }
    }
}

TEST(SnapshotPlanner, WithoutTheMeasurementEveryPlanIsTheSameAndPlannedBitsIsZero) {
    SnapshotPlannerConfig c = aoi_config(4000);
    c.budget_bits = 300;  // binding at times: the budget's choice must not depend on the measurement
    SnapshotPlannerConfig unmeasured = c;
    unmeasured.measure_planned_bits = false;
    SnapshotPlanner<Rec> a(c), b(unmeasured);
    SnapshotClient<Rec> ca, cb;
    ca.reset(c.window);
    cb.reset(c.window);
    SnapshotPlan<Rec> pa, pb;
    Rng rng(5);
    std::vector<Rec> world;
    for (std::uint32_t i = 0; i < 40; ++i)
        world.push_back(Rec{i * 3, {rng.range(-6000, 6000), rng.range(-6000, 6000), 100}});
    for (std::uint16_t n = 0; n < 60; ++n) {
        for (Rec& r : world)
            if (rng.uniform(3) == 0) r.snap.x += rng.range(-400, 400);
        const auto pos = toy::positions(world);
        for (auto* p : {&a, &b}) {
            p->set_world(std::span<const Rec>(world), std::span<const GridPoint>(pos));
            p->set_now(Tick{2u * n});
        }
        a.plan(ca, n, 0, pa);
        b.plan(cb, n, 0, pb);
        EXPECT_EQ(pa.held, pb.held) << n;
        EXPECT_EQ(pa.stale, pb.stale) << n;
        EXPECT_EQ(pa.stats.estimated_bits, pb.stats.estimated_bits) << n;
        EXPECT_GT(pa.stats.planned_bits, 0) << n;
        EXPECT_EQ(pb.stats.planned_bits, 0) << n;
        a.commit(ca, n, Tick{2u * n}, pa);
        b.commit(cb, n, Tick{2u * n}, pb);
        if (n % 3 == 0) {
            (void)ca.window.ack(Tick{2u * n});
            (void)cb.window.ack(Tick{2u * n});
        }
    }
}

TEST(SnapshotPlanner, TheOwnerReceivesItsEntityWholeAndEveryoneElseTheRemoteView) {
    // hp plays the owner-only field: the world others see has it at 0.
    const std::vector<Rec> owner{{0, {0, 0, 77}}, {1, {100, 0, 55}}};
    const std::vector<Rec> remote{{0, {0, 0, 0}}, {1, {100, 0, 0}}};
    const auto pos = toy::positions(owner);
    SnapshotPlanner<Rec> planner(aoi_config(1000));
    planner.set_world(std::span<const Rec>(remote), std::span<const GridPoint>(pos), {},
                      std::span<const Rec>(owner));
    SnapshotClient<Rec> c0, c1;
    SnapshotPlan<Rec> plan;
    planner.plan(c0, 0, 0, plan);  // the client controlling entity 0
    EXPECT_EQ(plan.held, (std::vector<Rec>{owner[0], remote[1]}));
    planner.plan(c1, 0, 1, plan);  // the one controlling entity 1
    EXPECT_EQ(plan.held, (std::vector<Rec>{remote[0], owner[1]}));
    planner.plan(c1, 1, -1, plan);  // a spectator: remote views only
    EXPECT_EQ(plan.held, remote);
    // An owner view that does not match the world is ignored rather than misread.
    const std::vector<Rec> short_owner{owner[0]};
    planner.set_world(std::span<const Rec>(remote), std::span<const GridPoint>(pos), {},
                      std::span<const Rec>(short_owner));
    planner.plan(c0, 2, 0, plan);
    EXPECT_EQ(plan.held, remote);
    // So is one of the right size whose ids are not the world's.
    std::vector<Rec> other_ids = owner;
    other_ids[1].id = 5;
    planner.set_world(std::span<const Rec>(remote), std::span<const GridPoint>(pos), {},
                      std::span<const Rec>(other_ids));
    planner.plan(c0, 3, 0, plan);
    EXPECT_EQ(plan.held, remote);
}

/// A game relevance that refuses entity 2, weighs entity 3 five times, and notes whom it was asked about.
struct Relevance {
    std::vector<std::pair<int, Rec>> asked;  // (client, entity)
    static float of(void* user, int client, const Rec& e) {
        auto& r = *static_cast<Relevance*>(user);
        r.asked.emplace_back(client, e);
        return e.id == 2 ? 0.0f : (e.id == 3 ? 5.0f : 1.0f);
    }
};

TEST(SnapshotPlanner, TheGameRelevanceFiltersAndWeighsEveryEntityButTheClientsOwn) {
    // Entities 1, 2 and 3 stand at the same distance from the viewer, entity 0.
    const std::vector<Rec> owner{{0, {0, 0, 77}}, {1, {300, 0, 50}}, {2, {0, 300, 50}}, {3, {-300, 0, 50}}};
    const std::vector<Rec> remote{{0, {0, 0, 0}}, {1, {300, 0, 50}}, {2, {0, 300, 50}}, {3, {-300, 0, 50}}};
    const auto pos = toy::positions(owner);
    SnapshotPlannerConfig c = aoi_config(1000);
    SnapshotPlanner<Rec> planner(c);
    planner.set_world(std::span<const Rec>(remote), std::span<const GridPoint>(pos), {},
                      std::span<const Rec>(owner));
    Relevance rel;
    SnapshotClient<Rec> client;
    client.reset(c.window);
    SnapshotPlan<Rec> plan;
    planner.plan(client, 0, 0, plan, &Relevance::of, &rel, 7);
    // Entity 2 is left out; the client's own entity is always in, whole, and the game is never asked about
    // it.
    EXPECT_EQ(plan.held, (std::vector<Rec>{owner[0], remote[1], remote[3]}));
    EXPECT_EQ(plan.stats.relevant, 3u);
    ASSERT_EQ(rel.asked.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(rel.asked[i].first, 7);               // the client id given to plan()
        EXPECT_EQ(rel.asked[i].second, remote[i + 1]);  // the entity as every other client receives it
    }

    // With no room in the budget the packer still sends the highest-priority entity besides the own one. At
    // the same distance, without the game's weights that is entity 1 (a tie goes to the lower index); with
    // them, entity 3, weighed five times. Entity 1 keeps the priority it gained; entity 2 gains none.
    planner.set_budget_bits(0);
    SnapshotClient<Rec> plain;
    plain.reset(c.window);
    planner.plan(plain, 0, 0, plan);
    EXPECT_EQ(plan.held, (std::vector<Rec>{owner[0], remote[1]}));
    SnapshotClient<Rec> weighed;
    weighed.reset(c.window);
    planner.plan(weighed, 0, 0, plan, &Relevance::of, &rel, 7);
    EXPECT_EQ(plan.held, (std::vector<Rec>{owner[0], remote[3]}));
    EXPECT_EQ(plan.stats.deferred, 1u);
    EXPECT_FLOAT_EQ(weighed.priorities.priority(1), distance_weight(c.priority, 300 * 300, c.aoi_radius));
    EXPECT_EQ(weighed.priorities.priority(2), 0.0f);
    EXPECT_EQ(weighed.priorities.priority(3), 0.0f);  // sent: reset
}

}  // namespace
}  // namespace rwd::sync
