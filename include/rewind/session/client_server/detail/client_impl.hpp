/// Client<G> member definitions, part 1: connection, messages, ticking and input sending (included by
/// client.hpp).
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>

namespace rwd::client_server {

namespace detail {
/// The clock-sync config with the client's tick rate copied in.
inline sync::ClockSyncConfig clock_config(const ClientConfig& c) {
    sync::ClockSyncConfig cc = c.clock;
    cc.tick_rate_hz = c.tick_rate_hz;
    return cc;
}
/// The interpolation-buffer config derived from the client config.
inline sync::InterpolationBufferConfig interp_config(const ClientConfig& c) {
    sync::InterpolationBufferConfig ic;
    ic.tick_rate_hz = c.tick_rate_hz;
    ic.interval_multiplier = c.interp_delay_snapshots;
    ic.max_extrapolation_ticks = static_cast<double>(c.max_extrapolation_ticks);
    return ic;
}
/// The correction smoother's config derived from the client config.
inline sync::VisualSmootherConfig smoother_config(const ClientConfig& c) {
    sync::VisualSmootherConfig vc;
    vc.time_constant = c.smoothing_time;
    vc.snap_distance_m = c.snap_distance_m;
    vc.rest_distance_m = std::min(vc.rest_distance_m, c.snap_distance_m / 2);
    return vc;
}
}  // namespace detail

template <ReplicatedGame G>
Client<G>::Client(transport::Transport& transport, const ClientConfig& config)
    : transport_(transport),
      config_(config),
      step_(FixedStepConfig{config.tick_rate_hz, config.max_tick_catchup}),
      clock_(detail::clock_config(config)),
      interp_(detail::interp_config(config)),
      smoother_(detail::smoother_config(config)) {
    assert(config.validate().ok());
}

template <ReplicatedGame G>
template <class Msg>
bool Client<G>::send(transport::Delivery delivery, Msg& msg) {
    if (server_ == transport::kInvalidPeer || !encode_message(msg, buffer_).ok()) return false;
    if (!transport_.send(server_, delivery, buffer_).ok()) return false;
    stats_.bytes_sent += buffer_.size();
    return true;
}

template <ReplicatedGame G>
Status Client<G>::connect(const transport::Address& server, Micros now) {
    if (phase_ == ClientPhase::connecting || phase_ == ClientPhase::syncing || phase_ == ClientPhase::playing)
        return Error{Errc::already_exists, "already connected"};
    transport_.update(now);  // the endpoint must know the time before it stamps the connect attempt
    auto peer = transport_.connect(server);
    if (!peer.ok()) return peer.error();
    server_ = peer.value();
    phase_ = ClientPhase::connecting;
    connect_started_ = now;
    stats_.disconnect_code = DisconnectCode::none;
    slot_ = -1;
    ticking_ = false;
    has_snapshot_ = false;
    receiver_.reset();
    has_seq_ = false;
    expected_event_ = 0;
    return {};
}

template <ReplicatedGame G>
void Client<G>::disconnect(Micros) {
    if (server_ == transport::kInvalidPeer) return;
    Disconnect bye{DisconnectCode::client_quit};
    send(transport::Delivery::reliable_ordered, bye);
    transport_.disconnect(server_, transport::DisconnectReason::local);
    end(DisconnectCode::client_quit);
}

template <ReplicatedGame G>
void Client<G>::end(DisconnectCode code) {
    if (phase_ == ClientPhase::disconnected || phase_ == ClientPhase::idle) return;
    if (stats_.disconnect_code == DisconnectCode::none) stats_.disconnect_code = code;
    phase_ = ClientPhase::disconnected;
    server_ = transport::kInvalidPeer;
    ticking_ = false;
    logf(config_.logger, LogLevel::info, "disconnected: %s",
         disconnect_code_name(stats_.disconnect_code).data());
}

template <ReplicatedGame G>
Status Client<G>::send_chat(const std::string& text) {
    if (phase_ != ClientPhase::playing && phase_ != ClientPhase::syncing) return Errc::not_connected;
    if (text.size() > kMaxChatBytes) return Error{Errc::length_too_long, "chat text too long"};
    ChatRequest chat{text};
    return send(transport::Delivery::reliable_ordered, chat) ? Status{} : Status{Errc::rejected};
}

template <ReplicatedGame G>
bool Client<G>::poll_event(Event& out) {
    if (events_.empty()) return false;
    out = std::move(events_.front());
    events_.pop_front();
    return true;
}

template <ReplicatedGame G>
void Client<G>::update(Micros now) {
    if (!has_now_) {
        has_now_ = true;
        last_now_ = now;
    }
    smoother_.advance(now -
                      last_now_);  // the correction offset decays with time, before this frame's corrections
    transport_.update(now);
    transport::TransportEvent ev;
    while (transport_.poll(ev)) on_transport_event(ev, now);
    if (phase_ == ClientPhase::connecting && now - connect_started_ > config_.connect_timeout) {
        if (server_ != transport::kInvalidPeer)
            transport_.disconnect(server_, transport::DisconnectReason::local);
        end(DisconnectCode::timed_out);
    }

    if (phase_ == ClientPhase::syncing && now - last_ping_ >= config_.sync_ping_interval) {
        // Not ticking yet: pings (empty input packets) give clock sync its first RTT samples.
        Packet ping;
        ping.sequence = input_sequence_++;
        ping.count = 0;
        ping.has_ack = has_snapshot_;
        ping.ack_snapshot_tick = newest_snapshot_tick_;
        ping.ping_time = static_cast<std::uint32_t>(now.count);
        send(transport::Delivery::unreliable, ping);
        last_ping_ = now;
    }
    if (phase_ == ClientPhase::syncing && has_snapshot_ && clock_.ready() &&
        clock_.stats().rtt_samples >= static_cast<std::uint64_t>(config_.min_rtt_samples)) {
        const sync::ClockAdjust adj = clock_.update(now, sync::FracTick{tick_, step_.alpha()});
        if (adj.resync) {
            // Start a little further ahead than the young estimate asks: an early input costs a few ticks of
            // latency for a second, a late first input costs a misprediction. Clock sync eases the surplus
            // away.
            resync_to(adj.resync_to.tick + config_.initial_extra_lead_ticks);
            phase_ = ClientPhase::playing;
        }
    } else if (phase_ == ClientPhase::playing) {
        const sync::ClockAdjust adj = clock_.update(now, sync::FracTick{tick_, step_.alpha()});
        if (adj.resync) resync_to(adj.resync_to.tick + config_.initial_extra_lead_ticks);
        step_.set_time_scale(adj.time_scale);
    }

    const int ticks = step_.advance(now - last_now_);
    last_now_ = now;
    if (phase_ == ClientPhase::playing) {
        update_view(now);  // the view a shot fired during these ticks is stamped with
        for (int i = 0; i < ticks; ++i) run_tick(now);
    }
    update_rates(now);
}

template <ReplicatedGame G>
void Client<G>::resync_to(Tick t) {
    // Jump the client clock: the prediction restarts from the newest snapshot at the new tick.
    const auto predicted_before = phase_ == ClientPhase::playing ? own_entity() : std::nullopt;
    tick_ = t;
    step_.reset_accumulator();
    inputs_.reset();
    states_.reset();
    G::restore(state_, std::span<const EntityRecord>(latest_.entities));
    has_first_input_ = false;
    ticking_ = true;
    carry_view(predicted_before);
}

template <ReplicatedGame G>
void Client<G>::on_transport_event(transport::TransportEvent& ev, Micros now) {
    using Type = transport::TransportEvent::Type;
    if (ev.peer != server_) return;
    if (ev.type == Type::connected) {
        ConnectRequest hello{kProtocolId, kProtocolVersion, config_.game_id, config_.connect_token};
        send(transport::Delivery::reliable_ordered, hello);
        return;
    }
    if (ev.type == Type::disconnected) {
        logf(config_.logger, LogLevel::info, "transport dropped the server: %s",
             transport::disconnect_reason_name(ev.reason).data());
        end(DisconnectCode::transport);
        return;
    }
    stats_.bytes_received += ev.data.size();
    on_message(ev.data, now);
}

template <ReplicatedGame G>
void Client<G>::on_message(std::span<const std::uint8_t> data, Micros now) {
    const auto type = peek_message_type(data);
    if (!type.ok()) {
        ++stats_.malformed;
        return;
    }
    switch (type.value()) {
        case MessageType::connect_accept: {
            ConnectAccept acc;
            if (!decode_message(data, acc).ok() || acc.slot >= G::kMaxPlayers) {
                ++stats_.malformed;
                return;
            }
            if (acc.tick_rate_hz != config_.tick_rate_hz) {
                logf(config_.logger, LogLevel::error, "server ticks at %d Hz, client at %d Hz",
                     acc.tick_rate_hz, config_.tick_rate_hz);
                disconnect(now);
                stats_.disconnect_code = DisconnectCode::bad_protocol;
                return;
            }
            slot_ = acc.slot;
            snapshot_rate_hz_ = acc.snapshot_rate_hz;
            // Aim our inputs at the server's jitter buffer: its target, not our config's guess of it.
            (void)clock_.set_target_input_offset(static_cast<double>(acc.input_buffer_target));
            if (phase_ == ClientPhase::connecting) phase_ = ClientPhase::syncing;
            return;
        }
        case MessageType::snapshot: {
            // The baseline it names comes from what we decoded before.
            if (!receiver_.decode(data, incoming_).ok()) {
                if (incoming_.baseline_missing)
                    ++stats_.snapshots_unknown_baseline;
                else
                    ++stats_.malformed;
                return;
            }
            on_snapshot(incoming_, now);
            return;
        }
        case MessageType::event: {
            Event ev;
            if (!decode_message(data, ev).ok()) {
                ++stats_.malformed;
                return;
            }
            if (ev.sequence != expected_event_) ++stats_.events_out_of_order;
            expected_event_ = ev.sequence + 1;
            ++stats_.events_received;
            events_.push_back(std::move(ev));
            if (events_.size() > 4096)
                events_.pop_front();  // an app that never polls must not grow us forever
            return;
        }
        case MessageType::disconnect: {
            Disconnect d;
            if (!decode_message(data, d).ok()) {
                ++stats_.malformed;
                return;
            }
            stats_.disconnect_code = d.code;
            stats_.token_error = d.token_error;
            end(d.code);
            return;
        }
        default:
            ++stats_.malformed;  // a server never sends the other types
            return;
    }
}

template <ReplicatedGame G>
void Client<G>::predict_one(State& s, Tick t) {
    std::array<Input, G::kMaxPlayers> in{};  // remote players: neutral (RemoteInputPolicy)
    const Input* own = inputs_.find(t);
    if (slot_ >= 0 && own) in[static_cast<std::size_t>(slot_)] = *own;
    G::step(s, std::span<const Input>(in), nullptr);
    if (State* slot = states_.insert(t)) *slot = s;
}

template <ReplicatedGame G>
void Client<G>::run_tick(Micros now) {
    const Tick t = tick_;
    Input in = input_;
    if (G::fires(in)) G::set_view_time(in, t, view_.view_time());
    if (Input* slot = inputs_.insert(t)) *slot = in;
    if (!has_first_input_) {
        has_first_input_ = true;
        first_input_tick_ = t;
    }
    predict_one(state_, t);
    ++tick_;
    send_inputs(t, now);
}

template <ReplicatedGame G>
void Client<G>::send_inputs(Tick newest, Micros now) {
    Packet pkt;
    pkt.sequence = input_sequence_++;
    pkt.newest_tick = newest;
    pkt.count = 0;
    for (int i = 0; i < kInputsPerPacket; ++i) {
        const Input* in = inputs_.find(newest - i);
        if (!in) break;
        pkt.inputs[static_cast<std::size_t>(i)] = *in;
        ++pkt.count;
    }
    pkt.has_ack = has_snapshot_;
    pkt.ack_snapshot_tick = newest_snapshot_tick_;
    pkt.ping_time = static_cast<std::uint32_t>(now.count);
    if (send(transport::Delivery::unreliable, pkt)) ++stats_.inputs_sent;
}

template <ReplicatedGame G>
void Client<G>::update_rates(Micros now) {
    while (!correction_times_.empty() && now - correction_times_.front() > Micros{1'000'000})
        correction_times_.pop_front();
    stats_.corrections_per_second = static_cast<double>(correction_times_.size());
    if (server_ != transport::kInvalidPeer) {
        const auto ps = transport_.stats(server_);
        stats_.kbps_sent = ps.kbps_sent;
        stats_.kbps_received = ps.kbps_received;
    }
    stats_.rtt = clock_.rtt();
    stats_.jitter = clock_.jitter();
    stats_.tick = tick_;
    stats_.time_scale = clock_.time_scale();
    stats_.clock_error_ticks = clock_.last_error_ticks();
    stats_.lead_ticks = clock_.lead_ticks();
    stats_.hard_resyncs = clock_.stats().hard_resyncs;
}

}  // namespace rwd::client_server

#include <rewind/session/client_server/detail/client_reconcile.hpp>
