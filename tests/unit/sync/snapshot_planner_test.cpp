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
    explicit Link(const SnapshotPlannerConfig& c) : planner(c) { server.reset(c.window); }
    SnapshotPlanner<Rec> planner;
    SnapshotClient<Rec> server;
    SnapshotWindow<Rec> client{64};
    SnapshotPlan<Rec> plan;
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
        planner.plan(server, seq, viewer, plan);
        Packet p{seq, tick, plan.baseline_age, {}};
        EXPECT_TRUE(encode_entity_delta(plan.baseline, plan.held, plan.stale, p.bytes).ok());
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
        }
        if (!decode_entity_delta(std::span<const std::uint8_t>(p.bytes), base, view, stale, stats).ok())
            return false;
        client.push(p.seq, Tick{p.tick}) = view;
        return true;
    }
    void ack(const Packet& p) { (void)server.window.ack(Tick{p.tick}); }
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
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        Rng rng(seed);
        SnapshotPlannerConfig c = aoi_config(3000);
        c.window = 8;  // small, so that late acks often name a snapshot that fell out (too old)
        c.budget_bits = seed % 2 ? -1 : 400;
        Link link(c);
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

}  // namespace
}  // namespace rwd::sync
