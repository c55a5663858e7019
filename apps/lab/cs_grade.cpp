// The client-server checklist: one graded row per item, each with the measured figure behind it.
#include "cs_grade.hpp"

#include "bandwidth_grades.hpp"
#include "cs_grade_items.hpp"

#include <cmath>

namespace lab {
namespace {

void grade_fixed_tick(const PassFigures& m, const CsRules& r, Verdict& v) {
    const auto& t = m.tick;
    const double lo = r.tick_rate * (1.0 - r.client_rate_tolerance),
                 hi = r.tick_rate * (1.0 + r.client_rate_tolerance);
    Checks c;
    c.need(std::abs(static_cast<double>(t.server_ticks) - t.expected_server_ticks) <= 1.0,
           "server ran %llu ticks, expected %.0f ± 1", static_cast<unsigned long long>(t.server_ticks),
           t.expected_server_ticks);
    c.need(t.server_ticks_dropped == 0, "%llu server ticks dropped",
           static_cast<unsigned long long>(t.server_ticks_dropped));
    c.need(t.server_multi_tick_updates == 0, "%llu server updates ran several ticks",
           static_cast<unsigned long long>(t.server_multi_tick_updates));
    c.need(t.client_frames > 0, "no client frames");
    c.need(t.frames_with_jump == 0, "%llu client frames jumped ticks",
           static_cast<unsigned long long>(t.frames_with_jump));
    c.need(t.frames_without_tick > 0, "no frame without a tick (rendering locked to ticks)");
    c.need(t.client_tick_rate_min_hz >= lo && t.client_tick_rate_max_hz <= hi,
           "client tick rate %.2f-%.2f Hz outside %.2f-%.2f Hz", t.client_tick_rate_min_hz,
           t.client_tick_rate_max_hz, lo, hi);
    const double f = t.client_frames ? 100.0 / static_cast<double>(t.client_frames) : 0.0;
    v.add("1 Fixed tick",
          fmt("%llu/%.0f ticks, %llu jumps, client %.2f-%.2f Hz (±%.0f %%)",
              static_cast<unsigned long long>(t.server_ticks), t.expected_server_ticks,
              static_cast<unsigned long long>(t.frames_with_jump), t.client_tick_rate_min_hz,
              t.client_tick_rate_max_hz, r.client_rate_tolerance * 100),
          fmt("server %llu/%.0f ticks, %llu dropped; %llu client frames: %.0f%% +0, %.0f%% +1, %llu jumps; "
              "client %.2f-%.2f Hz",
              static_cast<unsigned long long>(t.server_ticks), t.expected_server_ticks,
              static_cast<unsigned long long>(t.server_ticks_dropped),
              static_cast<unsigned long long>(t.client_frames),
              static_cast<double>(t.frames_without_tick) * f, static_cast<double>(t.frames_with_one_tick) * f,
              static_cast<unsigned long long>(t.frames_with_jump), t.client_tick_rate_min_hz,
              t.client_tick_rate_max_hz),
          fmt("server ticks = duration x rate ± 1, none dropped; client +0/+1 per frame, %.0f Hz ± %.0f %%",
              1.0 * r.tick_rate, r.client_rate_tolerance * 100),
          c);
}

void grade_clock(const PassFigures& m, const CsRules& r, Verdict& v) {
    const auto& c = m.clock;
    Checks k;
    k.need(c.offset_ticks.count > 0, "no arrival offsets sampled");
    k.need(c.offset_error_ticks.median <= r.offset_error_ticks, "|offset error| median %.2f ticks > %.1f",
           c.offset_error_ticks.median, r.offset_error_ticks);
    k.need(c.hard_resyncs == 0, "%llu hard resyncs", static_cast<unsigned long long>(c.hard_resyncs));
    v.add("2 Clock sync",
          fmt("offset error median %.2f ticks (≤ %.1f), %llu hard resyncs", c.offset_error_ticks.median,
              r.offset_error_ticks, static_cast<unsigned long long>(c.hard_resyncs)),
          fmt("input arrival offset median %.2f ticks (target %.1f), |error| median %.2f p95 %.2f; %llu hard "
              "resyncs",
              c.offset_ticks.median, c.target_offset_ticks, c.offset_error_ticks.median,
              c.offset_error_ticks.p95, static_cast<unsigned long long>(c.hard_resyncs)),
          fmt("|error| median <= %.1f tick over the 2nd half, 0 resyncs", r.offset_error_ticks), k);
}

void grade_shared(const CsFigures& f, const CsRules& r, Verdict& v) {
    const auto& s = f.shared_step.shared;
    Checks c;
    c.need(s.ticks_compared >= r.min_shared_ticks, "%llu ticks compared < %llu",
           static_cast<unsigned long long>(s.ticks_compared),
           static_cast<unsigned long long>(r.min_shared_ticks));
    c.need(s.mismatches == 0, "%llu checksum mismatches (first at tick %lld)",
           static_cast<unsigned long long>(s.mismatches), static_cast<long long>(s.first_mismatch_tick));
    c.need(f.shared_step.prediction.corrections == 0, "%llu corrections",
           static_cast<unsigned long long>(f.shared_step.prediction.corrections));
    v.add(
        "4 Shared simulation",
        fmt("%llu ticks (≥ %llu), %llu checksum mismatches",
            static_cast<unsigned long long>(s.ticks_compared),
            static_cast<unsigned long long>(r.min_shared_ticks),
            static_cast<unsigned long long>(s.mismatches)),
        fmt("%llu ticks: client prediction vs server own-entity checksum, %llu mismatches (%llu corrections, "
            "%llu inputs repeated)",
            static_cast<unsigned long long>(s.ticks_compared), static_cast<unsigned long long>(s.mismatches),
            static_cast<unsigned long long>(f.shared_step.prediction.corrections),
            static_cast<unsigned long long>(s.inputs_repeated)),
        fmt(">= %llu ticks compared, 0 mismatches, 0 corrections",
            static_cast<unsigned long long>(r.min_shared_ticks)),
        c);
}

void grade_interp(const PassFigures& m, const CsRules& r, Verdict& v) {
    const auto& i = m.interp;
    Checks c;
    c.need(i.frames > 0, "no render frames");
    c.need(i.extrapolated_share <= r.max_extrapolated_share, "extrapolated %.2f %% > %.1f %%",
           i.extrapolated_share * 100.0, r.max_extrapolated_share * 100.0);
    c.need(i.held_share <= r.max_held_share, "held %.2f %% > %.1f %%", i.held_share * 100.0,
           r.max_held_share * 100.0);
    c.need(i.max_extrapolation_ticks <= i.extrapolation_cap_ticks + 1e-9,
           "extrapolated %.2f ticks past the newest snapshot > cap %.0f", i.max_extrapolation_ticks,
           i.extrapolation_cap_ticks);
    v.add("5 Remote interpolation",
          fmt("extrapolated %.2f %% (≤ %.1f), held %.2f %% (≤ %.1f)", i.extrapolated_share * 100.0,
              r.max_extrapolated_share * 100, i.held_share * 100.0, r.max_held_share * 100),
          fmt("at %.1f%% loss: %.2f starvations/client-min, %.2f%% frames extrapolated, %.2f%% held, max "
              "%.2f ticks past newest (cap %.0f)",
              m.channel.loss * 100.0, i.starvations_per_client_minute, i.extrapolated_share * 100.0,
              i.held_share * 100.0, i.max_extrapolation_ticks, i.extrapolation_cap_ticks),
          fmt("extrapolated <= %.1f%%, held <= %.1f%%, never past the cap", r.max_extrapolated_share * 100,
              r.max_held_share * 100),
          c);
}

void grade_authority(const PassFigures& m, Verdict& v) {
    const auto& a = m.authority;
    Checks c;
    c.need(a.probe_seated, "the probe got no seat");
    c.need(a.bad_packets_sent > 0 && a.malformed_counted >= a.bad_packets_sent,
           "%llu of %llu bad packets counted as malformed",
           static_cast<unsigned long long>(a.malformed_counted),
           static_cast<unsigned long long>(a.bad_packets_sent));
    c.need(a.flagged, "the probe was not flagged");
    c.need(a.inputs_overflow + a.inputs_rate_limited > 0, "nothing of the flood was dropped");
    c.need(a.probe_ticks_observed > 0, "the probe was never seen alive on the server");
    c.need(a.probe_max_speed <= a.top_speed + 0.5, "probe speed %.1f u/tick > top %.0f", a.probe_max_speed,
           a.top_speed);
    v.add("6 Server authority",
          fmt("%llu/%llu bad packets refused, flood %s, speed %.1f (≤ %.0f)",
              static_cast<unsigned long long>(a.malformed_counted),
              static_cast<unsigned long long>(a.bad_packets_sent), a.flagged ? "flagged" : "not flagged",
              a.probe_max_speed, a.top_speed),
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
          "every bad packet rejected and counted, flood dropped and flagged, speed <= top", c);
}

void grade_smoothing(const PassFigures& m, const CsRules& r, Verdict& v) {
    const auto& p = m.prediction;
    Checks c;
    c.need(p.snapped_below_threshold == 0, "%llu snapped below the threshold",
           static_cast<unsigned long long>(p.snapped_below_threshold));
    c.need(p.smoothed_above_threshold == 0, "%llu smoothed above the threshold",
           static_cast<unsigned long long>(p.smoothed_above_threshold));
    c.need(p.max_drawn_step_m <= r.max_drawn_step_m, "drawn player jumped %.3f m > %.3f m",
           p.max_drawn_step_m, r.max_drawn_step_m);
    v.add("9 Smooth corrections",
          fmt("%llu snapped below %.2f m, drawn jump %.3f m (≤ %.3f)",
              static_cast<unsigned long long>(p.snapped_below_threshold), p.snap_threshold_m,
              p.max_drawn_step_m, r.max_drawn_step_m),
          fmt("%llu smoothed, %llu snapped (threshold %.2f m); %llu snapped below it, %llu smoothed above; "
              "largest jump of the drawn player %.3f m",
              static_cast<unsigned long long>(p.smoothed), static_cast<unsigned long long>(p.snapped),
              p.snap_threshold_m, static_cast<unsigned long long>(p.snapped_below_threshold),
              static_cast<unsigned long long>(p.smoothed_above_threshold), p.max_drawn_step_m),
          fmt("small ones smoothed, only large ones snap; no drawn jump > %.3f m outside a snap",
              r.max_drawn_step_m),
          c);
}

}  // namespace
Verdict grade_client_server(const CsFigures& f, const CsRules& r) {
    Verdict v;
    grade_fixed_tick(f.main, r, v);
    grade_clock(f.main, r, v);
    grade_prediction(f, r, v);  // cs_grade_net.cpp
    grade_shared(f, r, v);
    grade_interp(f.main, r, v);
    grade_authority(f.main, v);
    grade_channel(f, r, v);   // cs_grade_net.cpp
    grade_lag_comp(f, r, v);  // cs_grade_net.cpp
    grade_smoothing(f.main, r, v);
    latency_row(f.main, v);              // cs_grade_net.cpp
    grade_bandwidth(f.bandwidth_64, v);  // bandwidth_grades.cpp
    return v;
}

}  // namespace lab
