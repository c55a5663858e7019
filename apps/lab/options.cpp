// Lab options: CLI11 registration, validation and the per-direction link configs they describe.
#include "options.hpp"

#include "model.hpp"

#include <arena/constants.hpp>

#include "common/command_line.hpp"

#include <CLI/CLI.hpp>

#include <cmath>
#include <vector>

namespace lab {
namespace {

rwd::Micros millis(double ms) { return rwd::Micros{static_cast<std::int64_t>(std::llround(ms * 1000.0))}; }

void apply(const LinkKnobs& k, rwd::transport::LinkConfig& c) {
    if (k.latency_ms) c.latency = millis(*k.latency_ms);
    if (k.jitter_ms) c.jitter = millis(*k.jitter_ms);
    if (k.loss_pct) c.loss = *k.loss_pct / 100.0;
    if (k.burst_pct) {
        c.burst.p_good_to_bad = *k.burst_pct / 100.0;
        c.burst.loss_in_bad = 1.0;
        c.burst.loss_in_good = 0.0;
        if (!k.burst_len && c.burst.p_bad_to_good >= 1.0) c.burst.p_bad_to_good = 0.25;  // default: 4 packets
    }
    if (k.burst_len) c.burst.p_bad_to_good = *k.burst_len > 0.0 ? 1.0 / *k.burst_len : -1.0;  // <= 0: invalid
    if (k.dup_pct) c.duplicate = *k.dup_pct / 100.0;
    if (k.reorder_pct) c.reorder = *k.reorder_pct / 100.0;
    if (k.bandwidth_kbps) c.bandwidth_kbps = *k.bandwidth_kbps;
}

rwd::Result<rwd::transport::LinkConfig> build(const LabOptions& o, const LinkKnobs& direction) {
    rwd::transport::LinkConfig c;
    if (o.profile != "none") {
        auto p = rwd::transport::link_profile(o.profile);
        if (!p) return rwd::Error{rwd::Errc::invalid_config, "unknown --profile (see --help for the names)"};
        c = p.value();
    }
    apply(o.both, c);
    apply(direction, c);
    if (rwd::Status s = c.validate(); !s) return s.error();
    return c;
}

void add_knobs(CLI::App& app, LinkKnobs& k, const std::string& prefix, const std::string& which) {
    const CLI::Validator delay = apps::number_in(0.0, 60'000.0, "ms"),
                         percent = apps::number_in(0.0, 100.0, "%");
    app.add_option("--" + prefix + "latency", k.latency_ms, "mean one-way latency in ms" + which)
        ->check(delay);
    app.add_option("--" + prefix + "jitter", k.jitter_ms, "one-way jitter (standard deviation) in ms" + which)
        ->check(delay);
    app.add_option("--" + prefix + "loss", k.loss_pct, "random packet loss in percent" + which)
        ->check(percent);
    app.add_option("--" + prefix + "burst", k.burst_pct, "chance per packet of a loss burst, percent" + which)
        ->check(percent);
    app.add_option("--" + prefix + "burst-len", k.burst_len, "mean loss burst length in packets" + which)
        ->check(apps::number_in(1.0, 1'000'000.0, "packets"));
    app.add_option("--" + prefix + "dup", k.dup_pct, "packet duplication in percent" + which)->check(percent);
    app.add_option("--" + prefix + "reorder", k.reorder_pct, "packet reordering in percent" + which)
        ->check(percent);
    app.add_option("--" + prefix + "bandwidth", k.bandwidth_kbps,
                   "bottleneck in kbit/s, 0 = unlimited" + which);
}

std::string pct(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g %%", p * 100.0);
    return buf;
}

}  // namespace

rwd::Status LabOptions::validate() const {
    auto bad = [](const char* what) { return rwd::Status{rwd::Error{rwd::Errc::invalid_config, what}}; };
    const ModelEntry* m = find_model(model);
    if (!m) return bad("--model must be client-server, rollback or lockstep");
    if (game != "arena" && game != "swarm") return bad("--game must be arena or swarm");
    if (game == "swarm" && model == "client-server")
        return bad("--game swarm is a rollback game: use it with --model rollback or lockstep");
    if (players && (*players < m->min_players || *players > m->max_players))
        return bad(m->max_players > 4 ? "--players must be 1..63 for client-server"
                                      : "--players must be 2..4 for rollback and lockstep (peers)");
    if (!(duration_s >= 1.0 && duration_s <= 3600.0)) return bad("--duration must be 1..3600 s");
    if (tick_rate < 10 || tick_rate > 240) return bad("--tick-rate must be 10..240");
    // Both models run the arena, whose speeds are per tick: another rate would measure a different game.
    if (tick_rate != arena::kTickRate)
        return bad("--tick-rate: the arena runs only at 60 Hz (arena::kTickRate; its speeds are per tick)");
    if (snapshot_rate < 10 || snapshot_rate > 60 || snapshot_rate > tick_rate)
        return bad("--snapshot-rate must be 10..60 and at most the tick rate");
    if (!(render_fps >= 10.0 && render_fps <= 1000.0)) return bad("--fps must be 10..1000");
    if (!(frame_jitter >= 0.0 && frame_jitter < 1.0)) return bad("--frame-jitter must be in [0, 1)");
    if (late_input_replay_ticks < 0 || late_input_replay_ticks > 16)
        return bad("--late-input-replay-ticks must be 0..16");
    if (max_compensated_rtt_ms < 0 || max_compensated_rtt_ms > 1000)
        return bad("--max-compensated-rtt-ms must be 0..1000");
    if (max_rewind_ms != kPerClientRewind && (max_rewind_ms < 0 || max_rewind_ms > 1000))
        return bad("--max-rewind-ms must be 0..1000");
    if (snapshot_budget < -1 || snapshot_budget > 65535) return bad("--snapshot-budget must be 0..65535");
    if (snapshot_codec != "range" && snapshot_codec != "range-untrained" && snapshot_codec != "predicted" &&
        snapshot_codec != "plain")
        return bad("--snapshot-codec must be range, range-untrained, predicted or plain");
    if (transport != "udp" && transport != "websocket") return bad("--transport must be udp or websocket");
    if (transport == "websocket" && model != "client-server")
        return bad(
            "--transport websocket: only the client-server model runs over the TCP-like link (rollback and "
            "lockstep peers exchange inputs peer to peer, which a browser does over WebRTC, not WebSocket)");
    if (auto u = up_link(*this); !u) return u.error();
    if (auto d = down_link(*this); !d) return d.error();
    return {};
}

void add_options(CLI::App& app, LabOptions& o) {
    std::vector<std::string> model_names;
    for (const ModelEntry& m : models()) model_names.emplace_back(m.name);
    app.add_option("--model", o.model, "sync model: client-server, rollback, lockstep")
        ->check(CLI::IsMember(model_names))
        ->capture_default_str();
    app.add_option(
           "--game", o.game,
           "the game of the rollback and lockstep models: arena, or swarm (its world lives on the heap "
           "and rolls back through save/load hooks)")
        ->check(CLI::IsMember({"arena", "swarm"}))
        ->capture_default_str();
    app.add_option("--players", o.players,
                   "bot-driven players: 1..63 for client-server (default 8), 2..4 peers for rollback and "
                   "lockstep (default 2)");
    app.add_option("--duration", o.duration_s, "simulated seconds of the main match")->capture_default_str();
    app.add_option("--seed", o.seed, "seed of the network, bots and frame timing")->capture_default_str();
    app.add_option("--tick-rate", o.tick_rate,
                   "simulation ticks per second, 10..240 (the arena supports only arena::kTickRate = 60)")
        ->capture_default_str();
    app.add_option("--snapshot-rate", o.snapshot_rate, "snapshots per second")->capture_default_str();
    app.add_option("--fps", o.render_fps, "client render frames per second")->capture_default_str();
    app.add_option("--frame-jitter", o.frame_jitter, "frame time spread, fraction of a frame")
        ->capture_default_str();
    app.add_option("--late-input-replay-ticks", o.late_input_replay_ticks,
                   "ticks back the server still applies a late input by replaying them, 0..16 (0: the "
                   "repeated input stands, the previous behaviour)")
        ->capture_default_str();
    app.add_flag("--neutral-remote-inputs", o.neutral_remote_inputs,
                 "clients predict remote players with a default input (standing still) instead of the "
                 "arena's remote_input() guess (running on at their velocity): the behaviour before it");
    app.add_flag("--shots-hit-unseen", o.shots_hit_unseen,
                 "lag compensation judges a shot against every player, also those its shooter was never sent "
                 "(outside its area of interest): the behaviour before ServerConfig::judge_shots_as_seen");
    app.add_flag("--encrypt", o.encrypt,
                 "client-server passes as a production server runs them: connect tokens, and every packet "
                 "after the hello encrypted and authenticated (18 bytes more each; seeded keys)");
    app.add_option("--max-rewind-ms", o.max_rewind_ms,
                   "a fixed server lag-compensation cap in ms, 0..1000 (default: each client's own latency, "
                   "RTT compensated up to 250 ms: ServerConfig::rewind_limit = client_latency)");
    app.add_option(
           "--max-compensated-rtt-ms", o.max_compensated_rtt_ms,
           "RTT the server compensates in full, 0..1000 ms; a client slower than that has its shots "
           "judged at its rewind limit and must lead them (LagCompensationConfig::max_compensated_rtt)")
        ->capture_default_str();
    app.add_option(
        "--snapshot-budget", o.snapshot_budget,
        "snapshot byte budget: bytes a snapshot message may take on average, up to eight times that at "
        "once; 0 = none (default: the lab's 200 B)");
    app.add_option("--snapshot-codec", o.snapshot_codec,
                   "entity coding: range (predicted deltas, range-coded from the arena's trained model), "
                   "range-untrained (the same with every model starting at 1/2), predicted (predicted "
                   "deltas, bit-packed) or plain (bit-packed against the baseline value: the previous codec)")
        ->capture_default_str();
    app.add_option("--train-snapshot-model", o.train_model_path,
                   "instead of grading: run the 64-player pass on the lan, checklist and intercontinental "
                   "profiles (training seeds 101-103, never the graded ones) with a model trainer on the "
                   "server, and write the arena's range coder table as C++ to this file "
                   "(game/src/snapshot_model_table.cpp)");
    std::vector<std::string> profiles;
    for (auto n : rwd::transport::link_profile_names()) profiles.emplace_back(n);
    profiles.emplace_back("none");
    app.add_option("--profile", o.profile, "link profile for both directions (none: a perfect link)")
        ->check(CLI::IsMember(profiles))
        ->capture_default_str();
    app.add_option("--transport", o.transport,
                   "client-server transport: udp (datagrams, as ENet) or websocket (what a browser has: one "
                   "ordered, reliable TCP-like stream per client, where a loss costs about a round trip and "
                   "holds back everything behind it; unreliable messages held while the socket is backed up)")
        ->check(CLI::IsMember({"udp", "websocket"}))
        ->capture_default_str();
    add_knobs(app, o.both, "", " (both directions)");
    add_knobs(app, o.up, "up-", " (client to server)");
    add_knobs(app, o.down, "down-", " (server to client)");
    app.add_option("--json", o.json_path, "write every figure to this JSON file");
    app.add_option("--plot", o.plot_dir,
                   "write PNG charts over time into this directory (each figure's median over the clients "
                   "with their 10th-90th percentile band)");
    app.add_flag("--plot-worst", o.plot_worst, "charts also draw the worst client's own line");
    app.add_option(
        "--html", o.html_path,
        "write a one-page HTML summary to this file: the graded table beside the charts (embedded)");
    app.add_option("--save-replay", o.replay_path,
                   "write a replay of the match to this file and check it (docs/REPLAY.md; play it with "
                   "rewind-client --replay): rollback and lockstep, the first peer's inputs; client-server, "
                   "the main pass's server world at every tick and every message");
    app.add_option("--replay-net", o.replay_net_path,
                   "re-run a rewind-client --record-net recording offline instead of a model: compares every "
                   "datagram the client sends and its whole correction log with the recording; exit 0 when "
                   "they are the same");
    app.add_option("--jobs", o.jobs,
                   "client-server passes run at once, each on its own thread (0: one per core, 1: one after "
                   "another); every figure but the wall times is the same")
        ->check(CLI::Range(0, 64))
        ->capture_default_str();
    app.add_flag("--quiet", o.quiet, "print only the graded checklist (no header, no notes)");
    app.add_flag("--verbose", o.verbose,
                 "print everything measured behind each item and its target, and the per-peer tables (the "
                 "default report shows the deciding figures in 100 columns)");
}

int LabOptions::player_count() const {
    if (players) return *players;
    const ModelEntry* m = find_model(model);
    return m ? m->default_players : 0;
}

rwd::Result<rwd::transport::LinkConfig> up_link(const LabOptions& o) { return build(o, o.up); }
rwd::Result<rwd::transport::LinkConfig> down_link(const LabOptions& o) { return build(o, o.down); }

std::string describe_link(const rwd::transport::LinkConfig& c) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%.0f ms ± %.0f ms, %s loss",
                  static_cast<double>(c.latency.count) / 1000.0, static_cast<double>(c.jitter.count) / 1000.0,
                  pct(c.loss).c_str());
    std::string s = buf;
    if (c.burst.enabled())
        s += ", bursts " + pct(c.burst.p_good_to_bad) + " x " +
             std::to_string(1.0 / c.burst.p_bad_to_good).substr(0, 4);
    if (c.duplicate > 0) s += ", " + pct(c.duplicate) + " dup";
    if (c.reorder > 0) s += ", " + pct(c.reorder) + " reorder";
    if (c.bandwidth_kbps > 0) s += ", " + std::to_string(c.bandwidth_kbps) + " kbit/s";
    return s;
}

}  // namespace lab
