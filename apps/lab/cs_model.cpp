// The client-server model of the lab: its passes (scenario, 0 ms, scripted solo, 10 % loss, 64 players'
// bandwidth, reconnect), graded and charted.
#include "bandwidth_grades.hpp"
#include "cs_charts.hpp"
#include "cs_grade.hpp"
#include "cs_match.hpp"
#include "cs_reconnect.hpp"
#include "cs_recording.hpp"
#include "model.hpp"
#include "task_pool.hpp"

#include "client/net_recording_config.hpp"

#include <rewind/session/client_server/config.hpp>

#include <sodium.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lab {

namespace {

/// The passes' configs from the options; the control passes last at most 20 simulated seconds.
struct Passes {
    PassConfig main, zero, shared, loss;
};

Passes plan(const LabOptions& o, const rwd::transport::LinkConfig& up,
            const rwd::transport::LinkConfig& down) {
    PassConfig base;
    base.players = o.player_count();
    base.duration_s = o.duration_s;
    base.seed = o.seed;
    base.tick_rate = o.tick_rate;
    base.snapshot_rate = o.snapshot_rate;
    base.fps = o.render_fps;
    base.frame_jitter = o.frame_jitter;
    base.max_rewind_ms = o.max_rewind_ms;
    base.late_input_replay_ticks = o.late_input_replay_ticks;
    base.max_compensated_rtt_ms = o.max_compensated_rtt_ms;
    base.predict_remote_inputs = !o.neutral_remote_inputs;
    base.judge_shots_as_seen = !o.shots_hit_unseen;
    base.sealed = o.encrypt;
    if (o.snapshot_budget >= 0) {
        base.snapshots.budget_bytes = o.snapshot_budget;
        base.snapshots.burst_bytes = std::min(kBurstSnapshots * o.snapshot_budget, 65535);
    }
    (void)apps::set_snapshot_codec(base.snapshots, o.snapshot_codec);  // validated with the options
    base.up = up;
    base.down = down;
    base.stream = o.stream();
    const double control = std::min(o.duration_s, 20.0);
    Passes p{base, base, base, base};
    p.main.name = "main";
    p.main.probe = true;
    p.main.series = true;
    p.main.record_path = o.replay_path;
    p.zero.name = "zero_latency";
    p.zero.duration_s = control;
    p.zero.up = p.zero.down = rwd::transport::LinkConfig{};
    p.shared.name = "shared_step";
    p.shared.players = 1;
    p.shared.duration_s = control;
    p.shared.bots = BotMode::script;
    p.shared.compare_own = true;
    // The fork test needs every input applied as sent: the scenario's latency without jitter or loss.
    for (auto* l : {&p.shared.up, &p.shared.down}) {
        rwd::transport::LinkConfig clean;
        clean.latency = l->latency;
        *l = clean;
    }
    p.shared.chat = false;
    p.loss.name = "loss_10";
    p.loss.duration_s = control;
    p.loss.up.loss = p.loss.down.loss = 0.10;
    return p;
}

}  // namespace

PassConfig bandwidth_pass_for(const LabOptions& o) {
    const Passes p = plan(o, up_link(o).value(), down_link(o).value());
    return bandwidth_pass(p.main, std::min(p.main.duration_s, 20.0));
}

ModelResult run_client_server(const LabOptions& o) {
    const auto up = up_link(o).value();
    const auto down = down_link(o).value();
    const Passes p = plan(o, up, down);
    CsFigures f;
    ReconnectPassConfig rc;
    rc.seed = o.seed;
    rc.up = up;
    rc.down = down;
    rc.stream = o.stream();
    ReconnectFigures reconnect;
    const PassConfig bandwidth = bandwidth_pass_for(o);
    // libsodium starts here, once, before any pass: a server draws its resume key from it, and its lazy start
    // is not safe from two threads.
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to start");
    // Independent matches, each on its own seeded network: the longest first.
    run_tasks({[&] { f.main = run_pass(p.main); }, [&] { f.bandwidth_64 = run_pass(bandwidth); },
               [&] { f.loss_10 = run_pass(p.loss); }, [&] { f.zero_latency = run_pass(p.zero); },
               [&] { f.shared_step = run_pass(p.shared); }, [&] { reconnect = run_reconnect_pass(rc); }},
              o.jobs);

    CsRules rules;
    rules.tick_rate = o.tick_rate;
    // A smoothed offset (at most the snap distance) decays by exp(-frame / time constant) per frame: that is
    // the largest honest frame-to-frame move of the drawn player beyond its prediction.
    const rwd::client_server::ClientConfig cc;
    const double longest_frame_s = (1.0 + o.frame_jitter) / o.render_fps;
    rules.max_drawn_step_m =
        cc.snap_distance_m * (1.0 - std::exp(-longest_frame_s / cc.smoothing_time.seconds()));
    ModelResult r;
    r.header.push_back(fmt("rewind-lab  model client-server  players %d  duration %.0f s  seed %llu",
                           o.player_count(), o.duration_s, static_cast<unsigned long long>(o.seed)));
    const std::string rewind =
        o.max_rewind_ms == kPerClientRewind
            ? fmt("rewind limit per client (RTT ≤ %d ms in full)", o.max_compensated_rtt_ms)
            : fmt("rewind cap %d ms", o.max_rewind_ms);
    r.header.push_back(fmt("  tick %d Hz  snapshots %d Hz  render %.0f fps ± %.0f %%  %s", o.tick_rate,
                           o.snapshot_rate, o.render_fps, o.frame_jitter * 100.0, rewind.c_str()));
    r.header.push_back(
        o.stream() ? "  transport websocket: one TCP-like stream per client (a loss costs about a round trip "
                     "and holds back everything behind it; unreliable messages held while 4 KiB are unacked)"
                   : "  transport udp: datagrams (a loss costs that packet only)");
    r.header.push_back("  profile " + o.profile + "  up: " + describe_link(up));
    r.header.push_back("  down: " + describe_link(down));
    r.header.push_back(
        o.encrypt ? "  packets: connect tokens, sealed after the hello (ChaCha20-Poly1305, +18 B each)"
                  : "  packets: plain (development mode; --encrypt seals them as production does)");
    r.header.push_back(
        fmt("  passes: main %.0f s (+ probe client), 0 ms %.0f s, scripted solo %.0f s (latency only), "
            "10%% loss %.0f s",
            p.main.duration_s, p.zero.duration_s, p.shared.duration_s, p.loss.duration_s));
    r.verdict = grade_client_server(f, rules);
    add_reconnect_items(reconnect, rc, r.verdict);
    if (!o.replay_path.empty()) add_recording_item(f.main.recording, r.verdict);
    for (const PassFigures* pf : {&f.main, &f.zero_latency, &f.shared_step, &f.loss_10, &f.bandwidth_64})
        r.notes.push_back(fmt("  pass %-13s %5.1f simulated s in %5.2f wall s; %d/%d playing, %llu dropped",
                              pf->name.c_str(), pf->simulated_s, pf->wall_s, pf->playing, pf->players,
                              static_cast<unsigned long long>(pf->disconnects)));
    r.notes.push_back(
        fmt("  pass %-13s %5.1f simulated s in %5.2f wall s; %d players, 2 lose their link "
            "(%.0f s and %.0f s)",
            "reconnect", reconnect.simulated_s, reconnect.wall_s, reconnect.players, rc.short_outage_s,
            rc.long_outage_s));
    const TransportFigures& t = f.main.transport;
    r.notes.push_back(
        fmt("  transport %s, main pass: longest stall %.0f ms (a client without a new snapshot), "
            "extrapolated %.2f %% of frames, on the wire %.1f kbps down, %.1f up per client (IP "
            "headers included)",
            t.transport.c_str(), f.main.channel.max_snapshot_gap_ms, f.main.interp.extrapolated_share * 100.0,
            t.wire_kbps_down, t.wire_kbps_up));
    if (o.stream())
        r.notes.push_back(
            fmt("  stream, main pass: %llu of %llu segments to clients sent again, %llu held back "
                "behind an earlier one (longest wait %.0f ms); unreliable messages replaced while "
                "backed up: %llu snapshots, %llu inputs",
                static_cast<unsigned long long>(t.retransmissions_down),
                static_cast<unsigned long long>(t.segments_down),
                static_cast<unsigned long long>(t.held_back_down), t.max_held_back_ms,
                static_cast<unsigned long long>(t.replaced_down),
                static_cast<unsigned long long>(t.replaced_up)));
    r.figures["transport"] = o.transport;
    r.figures["reconnect"] = reconnect_json(reconnect);
    r.figures["passes"] = {{"main", f.main},
                           {"zero_latency", f.zero_latency},
                           {"shared_step", f.shared_step},
                           {"loss_10", f.loss_10},
                           {"bandwidth_64", f.bandwidth_64}};
    r.figures["rules"] = {{"px_per_m", rules.px_per_m},
                          {"offset_error_ticks", rules.offset_error_ticks},
                          {"max_extrapolated_share", rules.max_extrapolated_share},
                          {"max_held_share", rules.max_held_share},
                          {"max_snapshot_gap_ms", rules.max_snapshot_gap_ms},
                          {"min_registered_share", rules.min_registered_share},
                          {"max_drawn_step_m", rules.max_drawn_step_m}};
    r.charts = client_server_charts(f.main, o.plot_worst);
    return r;
}

}  // namespace lab
