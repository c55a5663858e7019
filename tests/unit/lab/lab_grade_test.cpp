/// rewind-lab's grading: synthetic figures that pass every client-server item, and each item failing on its
/// own.
#include "cs_grade.hpp"
#include "grade.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using lab::CsFigures;

/// Figures of a run that meets every rule.
CsFigures passing() {
    CsFigures f;
    auto& m = f.main;
    m.tick = {3600, 3600, 0, 0, 68000, 40000, 28000, 0, 0, 144, 59.99, 60.02};
    m.clock.target_offset_ticks = 2;
    m.clock.offset_ticks = {100, 2, 2, 2, 2, 2};
    m.clock.offset_error_ticks = {100, 0.4, 0.3, 1.2, 1.8, 2.5};
    m.prediction.reconcile_error_m = {1000, 0.001, 0, 0.01, 0.02, 0.1};
    m.prediction.own_error_m = {20, 0.002, 0.001, 0.02, 0.05, 0.1};
    m.prediction.smoothed = 50;
    m.prediction.max_drawn_step_m = 0.05;
    m.interp = {8, 60000, 10, 0, 30, 3.75, 0.0002, 0.0, 2.0, 2.0, {}, {}};
    m.authority = {true, 10, 10, 0, 400, 300, 100, true, 102, false, 102, 2000};
    m.shots.probe_stale_shots = 50;
    m.shots.probe_clamped = 50;
    m.shots.registered = 100;
    m.shots.beyond_cap_judged = 150;
    f.zero_latency.prediction.reconciliations = 4000;
    f.zero_latency.prediction.corrections = 100;
    f.zero_latency.prediction.by_others = 100;
    f.zero_latency.shots.registered = 150;
    f.zero_latency.shots.not_registered = 10;
    f.zero_latency.shots.target_dead_on_server = 10;
    f.shared_step.shared.ticks_compared = 1000;
    auto& c = f.loss_10.channel;
    c.loss = 0.1;
    c.snapshot_gap_ms = {500, 35, 33, 66, 100, 180};
    c.max_snapshot_gap_ms = 180;
    c.chats_sent = 100;
    c.events_sent = c.events_received = 900;
    auto& b = f.bandwidth_64;
    b.players = 64;
    b.bandwidth.snapshot_kbps = {64, 30, 30, 31, 31, 32};
    b.bandwidth.outside_aoi_seen = 1000;
    return f;
}

const lab::Grade& row(const lab::Verdict& v, const std::string& prefix) {
    for (const auto& g : v.grades)
        if (g.item.rfind(prefix, 0) == 0) return g;
    ADD_FAILURE() << "no row " << prefix;
    return v.grades.front();
}

TEST(LabGrade, EveryItemPassesOnGoodFigures) {
    const lab::Verdict v = lab::grade_client_server(passing(), lab::CsRules{});
    for (const auto& g : v.grades)
        if (g.graded) {
            EXPECT_TRUE(g.pass) << g.item << ": " << g.measured;
        }
    EXPECT_EQ(v.passed(), 11);
    EXPECT_EQ(v.failed(), 0);
    EXPECT_TRUE(v.all_pass());
}

/// One broken figure fails exactly its own item.
void expect_only_failure(const CsFigures& f, const std::string& item) {
    const lab::Verdict v = lab::grade_client_server(f, lab::CsRules{});
    EXPECT_FALSE(row(v, item).pass) << row(v, item).measured;
    EXPECT_EQ(v.failed(), 1);
    EXPECT_FALSE(v.all_pass());
}

TEST(LabGrade, EachItemFailsOnItsOwn) {
    {
        auto f = passing();
        f.main.tick.server_ticks = 3590;
        expect_only_failure(f, "1 ");
    }
    {
        auto f = passing();
        f.main.tick.frames_with_jump = 1;
        expect_only_failure(f, "1 ");
    }
    {
        auto f = passing();
        f.main.clock.hard_resyncs = 1;
        expect_only_failure(f, "2 ");
    }
    {
        auto f = passing();
        f.main.clock.offset_error_ticks.median = 1.5;
        expect_only_failure(f, "2 ");
    }
    {
        auto f = passing();
        f.zero_latency.prediction.own = 1;
        expect_only_failure(f, "3 ");
    }
    {
        auto f = passing();
        f.main.prediction.reconcile_error_m.p99 = 0.04;
        expect_only_failure(f, "3 ");
    }
    {
        auto f = passing();
        f.shared_step.shared.mismatches = 1;
        expect_only_failure(f, "4 ");
    }
    {
        auto f = passing();
        f.shared_step.shared.ticks_compared = 10;
        expect_only_failure(f, "4 ");
    }
    {
        auto f = passing();
        f.main.interp.max_extrapolation_ticks = 2.5;
        expect_only_failure(f, "5 ");
    }
    {
        auto f = passing();
        f.main.interp.held_share = 0.01;
        expect_only_failure(f, "5 ");
    }
    {
        auto f = passing();
        f.main.authority.malformed_counted = 9;
        expect_only_failure(f, "6 ");
    }
    {
        auto f = passing();
        f.main.authority.probe_max_speed = 140;
        expect_only_failure(f, "6 ");
    }
    {
        auto f = passing();
        f.loss_10.channel.max_snapshot_gap_ms = 300;
        expect_only_failure(f, "7 ");
    }
    {
        auto f = passing();
        f.loss_10.channel.events_received = 899;
        expect_only_failure(f, "7 ");
    }
    {
        auto f = passing();
        f.loss_10.channel.events_out_of_order = 1;
        expect_only_failure(f, "7 ");
    }
    {
        auto f = passing();
        f.zero_latency.shots.not_registered = 30;
        expect_only_failure(f, "8 ");
    }
    {
        auto f = passing();
        f.main.shots.probe_clamped = 49;
        expect_only_failure(f, "8 ");
    }
    {
        auto f = passing();
        f.main.prediction.snapped_below_threshold = 1;
        expect_only_failure(f, "9 ");
    }
    {
        auto f = passing();
        f.main.prediction.max_drawn_step_m = 1.0;
        expect_only_failure(f, "9 ");
    }
    {
        auto f = passing();
        f.bandwidth_64.bandwidth.snapshot_kbps.median = 40;
        expect_only_failure(f, "- Delta");
    }
    {
        auto f = passing();
        f.bandwidth_64.bandwidth.outside_aoi_received = 1;
        expect_only_failure(f, "- Interest");
    }
}

TEST(LabGrade, NothingGradedIsNotAPass) {
    lab::Verdict v;
    v.skip("x", "y", "z");
    EXPECT_FALSE(v.all_pass());
    EXPECT_EQ(v.passed(), 0);
    EXPECT_EQ(v.failed(), 0);
}

}  // namespace
