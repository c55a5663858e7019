// The client-server checklist: one graded row per item, each with the measured figure behind it.
#include "cs_grade.hpp"

#include "bandwidth_grades.hpp"

#include <cmath>

namespace lab {
namespace {

void grade_fixed_tick(const PassFigures& m, const CsRules& r, Verdict& v) {
    const auto& t = m.tick;
    const double lo = r.tick_rate * (1.0 - r.client_rate_tolerance),
                 hi = r.tick_rate * (1.0 + r.client_rate_tolerance);
    const bool server_ok = std::abs(static_cast<double>(t.server_ticks) - t.expected_server_ticks) <= 1.0 &&
                           t.server_ticks_dropped == 0 && t.server_multi_tick_updates == 0;
    const bool clients_ok = t.client_frames > 0 && t.frames_with_jump == 0 && t.frames_without_tick > 0 &&
                            t.client_tick_rate_min_hz >= lo && t.client_tick_rate_max_hz <= hi;
    const double f = t.client_frames ? 100.0 / static_cast<double>(t.client_frames) : 0.0;
    v.add("1 Fixed tick",
          fmt("server %llu/%.0f ticks, %llu dropped; %llu client frames: %.0f%% +0, %.0f%% +1, %llu jumps; "
              "client %.2f-%.2f Hz",
              static_cast<unsigned long long>(t.server_ticks), t.expected_server_ticks,
              static_cast<unsigned long long>(t.server_ticks_dropped),
              static_cast<unsigned long long>(t.client_frames),
              static_cast<double>(t.frames_without_tick) * f, static_cast<double>(t.frames_with_one_tick) * f,
              static_cast<unsigned long long>(t.frames_with_jump), t.client_tick_rate_min_hz,
              t.client_tick_rate_max_hz),
          fmt("server ticks = duration x rate +-1, none dropped; client +0/+1 per frame, %.0f Hz +-%.0f%%",
              1.0 * r.tick_rate, r.client_rate_tolerance * 100),
          server_ok && clients_ok);
}

void grade_clock(const PassFigures& m, const CsRules& r, Verdict& v) {
    const auto& c = m.clock;
    v.add("2 Clock sync",
          fmt("input arrival offset median %.2f ticks (target %.1f), |error| median %.2f p95 %.2f; %llu hard "
              "resyncs",
              c.offset_ticks.median, c.target_offset_ticks, c.offset_error_ticks.median,
              c.offset_error_ticks.p95, static_cast<unsigned long long>(c.hard_resyncs)),
          fmt("|error| median <= %.1f tick over the 2nd half, 0 resyncs", r.offset_error_ticks),
          c.offset_ticks.count > 0 && c.offset_error_ticks.median <= r.offset_error_ticks &&
              c.hard_resyncs == 0);
}

void grade_prediction(const CsFigures& f, const CsRules& r, Verdict& v) {
    const auto& z = f.zero_latency.prediction;
    const auto& p = f.main.prediction;
    const double px = 1.0 / r.px_per_m;
    v.add(
        "3 Prediction + reconciliation",
        fmt("0 ms: %llu of %llu corrections unexplained by other players (%llu reconciliations); scenario: "
            "p99 "
            "reconciliation error %.4f m = %.2f px over %llu; own-input corrections %llu, median %.2f px, "
            "p99 %.2f px, %llu >= 1 px",
            static_cast<unsigned long long>(z.own), static_cast<unsigned long long>(z.corrections),
            static_cast<unsigned long long>(z.reconciliations), p.reconcile_error_m.p99,
            p.reconcile_error_m.p99 * r.px_per_m, static_cast<unsigned long long>(p.reconcile_error_m.count),
            static_cast<unsigned long long>(p.own), p.own_error_m.median * r.px_per_m,
            p.own_error_m.p99 * r.px_per_m, static_cast<unsigned long long>(p.own_visible)),
        fmt("0 own corrections at 0 ms; p99 reconciliation error and median own correction < 1 px (%.4f m at "
            "%.0f px/m)",
            px, r.px_per_m),
        z.reconciliations > 0 && z.own == 0 && p.reconcile_error_m.count > 0 &&
            p.reconcile_error_m.p99 < px && p.own_error_m.median < px);
}

void grade_shared(const CsFigures& f, const CsRules& r, Verdict& v) {
    const auto& s = f.shared_step.shared;
    v.add(
        "4 Shared simulation",
        fmt("%llu ticks: client prediction vs server own-entity checksum, %llu mismatches (%llu corrections, "
            "%llu inputs repeated)",
            static_cast<unsigned long long>(s.ticks_compared), static_cast<unsigned long long>(s.mismatches),
            static_cast<unsigned long long>(f.shared_step.prediction.corrections),
            static_cast<unsigned long long>(s.inputs_repeated)),
        fmt(">= %llu ticks compared, 0 mismatches, 0 corrections",
            static_cast<unsigned long long>(r.min_shared_ticks)),
        s.ticks_compared >= r.min_shared_ticks && s.mismatches == 0 &&
            f.shared_step.prediction.corrections == 0);
}

void grade_interp(const PassFigures& m, const CsRules& r, Verdict& v) {
    const auto& i = m.interp;
    v.add("5 Remote interpolation",
          fmt("at %.1f%% loss: %.2f starvations/client-min, %.2f%% frames extrapolated, %.2f%% held, max "
              "%.2f ticks past newest (cap %.0f)",
              m.channel.loss * 100.0, i.starvations_per_client_minute, i.extrapolated_share * 100.0,
              i.held_share * 100.0, i.max_extrapolation_ticks, i.extrapolation_cap_ticks),
          fmt("extrapolated <= %.1f%%, held <= %.1f%%, never past the cap", r.max_extrapolated_share * 100,
              r.max_held_share * 100),
          i.frames > 0 && i.extrapolated_share <= r.max_extrapolated_share &&
              i.held_share <= r.max_held_share &&
              i.max_extrapolation_ticks <= i.extrapolation_cap_ticks + 1e-9);
}

void grade_authority(const PassFigures& m, Verdict& v) {
    const auto& a = m.authority;
    v.add("6 Server authority",
          fmt("probe: %llu/%llu out-of-range packets rejected (%llu sanitize violations); flood of %llu "
              "packets: "
              "%llu inputs dropped, %llu packets limited%s; max speed %.1f u/tick (top %.0f)",
              static_cast<unsigned long long>(a.malformed_counted),
              static_cast<unsigned long long>(a.bad_packets_sent),
              static_cast<unsigned long long>(a.violations),
              static_cast<unsigned long long>(a.flood_packets_sent),
              static_cast<unsigned long long>(a.inputs_overflow),
              static_cast<unsigned long long>(a.inputs_rate_limited),
              a.probe_kicked_cheating ? ", kicked as cheating" : "", a.probe_max_speed, a.top_speed),
          "every bad packet rejected and counted, flood dropped and flagged, speed <= top",
          a.probe_seated && a.bad_packets_sent > 0 && a.malformed_counted >= a.bad_packets_sent &&
              a.flagged && a.inputs_overflow + a.inputs_rate_limited > 0 && a.probe_ticks_observed > 0 &&
              a.probe_max_speed <= a.top_speed + 0.5);
}

void grade_channel(const PassFigures& l, const CsRules& r, Verdict& v) {
    const auto& c = l.channel;
    v.add("7 Channel selection",
          fmt("at %.0f%% loss: longest snapshot gap %.0f ms (p99 %.0f ms); events %llu/%llu received, %llu "
              "out of order, %llu wrong",
              c.loss * 100.0, c.max_snapshot_gap_ms, c.snapshot_gap_ms.p99,
              static_cast<unsigned long long>(c.events_received),
              static_cast<unsigned long long>(c.events_sent),
              static_cast<unsigned long long>(c.events_out_of_order),
              static_cast<unsigned long long>(c.events_content_errors)),
          fmt("gap < %.0f ms; every event once, in order", r.max_snapshot_gap_ms),
          c.snapshot_gap_ms.count > 0 && c.max_snapshot_gap_ms < r.max_snapshot_gap_ms && c.chats_sent > 0 &&
              c.events_received == c.events_sent && c.events_out_of_order == 0 &&
              c.events_content_errors == 0);
}

/// Share of on-screen hits that registered, among those whose shooter and target were alive on the server.
double live_share(const ShotFigures& s, std::uint64_t& live) {
    const std::uint64_t dead = s.target_dead_on_server + s.shooter_dead_on_server;
    const std::uint64_t judged = s.registered + s.not_registered;
    live = judged > dead ? judged - dead : 0;
    return live ? static_cast<double>(s.registered) / static_cast<double>(live) : 0.0;
}

void grade_lag_comp(const CsFigures& f, const CsRules& r, Verdict& v) {
    const ShotFigures& z = f.zero_latency.shots;
    const ShotFigures& m = f.main.shots;
    std::uint64_t z_live = 0, m_live = 0;
    const double z_share = live_share(z, z_live);
    const double m_share = live_share(m, m_live);
    const bool main_within = m.within_cap_judged >= r.min_judged_hits && m.beyond_cap_judged == 0;
    v.add(
        "8 Lag compensation",
        fmt("0 ms (rewind median %.0f ms): %.1f%% of %llu on-screen hits on live targets registered (%llu "
            "more hit "
            "targets already dead on the server); scenario (rewind median %.0f ms, cap %.0f): %.1f%% of "
            "%llu, "
            "%llu of %llu shots clamped; probe: %llu/%llu stale shots clamped",
            z.rewind_ms.median, z_share * 100.0, static_cast<unsigned long long>(z_live),
            static_cast<unsigned long long>(z.target_dead_on_server), m.rewind_ms.median, m.max_rewind_ms,
            m_share * 100.0, static_cast<unsigned long long>(m_live),
            static_cast<unsigned long long>(m.server_clamped),
            static_cast<unsigned long long>(m.server_shots), static_cast<unsigned long long>(m.probe_clamped),
            static_cast<unsigned long long>(m.probe_stale_shots)),
        fmt(">= %.0f%% registered when the rewind fits the cap (0 ms%s); every stale probe shot clamped",
            r.min_registered_share * 100.0, main_within ? " and scenario" : ""),
        z_live >= r.min_judged_hits && z_share >= r.min_registered_share &&
            (!main_within || m_share >= r.min_registered_share) && m.probe_stale_shots > 0 &&
            m.probe_clamped == m.probe_stale_shots);
}

void grade_smoothing(const PassFigures& m, const CsRules& r, Verdict& v) {
    const auto& p = m.prediction;
    v.add("9 Smooth corrections",
          fmt("%llu smoothed, %llu snapped (threshold %.2f m); %llu snapped below it, %llu smoothed above; "
              "largest jump of the drawn player %.3f m",
              static_cast<unsigned long long>(p.smoothed), static_cast<unsigned long long>(p.snapped),
              p.snap_threshold_m, static_cast<unsigned long long>(p.snapped_below_threshold),
              static_cast<unsigned long long>(p.smoothed_above_threshold), p.max_drawn_step_m),
          fmt("small ones smoothed, only large ones snap; no drawn jump > %.3f m outside a snap",
              r.max_drawn_step_m),
          p.snapped_below_threshold == 0 && p.smoothed_above_threshold == 0 &&
              p.max_drawn_step_m <= r.max_drawn_step_m);
}

}  // namespace
Verdict grade_client_server(const CsFigures& f, const CsRules& r) {
    Verdict v;
    grade_fixed_tick(f.main, r, v);
    grade_clock(f.main, r, v);
    grade_prediction(f, r, v);
    grade_shared(f, r, v);
    grade_interp(f.main, r, v);
    grade_authority(f.main, v);
    grade_channel(f.loss_10, r, v);
    grade_lag_comp(f, r, v);
    grade_smoothing(f.main, r, v);
    grade_bandwidth(f.bandwidth_64, v);  // bandwidth_grades.cpp
    return v;
}

}  // namespace lab
