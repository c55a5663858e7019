// The client-server items graded on the scenario's own network: prediction with late inputs (3), events and
// deaths (7), lag compensation (8), and the end-to-end latency row.
#include "cs_grade_items.hpp"

namespace lab {
namespace {

using ull = unsigned long long;

ull u(std::uint64_t x) { return static_cast<ull>(x); }

/// Every death the server sent reached every checked client once, in the order sent, with the same victim and
/// killer; and what the server sent is every death of its final ticks, once.
void check_deaths(const ChannelFigures& c, const char* pass, Checks& checks) {
    checks.need(c.death_receivers > 0, "%s: no client to check deaths on", pass);
    checks.need(
        c.deaths_unsent == 0 && c.deaths_not_final == 0 && c.deaths_out_of_turn == 0,
        "%s: %llu deaths of the final ticks never sent, %llu sent that the final ticks do not hold, %llu "
        "sent out of tick order other than by a replay",
        pass, u(c.deaths_unsent), u(c.deaths_not_final), u(c.deaths_out_of_turn));
    checks.need(c.deaths_delivered == c.deaths_expected && c.deaths_missing == 0 && c.deaths_extra == 0 &&
                    c.deaths_wrong == 0,
                "%s: deaths %llu of %llu delivered in order (%llu missing, %llu extra, %llu wrong)", pass,
                u(c.deaths_delivered), u(c.deaths_expected), u(c.deaths_missing), u(c.deaths_extra),
                u(c.deaths_wrong));
}

}  // namespace

double live_share(const ShotFigures& s, std::uint64_t& live) {
    const std::uint64_t dead = s.target_dead_on_server + s.shooter_dead_on_server;
    const std::uint64_t judged = s.registered + s.not_registered;
    live = judged > dead ? judged - dead : 0;
    return live ? static_cast<double>(s.registered) / static_cast<double>(live) : 0.0;
}

void grade_prediction(const CsFigures& f, const CsRules& r, Verdict& v) {
    const auto& z = f.zero_latency.prediction;
    const auto& p = f.main.prediction;
    const auto& in = f.main.inputs;
    const double px = 1.0 / r.px_per_m;
    Checks c;
    c.need(z.reconciliations > 0, "no reconciliations at 0 ms");
    c.need(z.own == 0, "%llu own corrections at 0 ms > 0", u(z.own));
    c.need(p.reconcile_error_m.count > 0, "no reconciliations on the scenario");
    c.need(p.reconcile_error_m.p99 < px, "p99 reconciliation error %.2f px >= 1 px",
           p.reconcile_error_m.p99 * r.px_per_m);
    c.need(p.own_error_m.median < px, "median own correction %.2f px >= 1 px",
           p.own_error_m.median * r.px_per_m);
    c.need(in.ticks_simulated > 0, "no inputs applied on the scenario");
    c.need(in.late_share <= r.max_late_share, "late inputs %.2f %% > %.1f %%", in.late_share * 100.0,
           r.max_late_share * 100.0);
    c.need(p.own_visible <= r.max_own_visible, "%llu own corrections >= 1 px (%.2f per player-minute) > %llu",
           u(p.own_visible), p.own_visible_per_player_minute, u(r.max_own_visible));
    v.add(
        "3 Prediction + reconciliation",
        fmt("p99 %.2f px (< 1), %llu own ≥ 1 px, late inputs %.2f %% (≤ %.1f)",
            p.reconcile_error_m.p99 * r.px_per_m, u(p.own_visible), in.late_share * 100.0,
            r.max_late_share * 100.0),
        fmt("0 ms: %llu of %llu corrections unexplained by other players (%llu reconciliations); scenario: "
            "p99 reconciliation error %.4f m = %.2f px over %llu; own corrections %llu, median %.2f px, p99 "
            "%.2f px, %llu >= 1 px (%.2f per player-minute, %llu after a repeated input); late inputs "
            "%.2f%% of %llu ticks (%.2f%% repeated), %llu of them replayed (%llu replays, %llu dropped for "
            "an event, %llu over budget); input buffer mean %.2f ticks (target median %.1f) = +%.1f ms",
            u(z.own), u(z.corrections), u(z.reconciliations), p.reconcile_error_m.p99,
            p.reconcile_error_m.p99 * r.px_per_m, u(p.reconcile_error_m.count), u(p.own),
            p.own_error_m.median * r.px_per_m, p.own_error_m.p99 * r.px_per_m, u(p.own_visible),
            p.own_visible_per_player_minute, u(p.own_visible_after_repeat), in.late_share * 100.0,
            u(in.ticks_simulated), in.repeated_share * 100.0, u(in.replayed), u(in.replays),
            u(in.replays_aborted), u(in.replay_refused), in.buffer_depth_ticks.mean,
            in.buffer_target_ticks.median, in.added_latency_ms),
        fmt("0 own corrections at 0 ms; scenario: p99 reconciliation error and median own correction < 1 px "
            "(%.4f m at %.0f px/m), late inputs <= %.1f%% (late / ticks simulated), %llu own corrections "
            ">= 1 px",
            px, r.px_per_m, r.max_late_share * 100.0, u(r.max_own_visible)),
        c);
}

void grade_channel(const CsFigures& f, const CsRules& r, Verdict& v) {
    const ChannelFigures& c = f.loss_10.channel;
    const ChannelFigures& m = f.main.channel;
    Checks k;
    k.need(c.snapshot_gap_ms.count > 0, "no snapshots arrived at %.0f%% loss", c.loss * 100.0);
    k.need(c.max_snapshot_gap_ms < r.max_snapshot_gap_ms, "longest snapshot gap %.0f ms >= %.0f ms",
           c.max_snapshot_gap_ms, r.max_snapshot_gap_ms);
    k.need(c.chats_sent > 0, "no chat lines sent");
    k.need(c.events_sent > 0, "no events sent before the drain window");
    k.need(c.events_received == c.events_sent, "events %llu of %llu received once, in order",
           u(c.events_received), u(c.events_sent));
    k.need(c.events_out_of_order == 0, "%llu events out of order", u(c.events_out_of_order));
    k.need(c.events_content_errors == 0, "%llu chat lines wrong", u(c.events_content_errors));
    check_deaths(c, "10% loss", k);
    check_deaths(m, "scenario", k);
    v.add(
        "7 Channel selection",
        fmt("gap %.0f ms (< %.0f), events %llu/%llu, deaths %llu/%llu in order", c.max_snapshot_gap_ms,
            r.max_snapshot_gap_ms, u(c.events_received), u(c.events_sent),
            u(c.deaths_delivered + m.deaths_delivered), u(c.deaths_expected + m.deaths_expected)),
        fmt("at %.0f%% loss: longest snapshot gap %.0f ms (p99 %.0f ms); events sent before the last %.1f s "
            "(drain): %llu/%llu received, %llu out of order, %llu wrong; deaths: %llu on the server, "
            "%llu/%llu deliveries to %llu clients in order; scenario: %llu deaths, %llu/%llu deliveries to "
            "%llu clients",
            c.loss * 100.0, c.max_snapshot_gap_ms, c.snapshot_gap_ms.p99, c.drain_ms / 1000.0,
            u(c.events_received), u(c.events_sent), u(c.events_out_of_order), u(c.events_content_errors),
            u(c.deaths_on_server), u(c.deaths_delivered), u(c.deaths_expected), u(c.death_receivers),
            u(m.deaths_on_server), u(m.deaths_delivered), u(m.deaths_expected), u(m.death_receivers)),
        fmt("gap < %.0f ms; every event and every death once, in order, at every client",
            r.max_snapshot_gap_ms),
        k);
}

void grade_lag_comp(const CsFigures& f, const CsRules& r, Verdict& v) {
    const ShotFigures& z = f.zero_latency.shots;
    const ShotFigures& m = f.main.shots;
    std::uint64_t z_live = 0, m_live = 0;
    const double z_share = live_share(z, z_live);
    const double m_share = live_share(m, m_live);
    Checks c;
    c.need(z_live >= r.min_judged_hits, "0 ms: %llu judged hits < %llu", u(z_live), u(r.min_judged_hits));
    c.need(z_share >= r.min_registered_share, "0 ms registration %.1f %% < %.0f %%", z_share * 100.0,
           r.min_registered_share * 100.0);
    c.need(m_live >= r.min_judged_hits, "scenario: %llu judged hits < %llu", u(m_live), u(r.min_judged_hits));
    // A client slower than the RTT compensated in full has its shots judged at its rewind limit, after the
    // view it aimed at: by design it must lead them. Say so, with the figures, when that is why hits miss.
    const double rtt = f.main.clock.rtt_ms.median;
    const std::string beyond =
        m.max_rewind_ms < 0 && rtt > m.max_compensated_rtt_ms
            ? fmt(" (median RTT %.0f ms is beyond the %.0f ms compensated in full: %.1f %% of shots were "
                  "judged "
                  "at the rewind limit, %.0f ms after the view the shooter aimed at; the bots do not lead)",
                  rtt, m.max_compensated_rtt_ms, m.beyond_limit_share * 100.0,
                  m.rewind_ms.median - m.rewind_limit_ms.median)
            : std::string();
    c.need(m_share >= r.min_registered_share_scenario, "registration %.1f %% < %.0f %%%s", m_share * 100.0,
           r.min_registered_share_scenario * 100.0, beyond.c_str());
    c.need(m.probe_stale_shots > 0, "the probe fired no lying shots");
    c.need(m.probe_clamped == m.probe_stale_shots, "%llu of %llu probe lying shots clamped",
           u(m.probe_clamped), u(m.probe_stale_shots));
    const double clamped_share =
        m.server_shots ? static_cast<double>(m.server_clamped) / static_cast<double>(m.server_shots) : 0.0;
    v.add(
        "8 Lag compensation",
        fmt("registration %.1f %% of %llu (≥ %.0f %%), probe %llu/%llu clamped", m_share * 100.0, u(m_live),
            r.min_registered_share_scenario * 100.0, u(m.probe_clamped), u(m.probe_stale_shots)),
        fmt("0 ms (rewind median %.0f ms): %.1f%% of %llu on-screen hits on live targets registered (%llu "
            "more hit targets already dead on the server); scenario (rewind median %.0f ms, p99 %.0f; rewind "
            "limit median %.0f ms): %.1f%% of %llu; of %llu shots %.1f%% judged beyond the limit, %.1f%% "
            "clamped, %llu claimed a future view; probe: %llu/%llu lying shots clamped (%llu beyond the "
            "limit)",
            z.rewind_ms.median, z_share * 100.0, u(z_live), u(z.target_dead_on_server), m.rewind_ms.median,
            m.rewind_ms.p99, m.rewind_limit_ms.median, m_share * 100.0, u(m_live), u(m.server_shots),
            m.beyond_limit_share * 100.0, clamped_share * 100.0, u(m.server_future_view), u(m.probe_clamped),
            u(m.probe_stale_shots), u(m.probe_beyond_limit)),
        fmt(">= %.0f%% of on-screen hits on live targets registered at 0 ms and >= %.0f%% on the scenario's "
            "network; every lying probe shot clamped",
            r.min_registered_share * 100.0, r.min_registered_share_scenario * 100.0),
        c);
}

void latency_row(const PassFigures& m, Verdict& v) {
    const LatencyFigures& l = m.latency;
    v.skip(
        "- End-to-end latency",
        fmt("median input to server %.0f ms, remote view %.0f ms old", l.input_to_apply_ms.median,
            l.view_age_ms.median),
        fmt("input sampled -> applied by the server: median %.0f ms, p99 %.0f ms (input buffer +%.1f ms); "
            "remote players drawn: median %.0f ms, p99 %.0f ms old (interpolation delay %.0f ms; RTT median "
            "%.0f ms)",
            l.input_to_apply_ms.median, l.input_to_apply_ms.p99, m.inputs.added_latency_ms,
            l.view_age_ms.median, l.view_age_ms.p99, l.interp_delay_ms, l.rtt_ms),
        "shown, not graded: what each buffer costs on the scenario");
}

}  // namespace lab
