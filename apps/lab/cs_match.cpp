// The client-server pass runner: network and sessions set-up, the virtual-time loop, server-side
// measurements.
#include "cs_match_impl.hpp"
#include "lab_tokens.hpp"

#include <rewind/core/checksum.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <utility>

namespace lab {
namespace cs = rwd::client_server;
using rwd::Micros;

namespace {

constexpr Micros kServerPoll{1000};  // the server is updated every millisecond
constexpr Micros kSampleEvery{100'000};

Micros seconds(double s) { return Micros{static_cast<std::int64_t>(std::llround(s * 1e6))}; }

arena::BotConfig bot_config(BotMode mode) {
    arena::BotConfig c;
    if (mode == BotMode::wander) {
        c.sight_range = 0;  // sees nobody: wanders, never aims or shoots at anyone
        c.rocket_chance = 0;
    }
    return c;
}

}  // namespace

Match::Match(const PassConfig& config)
    : cfg_(config),
      tick_us_(1e6 / config.tick_rate),
      events_(static_cast<std::size_t>(config.players),
              static_cast<std::uint32_t>(config.late_input_replay_ticks)),
      latency_(static_cast<std::size_t>(config.players), 1e6 / config.tick_rate),
      recording_(config.record_path, config.tick_rate, config.late_input_replay_ticks) {
    end_ = start_ + seconds(cfg_.duration_s);
    half_ = start_ + seconds(cfg_.duration_s / 2);
    rwd::transport::SimNetworkConfig nc;
    nc.seed = cfg_.seed;
    // Item 7 grades the events sent up to end - drain_: later ones may honestly still be in flight (a lost
    // one waits for its retransmission). Stopping the count early rather than letting the pass run on
    // keeps every other figure on the pass's own duration; the window covers the worst one-way delay and
    // enough retransmissions for a one-in-a-million chance that all copies were lost (cs_events.hpp).
    drain_ = drain_window(cfg_.up, cfg_.down, nc.reliable_rto);
    fig_.channel.drain_ms = static_cast<double>(drain_.count) / 1000.0;
    net_ = std::make_unique<rwd::transport::SimNetwork>(nc);
    const auto socket = cfg_.stream ? rwd::transport::SimSocket::stream : rwd::transport::SimSocket::datagram;
    auto* server_ep = net_->listen(server_addr_, static_cast<std::size_t>(cfg_.players) + 2, socket).value();
    cs::ServerConfig sc;
    sc.tick_rate_hz = cfg_.tick_rate;
    sc.snapshot_rate_hz = cfg_.snapshot_rate;
    sc.max_clients = cfg_.players + (cfg_.probe ? 1 : 0);
    if (cfg_.max_rewind_ms != kPerClientRewind) {
        // --max-rewind-ms: the fixed cap instead of each client's own latency (the library's default).
        sc.rewind_limit = cs::RewindLimitMode::fixed_cap;
        sc.max_rewind_ms = cfg_.max_rewind_ms;
    }
    sc.lag_compensation.max_compensated_rtt = rwd::Micros{cfg_.max_compensated_rtt_ms * 1000LL};
    sc.judge_shots_as_seen = cfg_.judge_shots_as_seen;
    sc.snapshots = cfg_.snapshots;
    sc.late_input_replay_ticks = cfg_.late_input_replay_ticks;
    const LabTokens tokens(cfg_.seed, server_addr_.host + ":" + std::to_string(server_addr_.port));
    if (cfg_.sealed) sc.require_token = tokens.requirement();
    header_bytes_ = server_ep->header_bytes();
    server_ = std::make_unique<Server>(*server_ep, sc, arena::new_match(cfg_.seed));
    server_->set_tick_observer(&Match::observe_tick, this);
    tap_.inner = recording_.recorder();
    server_->set_recorder(&tap_);
    if (cfg_.max_rewind_ms != kPerClientRewind)
        shots_.set_cap_ticks(cfg_.max_rewind_ms * cfg_.tick_rate / 1000.0);

    cs::ClientConfig cc;
    cc.tick_rate_hz = cfg_.tick_rate;
    cc.correction_log_size = 4096;
    cc.predict_remote_inputs = cfg_.predict_remote_inputs;
    seats_.reserve(static_cast<std::size_t>(cfg_.players));
    for (int i = 0; i < cfg_.players; ++i) {
        rwd::transport::Address a{"client" + std::to_string(i), static_cast<std::uint16_t>(100 + i)};
        auto* ep = net_->create_endpoint(a, socket).value();
        (void)net_->set_link(a, server_addr_, cfg_.up);
        (void)net_->set_link(server_addr_, a, cfg_.down);
        cs::ClientConfig seat_config = cc;
        if (cfg_.sealed) {
            auto creds = tokens.credentials(static_cast<std::uint64_t>(i) + 1);
            seat_config.connect_token = std::move(creds.token);
            seat_config.session_keys = creds.keys;
        }
        seats_.emplace_back(a, std::make_unique<Client>(*ep, seat_config),
                            cfg_.seed * 1000 + static_cast<std::uint64_t>(i), bot_config(cfg_.bots));
    }
    if (cfg_.probe) {
        rwd::transport::Address a{"probe", 99};
        auto* ep = net_->create_endpoint(a, socket).value();
        (void)net_->set_link(a, server_addr_, cfg_.up);
        (void)net_->set_link(server_addr_, a, cfg_.down);
        const double lead = static_cast<double>((cfg_.up.latency + cfg_.down.latency).count) / tick_us_ + 4.0;
        const double d = cfg_.duration_s;
        ProbeSchedule ps;
        ps.run_from = seconds(0.2 * d);
        ps.bad_from = seconds(0.3 * d);
        // Stale shots before the flood: a long enough flood gets the probe kicked as cheating.
        ps.stale_from = seconds(0.4 * d);
        ps.stale_until = seconds(0.45 * d);
        ps.flood_from = seconds(0.6 * d);
        ps.flood_until = seconds(0.7 * d);
        rwd::transport::Transport* probe_ep = ep;
        std::vector<std::uint8_t> probe_token;
        if (cfg_.sealed) {  // the probe attacks with valid credentials, as a cheating player would
            auto creds = tokens.credentials(1'000'000);
            probe_token = std::move(creds.token);
            probe_endpoint_ = std::make_unique<SealedEndpoint>(*ep, creds.keys);
            probe_ep = probe_endpoint_.get();
        }
        probe_ = std::make_unique<Probe>(*probe_ep, server_addr_, cfg_.tick_rate, lead, ps,
                                         std::move(probe_token));
    }
}

PassFigures Match::run() {
    const auto wall0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < seats_.size(); ++i) {
        Seat& s = seats_[i];
        (void)s.client->connect(server_addr_, start_);
        s.next_frame = start_ + Micros{static_cast<std::int64_t>(s.rng.uniform(7000))};
        s.next_chat = start_ + Micros{1'000'000 + static_cast<std::int64_t>(s.rng.uniform(1'000'000))};
    }
    if (probe_) probe_->connect(start_);
    Micros next_server = start_;
    next_sample_ = start_ + kSampleEvery;
    while (true) {
        Seat* first = nullptr;
        int index = -1;
        for (std::size_t i = 0; i < seats_.size(); ++i)
            if (!first || seats_[i].next_frame < first->next_frame)
                first = &seats_[i], index = static_cast<int>(i);
        if (!first || next_server <= first->next_frame) {
            if (next_server > end_) break;
            server_step(next_server);
            next_server += kServerPoll;
        } else {
            if (first->next_frame > end_) break;
            client_frame(*first, index, first->next_frame);
        }
    }
    finish();
    fig_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    return fig_;
}

void Match::cut_events() {
    cut_done_ = true;
    events_.cut(server_->tick());
    for (std::size_t i = 0; i < seats_.size(); ++i) {
        Seat& s = seats_[i];
        if (!s.playing || s.slot < 0) continue;
        s.cut_slot = s.slot;
        events_.cut_seat(i, server_->client_stats(s.slot).events_sent);
    }
}

void Match::server_step(Micros now) {
    server_now_ = now;
    if (!cut_done_ && now >= end_ - drain_) cut_events();
    const rwd::Tick before = server_->tick();
    server_->update(now);
    const std::int32_t ran = server_->tick() - before;
    // The server may still replay its last late_input_replay_ticks ticks: those before them are final.
    const rwd::Tick final_end = server_->tick() - server_->config().late_input_replay_ticks;
    if (!has_judged_) next_judge_ = before, has_judged_ = true;
    for (; next_judge_ < final_end; ++next_judge_) judge_final(next_judge_);
    if (ran == 1) {
        on_server_tick(before);
    } else if (ran > 1) {
        ++fig_.tick.server_multi_tick_updates;  // cannot attribute per tick; just move on
    }
    if (cfg_.bandwidth_check && ran >= 1)
        bandwidth_.record_world(server_->tick() - 1, std::as_const(*server_).state());
    if (cfg_.bandwidth_check && ran >= 1 && server_->tick().value % 60 == 0) {
        bandwidth_.sample_full(std::as_const(*server_).state(), header_bytes_);
        for (const Seat& s : seats_) {
            if (!s.playing || s.slot < 0) continue;
            std::vector<std::uint32_t>
                ids;  // the entities of its newest snapshot, checked against that very tick
            for (const auto& e : s.client->newest_snapshot_entities()) ids.push_back(e.id);
            bandwidth_.sample_interest(s.client->newest_server_tick(), s.slot, ids,
                                       cfg_.snapshots.aoi_radius_m);
        }
    }
    if (probe_) probe_->update(now);
    if (now >= next_sample_) {
        sample(now);
        next_sample_ += kSampleEvery;
    }
}

void Match::observe_tick(void* user, rwd::Tick tick, const arena::State& before, const arena::State& after,
                         bool /*replayed*/) {
    // Kept until no late input can change the tick any more, then judged (judge_final).
    Match& m = *static_cast<Match*>(user);
    m.recording_.observe(tick, after);
    Ran& r = m.ran_[tick.value % kRanTicks];
    r.tick = tick.value;
    r.valid = true;
    r.before = before;
    r.after = after;
}

void Match::judge_final(rwd::Tick tick) {
    Ran& r = ran_[tick.value % kRanTicks];
    if (!r.valid || r.tick != tick.value) return;
    r.valid = false;
    shots_.on_server_tick(tick, r.before, r.after);
    events_.on_server_tick(tick, r.before, r.after);
}

void Match::on_server_tick(rwd::Tick tick) {
    const arena::State& after = std::as_const(*server_).state();
    latency_.on_server_tick(tick, server_now_);
    for (std::size_t i = 0; i < seats_.size(); ++i) {
        Seat& s = seats_[i];
        if (!s.playing || s.slot < 0 || !server_->seated(s.slot)) continue;
        const std::uint64_t repeated = server_->client_stats(s.slot).inputs_repeated;
        latency_.on_server_input(i, tick, server_now_, repeated != s.server_repeated, server_now_ >= half_);
        s.server_repeated = repeated;
    }
    auto& ring = bodies_[tick.value % kBodyTicks];
    body_tick_[tick.value % kBodyTicks] = tick.value;
    for (std::size_t i = 0; i < ring.size(); ++i)
        ring[i] = Body{after.players[i].x, after.players[i].y, after.players[i].alive()};
    if (probe_ && probe_->slot() >= 0 && server_->seated(probe_->slot())) {
        probe_stats_ = server_->client_stats(probe_->slot());  // kept: a kick clears the seat
        const arena::Player& p = after.players[static_cast<std::size_t>(probe_->slot())];
        if (p.alive()) {
            ++fig_.authority.probe_ticks_observed;
            const double v = std::hypot(static_cast<double>(p.vx), static_cast<double>(p.vy));
            fig_.authority.probe_max_speed = std::max(fig_.authority.probe_max_speed, v);
        }
    }
    if (cfg_.compare_own) {
        auto it = client_own_hash_.find(tick.value);
        if (it != client_own_hash_.end()) {
            arena::ArenaGame::capture(after, scratch_);
            const int slot = seats_.front().slot;
            std::uint64_t h = 0;
            for (const auto& r : scratch_)
                if (r.id == arena::ArenaGame::player_entity(slot)) h = rwd::checksum_of(r.snap);
            ++fig_.shared.ticks_compared;
            if (h != it->second) {
                if (fig_.shared.mismatches++ == 0) fig_.shared.first_mismatch_tick = tick.value;
            }
        }
        client_own_hash_.erase(client_own_hash_.begin(), client_own_hash_.upper_bound(tick.value));
    }
}

bool Match::touching_other(int slot, rwd::Tick tick) const {
    // Within reach of a push (bodies overlap below 2 radii) on any server tick the prediction spanned.
    constexpr std::int64_t reach = 2 * arena::kPlayerRadius + arena::kUnitsPerMeter / 2;
    for (std::uint32_t k = 0; k < kBodyTicks; ++k) {
        const std::uint32_t t = tick.value - k;
        if (body_tick_[t % kBodyTicks] != t) continue;
        const auto& ring = bodies_[t % kBodyTicks];
        const Body& me = ring[static_cast<std::size_t>(slot)];
        for (std::size_t i = 0; i < ring.size(); ++i) {
            if (static_cast<int>(i) == slot || !ring[i].alive) continue;
            const std::int64_t dx = ring[i].x - me.x, dy = ring[i].y - me.y;
            if (dx * dx + dy * dy < reach * reach) return true;
        }
    }
    return false;
}

void Match::sample(Micros now) {
    const bool second_half = now - start_ >= seconds(cfg_.duration_s / 2);
    SeriesPoint pt;
    pt.t = static_cast<double>((now - start_).count) / 1e6;
    for (Seat& s : seats_) {
        if (!s.playing) continue;
        if (second_half && !s.half_tick) {
            s.half_tick = s.client->tick();
            s.half_at = now;
        }
        const cs::ClientStats& st = s.client->stats();
        const cs::ServerClientStats& sv = server_->client_stats(s.slot);
        const double offset = sv.arrival_offset_ticks;
        if (cfg_.series) {
            pt.rtt_ms.push_back(static_cast<double>(st.rtt.count) / 1000.0);
            pt.interp_delay_ticks.push_back(st.interp_delay_ticks);
            pt.buffer_ticks.push_back(st.interp_buffer_ticks);
            pt.kbps_down.push_back(st.kbps_received);
            pt.kbps_up.push_back(st.kbps_sent);
            pt.corrections_per_s.push_back(st.corrections_per_second);
            pt.input_offset_ticks.push_back(offset);
        }
        if (!second_half) continue;
        offsets_.push_back(offset);
        // The target is the server's own for this client (adaptive), the configured one until it reports.
        const double target =
            sv.input_buffer_target > 0 ? sv.input_buffer_target : server_->config().input_buffer_target;
        offset_targets_.push_back(target);
        leads_.push_back(st.lead_ticks);
        rtts_.push_back(static_cast<double>(st.rtt.count) / 1000.0);
        delays_.push_back(st.interp_delay_ticks);
        buffers_.push_back(st.interp_buffer_ticks);
        kbps_down_.push_back(st.kbps_received);
        kbps_up_.push_back(st.kbps_sent);
        input_depths_.push_back(sv.input_buffer_depth);
        input_targets_.push_back(sv.input_buffer_target);
        rewind_limits_.push_back(sv.rewind_limit_ms);
    }
    if (cfg_.series) fig_.series.push_back(std::move(pt));
}

void Match::finish() {
    if (has_judged_)
        for (; next_judge_ < server_->tick(); ++next_judge_)
            judge_final(next_judge_);  // what stands is final
    fig_.name = cfg_.name;
    fig_.simulated_s = cfg_.duration_s;
    server_->set_recorder(nullptr);
    recording_.finish(cfg_.seed, fig_.recording);
    fig_.players = cfg_.players;
    const double tick_ms = tick_us_ / 1000.0;
    const auto& ss = server_->stats();
    fig_.tick.expected_server_ticks = cfg_.duration_s * cfg_.tick_rate;
    fig_.tick.server_ticks = ss.ticks;
    fig_.tick.server_ticks_dropped = ss.ticks_dropped;
    fig_.tick.client_tick_rate_min_hz = 1e9;
    const double minutes_factor = 1.0 / 60e6;
    std::uint64_t snapshots = 0, snapshot_bytes = 0;
    cs::ClientConfig defaults;
    for (Seat& s : seats_) {
        const Client& c = *s.client;
        const cs::ClientStats& st = c.stats();
        if (c.phase() == cs::ClientPhase::disconnected) ++fig_.disconnects;
        if (!s.playing) continue;
        ++fig_.playing;
        if (s.half_tick && end_ > s.half_at) {
            const double hz = static_cast<double>(c.tick() - *s.half_tick) /
                              (static_cast<double>((end_ - s.half_at).count) / 1e6);
            fig_.tick.client_tick_rate_min_hz = std::min(fig_.tick.client_tick_rate_min_hz, hz);
            fig_.tick.client_tick_rate_max_hz = std::max(fig_.tick.client_tick_rate_max_hz, hz);
        }
        fig_.clock.hard_resyncs += st.hard_resyncs;
        auto& p = fig_.prediction;
        p.reconciliations += st.reconciliations;
        p.replayed_ticks += st.replayed_ticks;
        fig_.interp.starvations += st.interp_starvations;
        fig_.interp.max_extrapolation_ticks =
            std::max(fig_.interp.max_extrapolation_ticks, st.max_extrapolation_seen_ticks);
        fig_.channel.events_out_of_order += st.events_out_of_order;
        const cs::ServerClientStats& sv = server_->client_stats(s.slot);
        fig_.shots.server_shots += sv.shots;
        fig_.shots.server_clamped += sv.shots_rewind_clamped;
        fig_.shots.server_beyond_limit += sv.shots_beyond_limit;
        fig_.shots.server_future_view += sv.shots_future_view;
        fig_.inputs.applied += sv.inputs_applied;
        fig_.inputs.repeated += sv.inputs_repeated;
        fig_.inputs.late += sv.inputs_late;
        fig_.inputs.replayed += sv.inputs_replayed;
        fig_.inputs.replay_refused += sv.inputs_replay_refused;
        snapshots += sv.snapshots_sent;
        snapshot_bytes += sv.snapshot_bytes_total;
        bandwidth_.add_client(sv, cfg_.snapshot_rate);
        fig_.bandwidth.max_snapshot_bytes =
            std::max<std::uint64_t>(fig_.bandwidth.max_snapshot_bytes, sv.max_snapshot_bytes);
        fig_.shared.inputs_repeated += sv.inputs_repeated;
        fig_.shared.inputs_late += sv.inputs_late;
    }
    fig_.inputs.replays = ss.replays;
    fig_.inputs.replays_aborted = ss.replays_aborted;
    fig_.inputs.replayed_ticks = ss.replayed_ticks;
    if (fig_.playing == 0) fig_.tick.client_tick_rate_min_hz = 0;
    fig_.interp.client_minutes *= minutes_factor;
    fig_.interp.extrapolation_cap_ticks = defaults.max_extrapolation_ticks;
    if (fig_.interp.client_minutes > 0)
        fig_.interp.starvations_per_client_minute =
            static_cast<double>(fig_.interp.starvations) / fig_.interp.client_minutes;
    if (fig_.interp.frames > 0) {
        fig_.interp.extrapolated_share =
            static_cast<double>(fig_.interp.extrapolated_frames) / static_cast<double>(fig_.interp.frames);
        fig_.interp.held_share =
            static_cast<double>(fig_.interp.held_frames) / static_cast<double>(fig_.interp.frames);
    }
    fig_.interp.delay_ticks = distribution(delays_);
    fig_.interp.buffer_ticks = distribution(buffers_);

    fig_.clock.target_offset_ticks = distribution(offset_targets_).mean;  // what the clients were asked for
    fig_.clock.offset_ticks = distribution(offsets_);
    std::vector<double> err;
    for (std::size_t i = 0; i < offsets_.size(); ++i)
        err.push_back(std::abs(offsets_[i] - offset_targets_[i]));
    fig_.clock.offset_error_ticks = distribution(std::move(err));
    fig_.clock.lead_ticks = distribution(leads_);
    fig_.clock.rtt_ms = distribution(rtts_);

    auto& p = fig_.prediction;
    p.snap_threshold_m = defaults.snap_distance_m;
    std::vector<double> all = errors_;
    all.resize(all.size() + (p.reconciliations > p.corrections ? p.reconciliations - p.corrections : 0), 0.0);
    p.error_m = distribution(errors_);
    p.movement_only_error_m = distribution(movement_errors_);
    p.own_error_m = distribution(own_errors_);
    p.reconcile_error_m = distribution(std::move(all));

    finish_inputs();
    finish_transport();
    fig_.channel.loss = cfg_.down.expected_loss();
    fig_.channel.snapshot_gap_ms = distribution(gaps_ms_);
    fig_.staleness.snapshot_interval_ms = 1000.0 / cfg_.snapshot_rate;
    fig_.staleness.behind_newest_ms = behind_newest_ms_.distribution();
    fig_.staleness.since_arrival_ms = since_arrival_ms_.distribution();
    fig_.channel.max_snapshot_gap_ms = fig_.channel.snapshot_gap_ms.max;

    shots_.finish(fig_.shots, tick_ms);
    fig_.shots.max_rewind_ms = cfg_.max_rewind_ms;
    fig_.shots.max_compensated_rtt_ms = cfg_.max_compensated_rtt_ms;
    fig_.bandwidth.kbps_down = distribution(kbps_down_);
    fig_.bandwidth.kbps_up = distribution(kbps_up_);
    if (snapshots)
        fig_.bandwidth.mean_snapshot_bytes =
            static_cast<double>(snapshot_bytes) / static_cast<double>(snapshots);
    bandwidth_.finish(fig_.bandwidth);
    const double client_s = static_cast<double>(cfg_.players) * cfg_.duration_s;
    if (client_s > 0) {
        fig_.bandwidth.events_per_client_s = static_cast<double>(fig_.channel.events_received) / client_s;
        fig_.bandwidth.chats_per_client_s = static_cast<double>(fig_.channel.chats_sent) / cfg_.duration_s;
    }

    if (probe_) {
        auto& a = fig_.authority;
        a.probe_seated = probe_->slot() >= 0;
        a.bad_packets_sent = probe_->bad_packets_sent();
        a.flood_packets_sent = probe_->flood_packets_sent();
        a.top_speed = arena::kTopSpeed;
        a.probe_kicked_cheating = server_->stats().kicked_cheating > 0;
        if (a.probe_seated) {
            const cs::ServerClientStats& sv = probe_stats_;
            a.malformed_counted = sv.malformed;
            a.violations = sv.violations;
            a.inputs_overflow = sv.inputs_overflow;
            a.inputs_rate_limited = sv.inputs_rate_limited;
            a.flagged = sv.flagged;
            fig_.shots.probe_stale_shots = sv.shots;
            fig_.shots.probe_clamped = sv.shots_rewind_clamped;
            fig_.shots.probe_beyond_limit = sv.shots_beyond_limit;
        }
    }
}

void Match::finish_inputs() {
    const double tick_ms = tick_us_ / 1000.0;
    auto& in = fig_.inputs;
    in.ticks_simulated = in.applied + in.repeated;
    if (in.ticks_simulated) {
        in.late_share = static_cast<double>(in.late) / static_cast<double>(in.ticks_simulated);
        in.repeated_share = static_cast<double>(in.repeated) / static_cast<double>(in.ticks_simulated);
    }
    in.buffer_depth_ticks = distribution(input_depths_);
    in.buffer_target_ticks = distribution(input_targets_);
    in.added_latency_ms = in.buffer_depth_ticks.mean * tick_ms;
    if (fig_.interp.client_minutes > 0)
        fig_.prediction.own_visible_per_player_minute =
            static_cast<double>(fig_.prediction.own_visible) / fig_.interp.client_minutes;
    latency_.finish(fig_.latency);
    fig_.latency.interp_delay_ms = fig_.interp.delay_ticks.mean * tick_ms;
    fig_.latency.rtt_ms = fig_.clock.rtt_ms.median;
    auto& sh = fig_.shots;
    if (sh.server_shots)
        sh.beyond_limit_share =
            static_cast<double>(sh.server_beyond_limit) / static_cast<double>(sh.server_shots);
    sh.rewind_limit_ms = distribution(rewind_limits_);
    // Deaths and events: only seats that played to the end connected and were playing at the cut.
    std::vector<int> slot_of_seat;
    for (const Seat& s : seats_)
        slot_of_seat.push_back(s.playing && s.client->phase() == cs::ClientPhase::playing ? s.cut_slot : -1);
    events_.finish(slot_of_seat, fig_.channel);
}

PassFigures run_pass(const PassConfig& config) {
    Match m(config);
    return m.run();
}

}  // namespace lab
