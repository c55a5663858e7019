// The rollback and lockstep models: options to a pass, the graded determinism items, the notes and the
// charts.
#include "rollback_model.hpp"

#include "rb_join.hpp"
#include "rb_match.hpp"

#include <algorithm>
#include <cmath>

namespace lab {
namespace {

constexpr int kRollbackDelay = 2;      // the session's default input delay
constexpr int kRollbackWindow = 8;     // the session's default prediction window
constexpr double kMinCoverage = 0.5;   // the check must cover at least this share of the nominal frames
constexpr double kMinAdvanced = 0.95;  // rollback must advance this share of the wall-clock frames

/// Lockstep waits for every input, so the input delay must cover the one-way trip: latency plus two standard
/// deviations of jitter, plus one frame for a lost packet's resend, in whole frames.
int lockstep_delay(const rwd::transport::LinkConfig& up, const rwd::transport::LinkConfig& down,
                   int tick_rate) {
    const double frame_us = 1e6 / tick_rate;
    double worst = 0;
    for (const auto* l : {&up, &down})
        worst = std::max(worst,
                         static_cast<double>(l->latency.count) + 2.0 * static_cast<double>(l->jitter.count));
    return std::clamp(static_cast<int>(std::ceil(worst / frame_us)) + 1, kRollbackDelay, 30);
}

Chart per_peer_chart(const RbFigures& f, std::string title, std::string y_label,
                     double (*pick)(const RbSample&), std::string caption) {
    Chart c;
    c.title = std::move(title);
    c.y_label = std::move(y_label);
    c.caption = std::move(caption);
    for (int p = 0; p < f.players; ++p) {
        Series s{"peer " + std::to_string(p), {}, {}, {}, {}};
        for (const RbSample& smp : f.samples) {
            if (smp.peer != p) continue;
            s.x.push_back(smp.t);
            s.y.push_back(pick(smp));
        }
        c.series.push_back(std::move(s));
    }
    return c;
}

std::string depth_histogram(const std::vector<std::uint64_t>& h, std::uint64_t total) {
    std::string s;
    for (std::size_t d = 0; d < h.size(); ++d) {
        if (h[d] == 0) continue;
        s += fmt("  %zu%s:%llu (%.1f%%)", d, d + 1 == h.size() ? "+" : "",
                 static_cast<unsigned long long>(h[d]),
                 total > 0 ? 100.0 * static_cast<double>(h[d]) / static_cast<double>(total) : 0.0);
    }
    return s.empty() ? "  none" : s;
}

// --save-replay: the file the first peer's session wrote, read back and played (rb_match.cpp).
void add_replay_item(const RbReplayFigures& rp, ModelResult& r) {
    const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    const bool pass = rp.error.empty() && rp.frames > 0 && rp.checksums > 0 && rp.checksums_missed == 0 &&
                      rp.played_checksums == rp.checksums && rp.played_mismatches == 0 &&
                      rp.frames_compared > 0 && rp.frames_differing == 0 && rp.seeks > 0 &&
                      rp.seek_mismatches == 0;
    std::string measured =
        fmt("%s: %lld frames in %llu bytes; played back: %llu/%llu checksums and %llu/%llu frames of the "
            "first peer equal; %llu/%llu seeks equal a straight play (%.0f frames simulated per seek)",
            rp.path.c_str(), static_cast<long long>(rp.frames), u(rp.bytes),
            u(rp.played_checksums - rp.played_mismatches), u(rp.checksums),
            u(rp.frames_compared - rp.frames_differing), u(rp.frames_compared),
            u(rp.seeks - rp.seek_mismatches), u(rp.seeks), rp.seek_frames_mean);
    if (rp.checksums_missed > 0) measured += fmt(", %llu checksum frames missed", u(rp.checksums_missed));
    if (!rp.error.empty()) measured += ", error: " + rp.error;
    r.verdict.add(
        "Replay file",
        rp.error.empty()
            ? fmt("%llu/%llu checksums, %llu/%llu seeks equal", u(rp.played_checksums - rp.played_mismatches),
                  u(rp.checksums), u(rp.seeks - rp.seek_mismatches), u(rp.seeks))
            : "error: " + rp.error,
        measured,
        "the file read back replays bit-exactly (every checksum frame, every frame of the first peer) "
        "and seeks land on the straight play's state",
        pass);
}

// The late-join pass: a newcomer joins at 20 s, a player crashes at 30 s and takes its slot back at 40 s.
RbJoinFigures add_join_item(const LabOptions& o, const rwd::transport::LinkConfig& up,
                            const rwd::transport::LinkConfig& down, ModelResult& r) {
    RbJoinConfig jc;
    jc.seed = o.seed;
    jc.tick_rate = o.tick_rate;
    jc.up = up;
    jc.down = down;
    const RbJoinFigures j = run_rb_join_pass(jc);
    const double stall = std::max(j.join_stall_ms, j.rejoin_stall_ms);
    const bool pass = j.joined && j.rejoined && j.desyncs == 0 && j.pair_mismatches == 0 &&
                      j.replay_mismatches == 0 && j.pair_comparisons > 0 && j.replay_comparisons > 0 &&
                      stall < j.bound_ms;
    r.verdict.add(
        "Rollback late join",
        fmt("join at 20 s, crash 30 s, rejoin 40 s: %s, %llu desyncs, others' longest stall %.0f ms",
            j.joined && j.rejoined ? "both played" : "a joiner never played",
            static_cast<unsigned long long>(j.desyncs), stall),
        fmt("newcomer from frame %d, returning player from frame %d (state %.0f bytes, %llu frames fast-"
            "forwarded); hashes equal: %llu/%llu pairs, %llu/%llu against a single-process replay of %lld "
            "frames; longest stall of the others %.0f ms (join) and %.0f ms (rejoin)",
            j.join_frame, j.rejoin_frame, j.state_bytes, static_cast<unsigned long long>(j.catch_up_frames),
            static_cast<unsigned long long>(j.pair_comparisons - j.pair_mismatches),
            static_cast<unsigned long long>(j.pair_comparisons),
            static_cast<unsigned long long>(j.replay_comparisons - j.replay_mismatches),
            static_cast<unsigned long long>(j.replay_comparisons), static_cast<long long>(j.frames),
            j.join_stall_ms, j.rejoin_stall_ms),
        fmt("both joiners play; 0 desyncs; equal hashes across machines and with the replay; the others "
            "never stall as long as the join timeout (%.0f ms)",
            j.bound_ms),
        pass);
    return j;
}

ModelResult run_p2p(const LabOptions& o, bool lockstep) {
    ModelResult r;
    const char* name = lockstep ? "lockstep" : "rollback";
    const int players = o.player_count();  // validated: kMinPeers..kMaxPeers
    const std::string players_note =
        o.players ? std::string() : fmt("  (the default; --players takes %d..%d)", kMinPeers, kMaxPeers);
    const auto up = up_link(o).value();
    const auto down = down_link(o).value();
    RbPassConfig pc;
    pc.game = o.game == "swarm" ? RbGame::swarm : RbGame::arena;
    pc.players = players;
    pc.duration_s = o.duration_s;
    pc.seed = o.seed;
    pc.tick_rate = o.tick_rate;
    pc.fps = o.render_fps;
    pc.frame_jitter = o.frame_jitter;
    pc.max_prediction = lockstep ? 0 : kRollbackWindow;
    pc.input_delay = lockstep ? lockstep_delay(up, down, o.tick_rate) : kRollbackDelay;
    pc.adapt_input_delay = !lockstep;  // rollback sizes its delay to the links; lockstep's covers the trip
    pc.up = up;
    pc.down = down;
    pc.replay_path = o.replay_path;
    const RbFigures f = run_rb_pass(pc);
    const RbDeterminism& d = f.determinism;

    r.header.push_back(fmt("rewind-lab  model %s  game %s  players %d  duration %.0f s  seed %llu", name,
                           f.game.c_str(), players, o.duration_s, static_cast<unsigned long long>(o.seed)) +
                       players_note);
    int start_lo = 1 << 30, start_hi = 0, used_lo = 1 << 30, used_hi = 0;
    std::uint64_t delay_changes = 0;
    double advanced = f.peers.empty() ? 0.0 : 1.0;
    for (const RbPeerFigures& p : f.peers) {
        start_lo = std::min(start_lo, p.input_delay_start);
        start_hi = std::max(start_hi, p.input_delay_start);
        used_lo = std::min(used_lo, p.input_delay_min);
        used_hi = std::max(used_hi, p.input_delay_max);
        delay_changes += p.input_delay_changes;
        advanced = std::min(advanced, p.advanced_share);
    }
    const std::string delay =
        lockstep ? fmt("input delay %d frames", pc.input_delay)
                 : fmt("input delay sized to the links: %d..%d at the start, %d..%d in play (%llu changes; "
                       "least %d)",
                       start_lo, start_hi, used_lo, used_hi, static_cast<unsigned long long>(delay_changes),
                       pc.input_delay);
    r.header.push_back(fmt("  tick %d Hz  render %.0f fps ± %.0f %%  %s  prediction window %d%s", o.tick_rate,
                           o.render_fps, o.frame_jitter * 100.0, delay.c_str(), pc.max_prediction,
                           lockstep ? " (lockstep; delay covers latency + 2 jitter + 1 frame)" : ""));
    r.header.push_back("  profile " + o.profile + "  lower -> higher peer: " + describe_link(up));
    r.header.push_back("  higher -> lower peer: " + describe_link(down));
    r.header.push_back(
        fmt("  full mesh of %d SimNetwork peers, each frame clock at its session's time_scale(); bots "
            "choose inputs from their peer's predicted state",
            players));

    const std::uint64_t peer_frames =
        static_cast<std::uint64_t>(std::max<std::int64_t>(d.frames, 0)) * static_cast<std::uint64_t>(players);
    const double nominal = f.running_s * o.tick_rate;
    const bool covered = d.frames > 0 && static_cast<double>(d.frames) >= kMinCoverage * nominal;
    const bool det_pass = covered && d.pair_mismatches == 0 && d.replay_mismatches == 0 &&
                          d.desync_events == 0 && d.missing_checksums == 0 && d.input_mismatches == 0 &&
                          d.replay_comparisons == peer_frames;
    std::string measured =
        fmt("%lld confirmed frames x %d peers: %llu/%llu pairwise and %llu/%llu replay hashes equal, "
            "%llu desync events",
            static_cast<long long>(d.frames), players,
            static_cast<unsigned long long>(d.pair_comparisons - d.pair_mismatches),
            static_cast<unsigned long long>(d.pair_comparisons),
            static_cast<unsigned long long>(d.replay_comparisons - d.replay_mismatches),
            static_cast<unsigned long long>(d.replay_comparisons),
            static_cast<unsigned long long>(d.desync_events));
    if (d.missing_checksums > 0 || d.input_mismatches > 0)
        measured += fmt(", %llu hashes missing, %llu inputs differ from those sent",
                        static_cast<unsigned long long>(d.missing_checksums),
                        static_cast<unsigned long long>(d.input_mismatches));
    if (d.first_replay_mismatch >= 0)
        measured +=
            fmt(", first replay mismatch at frame %lld", static_cast<long long>(d.first_replay_mismatch));
    r.verdict.add(
        "Rollback determinism",
        fmt("hashes equal: %llu/%llu pairs, %llu/%llu replays; %llu desyncs",
            static_cast<unsigned long long>(d.pair_comparisons - d.pair_mismatches),
            static_cast<unsigned long long>(d.pair_comparisons),
            static_cast<unsigned long long>(d.replay_comparisons - d.replay_mismatches),
            static_cast<unsigned long long>(d.replay_comparisons),
            static_cast<unsigned long long>(d.desync_events)),
        measured,
        fmt("identical state hash per confirmed frame on every peer and in a single-process replay of the "
            "inputs sent; 0 desyncs; >= %.0f%% of %.0f frames checked",
            kMinCoverage * 100.0, nominal),
        det_pass);
    if (!o.replay_path.empty()) add_replay_item(f.replay, r);
    if (!lockstep) {
        std::string who;
        for (const RbPeerFigures& p : f.peers)
            who += fmt("%s%d: %.1f %%, delay %d..%d", who.empty() ? "" : "; ", p.index,
                       p.advanced_share * 100.0, p.input_delay_min, p.input_delay_max);
        r.verdict.add("Rollback keeps up",
                      fmt("%.1f %% of wall-clock frames advanced (≥ %.0f), delay %d..%d", advanced * 100.0,
                          kMinAdvanced * 100.0, used_lo, used_hi),
                      "slowest peer " + fmt("%.1f %%", advanced * 100.0) + "; per peer " + who,
                      fmt(">= %.0f%% of the frames the wall clock allows while running, on every peer (the "
                          "input delay sized to the links keeps stalls rare)",
                          kMinAdvanced * 100.0),
                      advanced >= kMinAdvanced);
    }
    RbJoinFigures join;
    if (!lockstep) join = add_join_item(o, up, down, r);
    if (lockstep)
        r.verdict.add(
            "Lockstep: no rollbacks", fmt("%llu rollbacks", static_cast<unsigned long long>(f.rollbacks)),
            fmt("%llu rollbacks, %llu frames re-simulated", static_cast<unsigned long long>(f.rollbacks),
                static_cast<unsigned long long>(f.frames_resimulated)),
            "0 (frames advance only on confirmed inputs)", f.rollbacks == 0 && f.frames_resimulated == 0);

    r.notes.push_back(
        fmt("  %s: %llu rollbacks, depth distribution:", name, static_cast<unsigned long long>(f.rollbacks)) +
        depth_histogram(f.rollback_depth, f.rollbacks));
    r.notes.push_back(fmt(
        "  re-simulated %llu frames (%.1f per peer-second), %.2f us per re-simulated frame (load + "
        "step + save, real clock)",
        static_cast<unsigned long long>(f.frames_resimulated), f.resimulated_per_s, f.resim_us_per_frame));
    r.notes.push_back(
        fmt("  stalls: %llu at the prediction threshold%s, %llu time-sync backstop; %llu time-sync "
            "adjustments; |frames ahead| median %.2f p95 %.2f max %.2f",
            static_cast<unsigned long long>(f.stalls_prediction), lockstep ? " (lockstep waits)" : "",
            static_cast<unsigned long long>(f.stalls_time_sync),
            static_cast<unsigned long long>(f.time_sync_events), f.frames_ahead.median, f.frames_ahead.p95,
            f.frames_ahead.max));
    r.details.push_back(
        "  peer  frames  rollbacks  max  resim/s  us/resim  step us  stalls(pred/ts)  ts-adj  speed range"
        "    ahead p95  kbps up/down  ping ms  desyncs");
    for (const RbPeerFigures& p : f.peers)
        r.details.push_back(
            fmt("  %4d  %6lld  %9llu  %3d  %7.1f  %8.2f  %7.2f  %7llu/%-7llu  %6llu  %.3f..%.3f  %9.2f  "
                "%5.1f/%-6.1f"
                "  %7.0f  %7llu",
                p.index, static_cast<long long>(p.final_frame), static_cast<unsigned long long>(p.rollbacks),
                p.max_depth, p.resimulated_per_s, p.resim_us_per_frame, p.step_us,
                static_cast<unsigned long long>(p.stalls_prediction),
                static_cast<unsigned long long>(p.stalls_time_sync),
                static_cast<unsigned long long>(p.time_sync_events), p.time_scale_min, p.time_scale_max,
                p.frames_ahead.p95, p.kbps_sent, p.kbps_received, p.ping_ms,
                static_cast<unsigned long long>(p.desyncs)));
    r.notes.push_back(
        fmt("  pass: %.1f simulated s (%.1f s running, mesh connected after %.2f s) in %.2f wall s",
            f.simulated_s, f.running_s, f.connect_s, f.wall_s));

    r.figures = f;
    if (!lockstep) r.figures["join"] = join;
    r.figures["links"] = {{"up", describe_link(up)}, {"down", describe_link(down)}};
    const std::string stem = name;
    r.charts.emplace_back(
        stem + "_rollback_depth",
        per_peer_chart(
            f, std::string(name) + ": deepest rollback per 250 ms", "frames re-simulated",
            [](const RbSample& s) { return static_cast<double>(s.max_depth); },
            "good: well under the prediction window (8); deeper means inputs arrive later"));
    r.charts.emplace_back(stem + "_frames_ahead",
                          per_peer_chart(
                              f, std::string(name) + ": frames ahead of the slowest peer", "frames",
                              [](const RbSample& s) { return s.frames_ahead; },
                              "good: near 0 for every peer; time sync slows the one ahead"));
    r.charts.emplace_back(stem + "_resimulated",
                          per_peer_chart(
                              f, std::string(name) + ": frames re-simulated per second (1 s window)",
                              "frames/s", [](const RbSample& s) { return s.resim_per_s; },
                              "good: low; it is the CPU rollback costs on top of the frames played"));
    r.charts.emplace_back(stem + "_time_scale",
                          per_peer_chart(
                              f, std::string(name) + ": recommended speed (time_scale)", "x nominal",
                              [](const RbSample& s) { return s.time_scale; },
                              "good: within a few percent of 1 (time sync nudges, never jumps)"));
    return r;
}

}  // namespace

ModelResult run_rollback(const LabOptions& options) { return run_p2p(options, false); }

ModelResult run_lockstep(const LabOptions& options) { return run_p2p(options, true); }

}  // namespace lab
