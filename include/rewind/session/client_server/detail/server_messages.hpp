/// Server<G> member definitions, part 2: connections, hellos and messages from clients (via server_impl.hpp).
#pragma once

#include <algorithm>

namespace rwd::client_server {

template <ReplicatedGame G>
void Server<G>::on_transport_event(transport::TransportEvent& ev, Micros now) {
    using Type = transport::TransportEvent::Type;
    if (ev.type == Type::connected) {
        pending_.push_back(Pending{ev.peer, now, 0, false, {}});
        return;
    }
    if (ev.type == Type::disconnected) {
        std::erase_if(pending_, [&](const Pending& p) { return p.peer == ev.peer; });
        const int slot = slot_of(ev.peer);
        if (slot >= 0) {
            if (seat(slot).phase == Phase::seated) logf(config_.logger, LogLevel::info, "slot %d left", slot);
            unseat(slot);
        }
        return;
    }
    on_message(ev.peer, ev.data, now);
}

template <ReplicatedGame G>
void Server<G>::on_message(transport::PeerId peer, std::span<const std::uint8_t> data, Micros now) {
    const int slot = slot_of(peer);
    if (slot >= 0) {
        if (seat(slot).phase == Phase::seated) on_seat_message(slot, data, now);
        return;  // a closing seat is past listening to
    }
    for (Pending& p : pending_)
        if (p.peer == peer && !p.closing) return on_hello(p, data, now);
}

template <ReplicatedGame G>
void Server<G>::on_hello(Pending& p, std::span<const std::uint8_t> data, Micros now) {
    ConnectRequest req;
    if (!decode_message(data, req).ok()) {
        ++stats_.malformed;
        if (config_.max_malformed && ++p.malformed >= config_.max_malformed) {
            p.closing = true;
            p.close_at = now + config_.kick_linger;
            Disconnect d{DisconnectCode::garbage};
            send(p.peer, transport::Delivery::reliable_ordered, d);
            ++stats_.kicked_garbage;
        }
        return;
    }
    DisconnectCode refuse = DisconnectCode::none;
    auth::TokenError why = auth::TokenError::none;
    auth::TokenFields token;
    int slot = -1;
    if (req.protocol_id != kProtocolId || req.version != kProtocolVersion || req.game_id != config_.game_id) {
        refuse = DisconnectCode::bad_protocol;
    } else if (token_gate_ && (why = check_token(p, req, now, token)) != auth::TokenError::none) {
        refuse = DisconnectCode::unauthorized;  // before a seat or any game state exists
    } else {
        for (int i = 0; i < max_clients_ && slot < 0; ++i)
            if (seat(i).phase == Phase::empty) slot = i;
        if (slot < 0) refuse = DisconnectCode::server_full;
        // Bound to this connection only once it will be seated: a client refused for a full house keeps its
        // token.
        else if (token_gate_ && (why = token_gate_->admit(token, p.peer, now)) != auth::TokenError::none)
            refuse = DisconnectCode::unauthorized;
    }
    if (refuse != DisconnectCode::none) {
        ++stats_.refused;
        if (refuse == DisconnectCode::unauthorized) ++stats_.token_refusals[static_cast<std::size_t>(why)];
        Disconnect d{refuse, why};
        send(p.peer, transport::Delivery::reliable_ordered, d);
        p.closing = true;
        p.close_at = now + config_.kick_linger;
        const char* reason = why == auth::TokenError::none ? "" : auth::token_error_name(why).data();
        logf(config_.logger, LogLevel::info, "refused peer %u: %s %s", p.peer,
             disconnect_code_name(refuse).data(), reason);
        return;
    }
    const transport::PeerId peer = p.peer;
    std::erase_if(pending_, [&](const Pending& q) { return q.peer == peer; });
    seat_client(peer, slot, now);
    if (token_gate_) {
        seat(slot).has_client_id = true;
        seat(slot).client_id = token.client_id;
    }
}

template <ReplicatedGame G>
auth::TokenError Server<G>::check_token(const Pending& p, const ConnectRequest& req, Micros now,
                                        auth::TokenFields& out) const {
    auto verified = token_gate_->verify(req.token, config_.game_id, now);
    if (!verified.ok()) return auth::token_error(verified.error());
    // The same token from a second connection is a copy, whether or not the first still plays.
    if (const auto e = token_gate_->check_replay(*verified, p.peer, now); e != auth::TokenError::none)
        return e;
    // One account, one seat: a second live connection with another token of the same client id is refused.
    for (int i = 0; i < max_clients_; ++i)
        if (seat(i).phase == Phase::seated && seat(i).has_client_id &&
            seat(i).client_id == verified->client_id)
            return auth::TokenError::client_in_use;
    out = std::move(verified.value());
    return auth::TokenError::none;
}

template <ReplicatedGame G>
void Server<G>::seat_client(transport::PeerId peer, int slot, Micros now) {
    Seat& s = seat(slot);
    s = Seat{};
    s.phase = Phase::seated;
    s.peer = peer;
    s.last_heard = now;
    s.inputs = sync::InputJitterBuffer<Input>(jitter_config(), tick_);
    sender_.reset(slot);  // no baseline yet: the first snapshot carries every relevant entity in full
    s.stats.connected = true;
    s.stats.peer = peer;
    G::add_player(state_, slot);
    ++stats_.connects;
    ConnectAccept acc{static_cast<std::uint8_t>(slot), tick_,
                      static_cast<std::uint16_t>(config_.tick_rate_hz),
                      static_cast<std::uint8_t>(config_.snapshot_rate_hz),
                      static_cast<std::uint8_t>(config_.input_buffer_target)};
    send(peer, transport::Delivery::reliable_ordered, acc, &s.stats.bytes_sent);
    // The newcomer learns who is already here, then everyone learns of the newcomer.
    for (int i = 0; i < max_clients_; ++i)
        if (i != slot && seat(i).phase == Phase::seated)
            send_event(slot, Event{0,
                                   EventKind::spawn,
                                   tick_,
                                   static_cast<std::uint8_t>(i),
                                   static_cast<std::uint8_t>(i),
                                   static_cast<std::int32_t>(G::player_entity(i)),
                                   {}});
    broadcast(EventKind::spawn, slot, slot, static_cast<std::int32_t>(G::player_entity(slot)));
    logf(config_.logger, LogLevel::info, "peer %u seated in slot %d", peer, slot);
}

template <ReplicatedGame G>
void Server<G>::count_malformed(int slot, Micros now) {
    ++stats_.malformed;
    ++seat(slot).stats.malformed;
    count_toward_garbage_kick(slot, now);
}

template <ReplicatedGame G>
void Server<G>::count_unexpected(int slot, Micros now) {
    // A server-to-client message sent to the server is well formed but never legitimate: it counts toward the
    // same kick as garbage, or a client could send it forever.
    ++stats_.unexpected;
    ++seat(slot).stats.unexpected;
    count_toward_garbage_kick(slot, now);
}

template <ReplicatedGame G>
void Server<G>::count_toward_garbage_kick(int slot, Micros now) {
    Seat& s = seat(slot);
    s.stats.flagged = true;
    if (config_.max_malformed && s.stats.malformed + s.stats.unexpected >= config_.max_malformed)
        kick(slot, DisconnectCode::garbage, now);
}

template <ReplicatedGame G>
void Server<G>::count_abusive_packet(int slot, Micros now) {
    // Refused input packets (over the rate limit, or stamped too far ahead) are cheap to drop, but a client
    // that keeps sending them window after window is attacking, not lagging: it is kicked as cheating.
    Seat& s = seat(slot);
    s.stats.flagged = true;
    if (now - s.abuse_window_start >= config_.abuse_window) {
        s.abuse_window_start = now;
        s.abusive_in_window = 0;
    }
    if (++s.abusive_in_window != config_.abusive_packets_per_window) return;
    ++s.stats.abusive_windows;
    // Consecutive: the previous abusive window must have ended no more than one window before this one began.
    s.abusive_windows = (now - s.last_abusive_window < config_.abuse_window * 2) ? s.abusive_windows + 1 : 1;
    s.last_abusive_window = now;
    if (config_.max_abusive_windows && s.abusive_windows >= config_.max_abusive_windows)
        kick(slot, DisconnectCode::cheating, now);
}

template <ReplicatedGame G>
void Server<G>::on_seat_message(int slot, std::span<const std::uint8_t> data, Micros now) {
    Seat& s = seat(slot);
    s.stats.bytes_received += data.size();
    const auto type = peek_message_type(data);
    if (!type.ok()) return count_malformed(slot, now);
    switch (type.value()) {
        case MessageType::input: {
            Packet pkt;
            if (!decode_message(data, pkt).ok()) return count_malformed(slot, now);
            on_input(slot, pkt, now);
            return;
        }
        case MessageType::chat: {
            ChatRequest chat;
            if (!decode_message(data, chat).ok()) return count_malformed(slot, now);
            s.last_heard = now;
            broadcast(EventKind::chat, slot, slot, 0, chat.text);
            return;
        }
        case MessageType::disconnect: {
            Disconnect d;
            if (!decode_message(data, d).ok()) return count_malformed(slot, now);
            logf(config_.logger, LogLevel::info, "slot %d said goodbye", slot);
            const transport::PeerId peer = s.peer;
            unseat(slot);
            transport_.disconnect(peer, transport::DisconnectReason::local);
            return;
        }
        default:
            return count_unexpected(slot, now);
    }
}

template <ReplicatedGame G>
void Server<G>::on_input(int slot, const Packet& pkt, Micros now) {
    Seat& s = seat(slot);
    s.last_heard = now;
    if (!s.has_ping || pkt.ping_time != s.ping_time) {
        s.has_ping = true;
        s.ping_time = pkt.ping_time;
        s.ping_at = now;
    }
    if (pkt.has_ack && (!s.has_ack || pkt.ack_snapshot_tick > s.acked_snapshot)) {
        s.has_ack = true;
        s.acked_snapshot = pkt.ack_snapshot_tick;
    }
    if (pkt.has_ack) sender_.ack(slot, pkt.ack_snapshot_tick);  // the delta baseline
    const auto verdict =
        s.inputs.push(pkt.newest_tick, std::span<const Input>(pkt.inputs.data(), pkt.count), now);
    if (verdict == sync::PacketVerdict::rate_limited || verdict == sync::PacketVerdict::too_far_in_future)
        count_abusive_packet(slot, now);
    const auto& b = s.inputs.stats();
    s.stats.inputs_duplicate = b.redundant_inputs;
    s.stats.inputs_late = b.late_inputs;
    s.stats.inputs_overflow = b.overflow_dropped;
    s.stats.inputs_rate_limited = b.rate_limited;
    s.stats.inputs_future = b.future_rejected;
    if (s.inputs.flood_flagged()) s.stats.flagged = true;
}

}  // namespace rwd::client_server
