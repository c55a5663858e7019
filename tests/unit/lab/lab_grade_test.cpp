/// rewind-lab's grading: synthetic figures that pass every client-server item, and each item failing on its
/// own.
#include "cs_grade.hpp"
#include "grade.hpp"
#include "lab_figures_fixture.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using lab::CsFigures;
using lab_test::passing;
using lab_test::row;

TEST(LabGrade, EveryItemPassesOnGoodFigures) {
    const lab::Verdict v = lab::grade_client_server(passing(), lab::CsRules{});
    for (const auto& g : v.grades)
        if (g.graded) {
            EXPECT_TRUE(g.pass) << g.item << ": " << g.measured;
        }
    EXPECT_EQ(v.passed(), 12);
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
        f.bandwidth_64.bandwidth.left_out_share = 0.02;  // the budget postponed a fiftieth
        expect_only_failure(f, "- Delta");
    }
    {
        auto f = passing();
        f.bandwidth_64.staleness.behind_newest_ms.p99 = 100;  // three snapshots behind
        expect_only_failure(f, "- Delta");
    }
    {
        auto f = passing();
        f.bandwidth_64.bandwidth.outside_aoi_received = 1;
        expect_only_failure(f, "- Interest");
    }
    {
        auto f = passing();
        f.bandwidth_64.bandwidth.kbps_down.median = 50;
        expect_only_failure(f, "- Down");
    }
}

TEST(LabGrade, NothingGradedIsNotAPass) {
    lab::Verdict v;
    v.skip("x", "f", "y", "z");
    EXPECT_FALSE(v.all_pass());
    EXPECT_EQ(v.passed(), 0);
    EXPECT_EQ(v.failed(), 0);
}

}  // namespace
