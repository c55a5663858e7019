// Synthetic client-server lab figures that meet every rule, for the grading tests.
#pragma once

#include "cs_grade.hpp"
#include "grade.hpp"

#include <gtest/gtest.h>

#include <string>

namespace lab_test {

/// Figures of a run that meets every rule.
inline lab::CsFigures passing() {
    lab::CsFigures f;
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
    m.prediction.own_visible = 0;
    m.inputs.ticks_simulated = 28000;
    m.inputs.applied = 27990;
    m.inputs.repeated = 10;
    m.inputs.late = 10;
    m.inputs.late_share = 10.0 / 28000.0;
    m.channel.death_receivers = 8;
    m.channel.deaths_expected = m.channel.deaths_delivered = 480;
    m.shots.probe_stale_shots = 50;
    m.shots.probe_clamped = 50;
    m.shots.registered = 100;
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
    c.death_receivers = 8;
    c.deaths_expected = c.deaths_delivered = 128;
    auto& b = f.bandwidth_64;
    b.players = 64;
    b.bandwidth.snapshot_kbps = {64, 30, 30, 31, 31, 32};
    b.bandwidth.outside_aoi_seen = 1000;
    b.bandwidth.kbps_down = {6400, 40, 40, 45, 46, 50};
    b.staleness.snapshot_interval_ms = 1000.0 / 30;
    b.staleness.behind_newest_ms = {100000, 0, 0, 0, 0, 33};
    return f;
}

inline const lab::Grade& row(const lab::Verdict& v, const std::string& prefix) {
    for (const auto& g : v.grades)
        if (g.item.rfind(prefix, 0) == 0) return g;
    ADD_FAILURE() << "no row " << prefix;
    return v.grades.front();
}

}  // namespace lab_test
