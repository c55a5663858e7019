/// Server<G> member definitions, part 1: construction, ticking, snapshots, events, kicks (included by
/// server.hpp).
#pragma once

#include <algorithm>
#include <cassert>

namespace rwd::client_server {

template <ReplicatedGame G>
Server<G>::Server(transport::Transport& transport, const ServerConfig& config, const State& initial)
    : transport_(transport),
      config_(config),
      max_clients_(config.max_clients > 0 ? std::min(config.max_clients, G::kMaxPlayers) : G::kMaxPlayers),
      step_(FixedStepConfig{config.tick_rate_hz, config.max_tick_catchup}),
      state_(initial),
      history_(
          sync::HitboxHistoryConfig{config.tick_rate_hz, Micros{std::int64_t{config.max_rewind_ms} * 1000}}) {
    assert(config.validate().ok());
    seats_.resize(static_cast<std::size_t>(max_clients_));
    if (config.require_token) token_gate_.emplace(*config.require_token);
}

template <ReplicatedGame G>
sync::InputJitterBufferConfig Server<G>::jitter_config() const {
    sync::InputJitterBufferConfig c;
    c.tick_rate_hz = config_.tick_rate_hz;
    c.buffer_ticks = config_.input_buffer_target;
    c.max_queue = config_.input_buffer_cap;
    c.max_inputs_per_packet = kInputsPerPacket;
    c.packets_per_second = 2.0 * config_.tick_rate_hz;
    return c;
}

template <ReplicatedGame G>
int Server<G>::seated_count() const {
    return static_cast<int>(
        std::count_if(seats_.begin(), seats_.end(), [](const Seat& s) { return s.phase == Phase::seated; }));
}

template <ReplicatedGame G>
int Server<G>::slot_of(transport::PeerId peer) const {
    for (int i = 0; i < max_clients_; ++i)
        if (seat(i).phase != Phase::empty && seat(i).peer == peer) return i;
    return -1;
}

template <ReplicatedGame G>
template <class Msg>
bool Server<G>::send(transport::PeerId peer, transport::Delivery delivery, Msg& msg, std::uint64_t* bytes) {
    if (!encode_message(msg, buffer_).ok() || !transport_.send(peer, delivery, buffer_).ok()) {
        ++stats_.send_failures;
        return false;
    }
    if (bytes) *bytes += buffer_.size();
    return true;
}

template <ReplicatedGame G>
void Server<G>::update(Micros now) {
    if (!started_) {
        started_ = true;
        last_now_ = now;
    }
    transport_.update(now);
    transport::TransportEvent ev;
    while (transport_.poll(ev)) on_transport_event(ev, now);
    check_timeouts(now);

    const std::uint64_t dropped_before = step_.dropped_ticks();
    const int ticks = step_.advance(now - last_now_);
    last_now_ = now;
    stats_.ticks_dropped += step_.dropped_ticks() - dropped_before;
    for (int i = 0; i < ticks; ++i) run_tick(now);

    for (int i = 0; i < max_clients_; ++i) {
        Seat& s = seat(i);
        if (s.phase != Phase::seated) continue;
        const auto ps = transport_.stats(s.peer);
        s.stats.kbps_sent = ps.kbps_sent;
        s.stats.kbps_received = ps.kbps_received;
    }
    stats_.tick = tick_;
}

template <ReplicatedGame G>
void Server<G>::unseat(int slot) {
    Seat& s = seat(slot);
    const bool was_seated = s.phase == Phase::seated;
    if (s.phase == Phase::empty) return;
    if (was_seated) {
        G::remove_player(state_, slot);  // no ghosts: nothing of the player stays in the world
        ++stats_.disconnects;
    }
    s.phase = Phase::empty;
    s.peer = transport::kInvalidPeer;
    s.stats.connected = false;
    if (was_seated)
        broadcast(EventKind::leave, slot, slot, static_cast<std::int32_t>(G::player_entity(slot)));
}

template <ReplicatedGame G>
void Server<G>::kick(int slot, DisconnectCode code, Micros now) {
    if (!seated(slot)) return;
    Seat& s = seat(slot);
    Disconnect d{code};
    send(s.peer, transport::Delivery::reliable_ordered, d, &s.stats.bytes_sent);
    logf(config_.logger, LogLevel::warn, "kicking slot %d: %s", slot, disconnect_code_name(code).data());
    const transport::PeerId peer = s.peer;
    unseat(slot);
    s.phase = Phase::closing;  // keep the peer id until the linger ends so late messages are ignored
    s.peer = peer;
    s.close_at = now + config_.kick_linger;
    if (code == DisconnectCode::garbage) ++stats_.kicked_garbage;
    if (code == DisconnectCode::cheating) ++stats_.kicked_cheating;
    if (code == DisconnectCode::timed_out) ++stats_.timeouts;
}

template <ReplicatedGame G>
void Server<G>::check_timeouts(Micros now) {
    for (int i = 0; i < max_clients_; ++i) {
        Seat& s = seat(i);
        if (s.phase == Phase::seated && now - s.last_heard > config_.client_timeout)
            kick(i, DisconnectCode::timed_out, now);
        if (s.phase == Phase::closing && now >= s.close_at) {
            transport_.disconnect(s.peer, transport::DisconnectReason::kicked);
            s.phase = Phase::empty;
            s.peer = transport::kInvalidPeer;
        }
    }
    for (Pending& p : pending_) {
        if (!p.closing && now - p.since > config_.hello_timeout) {
            p.closing = true;
            p.close_at = now;
            ++stats_.timeouts;
        }
        if (p.closing && now >= p.close_at)
            transport_.disconnect(p.peer, transport::DisconnectReason::kicked);
    }
    std::erase_if(pending_, [&](const Pending& p) { return p.closing && now >= p.close_at; });
}

template <ReplicatedGame G>
void Server<G>::run_tick(Micros now) {
    const Micros t0 = config_.clock.fn ? config_.clock.fn(config_.clock.user) : Micros{};
    bool any_rewound = false;
    for (int i = 0; i < G::kMaxPlayers; ++i) {
        inputs_[static_cast<std::size_t>(i)] = Input{};
        rewound_.active[static_cast<std::size_t>(i)] = false;
    }
    for (int i = 0; i < max_clients_; ++i) {
        Seat& s = seat(i);
        if (s.phase != Phase::seated) continue;
        const Input raw = s.inputs.pop(tick_);
        const bool repeated = s.inputs.last_pop_repeated();
        if (!repeated) {
            ++s.stats.inputs_applied;
            s.has_applied = true;  // from the first real input on, a missing one counts as repeated
        } else if (s.has_applied) {
            ++s.stats.inputs_repeated;
        }
        s.last_applied_tick = tick_;
        std::uint32_t violations = 0;
        const Input in = G::sanitize(raw, violations);
        if (violations) {
            s.stats.violations += violations;
            s.stats.flagged = true;
        }
        inputs_[static_cast<std::size_t>(i)] = in;
        if (G::fires(in) && !repeated) {
            ++s.stats.shots;
            // The view time comes from the client: clamp() keeps it inside the rewind cap and the history.
            const std::uint64_t capped = history_.stats().clamped_rewind + history_.stats().clamped_history;
            const ViewTime view = history_.clamp(G::view_time(in, tick_), tick_);
            if (history_.stats().clamped_rewind + history_.stats().clamped_history != capped)
                ++s.stats.shots_rewind_clamped;
            any_rewound = history_.fill(rewound_, i, view) || any_rewound;
        }
        s.stats.input_buffer_depth = static_cast<double>(s.inputs.depth());
        s.stats.arrival_offset_ticks = s.inputs.arrival_offset_ticks();
    }
    State before{};
    if constexpr (EmitsEvents<G>) before = state_;
    G::step(state_, std::span<const Input>(inputs_), any_rewound ? &rewound_ : nullptr);
    history_.record(tick_, state_);
    if constexpr (EmitsEvents<G>) {
        game_events_.clear();
        G::collect_events(before, state_, game_events_);
        for (const GameEvent& e : game_events_) broadcast(e.kind, e.subject, e.other, e.value);
    }
    ++tick_;
    ++stats_.ticks;
    for (int i = 0; i < max_clients_; ++i)
        if (config_.max_violations && seated(i) && seat(i).stats.violations >= config_.max_violations)
            kick(i, DisconnectCode::cheating, now);

    snapshot_accumulator_ += config_.snapshot_rate_hz;
    if (snapshot_accumulator_ >= config_.tick_rate_hz) {
        snapshot_accumulator_ -= config_.tick_rate_hz;
        send_snapshots(now);
    }
    if (config_.clock.fn) {
        const Micros dt = config_.clock.fn(config_.clock.user) - t0;
        stats_.last_tick_time = dt;
        stats_.max_tick_time = std::max(stats_.max_tick_time, dt);
        stats_.total_tick_time += dt;
    }
}

template <ReplicatedGame G>
void Server<G>::send_snapshots(Micros now) {
    G::capture(state_, world_);         // once per tick, shared by every client's snapshot
    snapshot_.server_tick = tick_ - 1;  // the state after the tick just simulated
    sender_.begin(world_);
    const std::size_t max_size = transport_.max_message_size();
    const std::size_t datagram_overhead = kUdpIpHeaderBytes + transport_.header_bytes();
    const double tick_us = 1e6 / config_.tick_rate_hz;
    for (int i = 0; i < max_clients_; ++i) {
        Seat& s = seat(i);
        if (s.phase != Phase::seated) continue;
        snapshot_.sequence = s.snapshot_sequence++;
        snapshot_.has_input = s.has_applied;
        snapshot_.last_input_tick = s.last_applied_tick;
        const double offset_us = std::clamp(s.inputs.arrival_offset_ticks() * tick_us,
                                            -double(kMaxArrivalOffsetUs), double(kMaxArrivalOffsetUs));
        snapshot_.arrival_offset_us = static_cast<std::int32_t>(offset_us);
        snapshot_.input_buffer_depth = static_cast<std::uint8_t>(std::clamp(s.inputs.depth(), 0, 255));
        snapshot_.pong_time = s.ping_time;
        const std::int64_t hold = s.has_ping ? (now - s.ping_at).count : 0;
        snapshot_.pong_hold_us = static_cast<std::uint32_t>(std::clamp<std::int64_t>(hold, 0, 0xFFFFFFFF));
        // Delta against the client's acknowledged baseline, only relevant entities, by priority within the
        // budget (which is at most the datagram size, so only a single entity larger than a datagram can
        // overflow).
        sender_.prepare(i, snapshot_, max_size);
        if (!encode_message(snapshot_, buffer_).ok()) {
            ++stats_.send_failures;
            continue;
        }
        if (buffer_.size() > max_size) {
            ++stats_.snapshot_overflow;
            continue;
        }
        if (!transport_.send(s.peer, transport::Delivery::unreliable, buffer_).ok()) {
            ++stats_.send_failures;
            continue;
        }
        sender_.commit(i, snapshot_);
        const sync::SnapshotPlanStats& plan = sender_.last_plan();
        s.stats.snapshot_wire_bytes_total += buffer_.size() + datagram_overhead;
        s.stats.snapshot_entity_bits_total +=
            buffer_.size() * 8 - std::min(buffer_.size() * 8, sender_.last_header_bits());
        s.stats.snapshot_entities_total += plan.relevant;
        s.stats.snapshots_with_baseline += plan.has_baseline ? 1 : 0;
        s.stats.entities_left_out_total += plan.stale + plan.deferred;
        s.stats.bytes_sent += buffer_.size();
        ++s.stats.snapshots_sent;
        s.stats.last_snapshot_bytes = buffer_.size();
        s.stats.max_snapshot_bytes = std::max(s.stats.max_snapshot_bytes, buffer_.size());
        s.stats.snapshot_bytes_total += buffer_.size();
        s.stats.snapshot_kbps = snapshot_kbps(s.stats.snapshot_wire_bytes_total, s.stats.snapshots_sent,
                                              config_.snapshot_rate_hz);
        ++stats_.snapshots_sent;
    }
}

template <ReplicatedGame G>
void Server<G>::send_event(int slot, Event ev) {
    Seat& s = seat(slot);
    ev.sequence = s.event_sequence++;
    if (send(s.peer, transport::Delivery::reliable_ordered, ev, &s.stats.bytes_sent)) ++s.stats.events_sent;
}

template <ReplicatedGame G>
void Server<G>::broadcast(EventKind kind, int subject, int other, std::int32_t value,
                          const std::string& text) {
    ++stats_.events;
    Event ev{0,     kind, tick_, static_cast<std::uint8_t>(subject), static_cast<std::uint8_t>(other),
             value, text};
    for (int i = 0; i < max_clients_; ++i)
        if (seat(i).phase == Phase::seated) send_event(i, ev);
}

}  // namespace rwd::client_server

#include <rewind/session/client_server/detail/server_messages.hpp>
