/// ServerCore: connections, hellos, connect tokens and seating a client.
#include "server_core_impl.hpp"

#include <algorithm>

namespace rwd::client_server {

void ServerCore::Impl::on_transport_event(transport::TransportEvent& ev, Micros now) {
    using Type = transport::TransportEvent::Type;
    if (ev.type == Type::connected) {
        pending.push_back(Pending{ev.peer, now, 0, false, {}});
        return;
    }
    if (ev.type == Type::disconnected) {
        std::erase_if(pending, [&](const Pending& p) { return p.peer == ev.peer; });
        const int slot = slot_of(ev.peer);
        if (slot >= 0) {
            // A transport goodbye on a connection the client never spoke on is an abandoned attempt (a
            // comeback whose accept came too late for it): the seat waits on.
            if (seat(slot).phase == Phase::seated &&
                (ev.reason != transport::DisconnectReason::remote || !seat(slot).spoke)) {
                logf(config.logger, LogLevel::info, "slot %d lost its connection (%s)", slot,
                     transport::disconnect_reason_name(ev.reason).data());
                lose_link(slot, now);
            } else {
                // A goodbye of the transport's is a goodbye: the client closed its connection on purpose.
                if (seat(slot).phase == Phase::seated)
                    logf(config.logger, LogLevel::info, "slot %d left", slot);
                unseat(slot);
            }
        }
        return;
    }
    on_message(ev.peer, ev.delivery, ev.data, now);
}

void ServerCore::Impl::on_message(transport::PeerId peer, transport::Delivery delivery,
                                  std::span<const std::uint8_t> data, Micros now) {
    const int slot = slot_of(peer);
    if (slot >= 0) {
        Seat& s = seat(slot);
        if (s.phase != Phase::seated) return;  // a closing seat is past listening to
        if (!s.channel) return on_seat_message(slot, delivery, data, now);
        // Sealed: nothing is decoded, and nothing counts as hearing from the client, until it opens. A
        // refusal is counted but never held against the client: anyone on the path can send one.
        const auto lane = auth::lane_of(delivery);
        const auth::OpenError e = s.channel->open(lane, data, opened);
        if (e != auth::OpenError::none) {
            ++stats.packets_rejected[static_cast<std::size_t>(e)];
            ++s.stats.packets_rejected;
            return;
        }
        s.stats.bytes_received += auth::kSealedOverheadBytes;  // the packet's size, as the client counts it
        return on_seat_message(slot, delivery, opened, now);
    }
    for (Pending& p : pending)
        if (p.peer == peer && !p.closing) return on_hello(p, data, now);
}

void ServerCore::Impl::on_hello(Pending& p, std::span<const std::uint8_t> data, Micros now) {
    ConnectRequest req;
    if (!decode_message(data, req).ok()) {
        ++stats.malformed;
        if (config.max_malformed && ++p.malformed >= config.max_malformed) {
            p.closing = true;
            p.close_at = now + config.kick_linger;
            Disconnect d{DisconnectCode::garbage};
            send(nullptr, p.peer, transport::Delivery::reliable_ordered, d);
            ++stats.kicked_garbage;
            ++stats.kicks[static_cast<std::size_t>(DisconnectCode::garbage)];
        }
        return;
    }
    DisconnectCode refuse = DisconnectCode::none;
    auth::TokenError why = auth::TokenError::none;
    auth::TokenFields token;
    int slot = -1;
    int resume = -1;
    if (req.protocol_id != kProtocolId || req.version != kProtocolVersion || req.game_id != config.game_id) {
        refuse = DisconnectCode::bad_protocol;
    } else if (token_gate && (why = check_token(p, req, now, token)) != auth::TokenError::none) {
        refuse = DisconnectCode::unauthorized;  // before a seat or any game state exists
    } else {
        resume = resume_target(req, token_gate ? &token : nullptr);
        slot = resume;
        for (int i = 0; i < max_clients && slot < 0; ++i)
            if (seat(i).phase == Phase::empty) slot = i;
        if (slot < 0) refuse = DisconnectCode::server_full;
        // Bound to this connection only once it will be seated: a client refused for a full house keeps its
        // token.
        else if (token_gate && (why = token_gate->admit(token, p.peer, now)) != auth::TokenError::none)
            refuse = DisconnectCode::unauthorized;
    }
    if (refuse != DisconnectCode::none) {
        ++stats.refused;
        ++stats.refusals[static_cast<std::size_t>(refuse)];
        if (refuse == DisconnectCode::unauthorized) ++stats.token_refusals[static_cast<std::size_t>(why)];
        Disconnect d{refuse, why};
        send(nullptr, p.peer, transport::Delivery::reliable_ordered, d);
        p.closing = true;
        p.close_at = now + config.kick_linger;
        const char* reason = why == auth::TokenError::none ? "" : auth::token_error_name(why).data();
        logf(config.logger, LogLevel::info, "refused peer %u: %s %s", p.peer,
             disconnect_code_name(refuse).data(), reason);
        return;
    }
    const transport::PeerId peer = p.peer;
    std::erase_if(pending, [&](const Pending& q) { return q.peer == peer; });
    if (resume >= 0) return resume_seat(resume, peer, req, now, token_gate ? &token.keys : nullptr);
    seat_client(peer, slot, now, token_gate ? &token.keys : nullptr);
    if (token_gate) {
        seat(slot).has_client_id = true;
        seat(slot).client_id = token.client_id;
    }
}

auth::TokenError ServerCore::Impl::check_token(const Pending& p, const ConnectRequest& req, Micros now,
                                               auth::TokenFields& out) const {
    auto verified = token_gate->verify(req.token, config.game_id, now);
    if (!verified.ok()) return auth::token_error(verified.error());
    // The same token from a second connection is a copy, whether or not the first still plays.
    if (const auto e = token_gate->check_replay(*verified, p.peer, now); e != auth::TokenError::none)
        return e;
    // One account, one seat: a second live connection with another token of the same client id is refused,
    // unless it asks for that seat back (its link may be dead without the server knowing yet). A seat held
    // for the account is simply taken back.
    for (int i = 0; i < max_clients; ++i)
        if (seat(i).phase == Phase::seated && seat(i).has_client_id &&
            seat(i).client_id == verified->client_id && !(req.resume && req.resume_slot == i))
            return auth::TokenError::client_in_use;
    out = std::move(verified.value());
    return auth::TokenError::none;
}

void ServerCore::Impl::seat_client(transport::PeerId peer, int slot, Micros now,
                                   const auth::SessionKeys* keys) {
    Seat& s = seat(slot);
    s = Seat{};
    s.resume_secret = resume_secret(slot, ++seatings);
    const auth::ConnectionSalt salt = connect_seat(slot, peer, now, keys);
    game.on_seated(slot);  // its player enters the world; no baseline yet: the first snapshot is in full
    ++stats.connects;
    send_accept(slot, salt, false, 0, Tick{});
    // The newcomer learns who is already here (and who is away), then everyone learns of the newcomer.
    for (int i = 0; i < max_clients; ++i) {
        if (i == slot || (seat(i).phase != Phase::seated && seat(i).phase != Phase::held)) continue;
        send_builtin(Spawn{static_cast<std::uint8_t>(i), game.player_entity(i)}, slot);
        if (seat(i).phase == Phase::held)
            send_builtin(Away{static_cast<std::uint8_t>(i), game.player_entity(i), grace_seconds()}, slot);
    }
    send_builtin(Spawn{static_cast<std::uint8_t>(slot), game.player_entity(slot)});
    logf(config.logger, LogLevel::info, "peer %u seated in slot %d", peer, slot);
}

auth::ConnectionSalt ServerCore::Impl::connect_seat(int slot, transport::PeerId peer, Micros now,
                                                    const auth::SessionKeys* keys) {
    Seat& s = seat(slot);
    // What belongs to the seat outlives its connections; the rest starts afresh.
    Seat fresh{};
    fresh.message_sequence = s.message_sequence;
    fresh.last_message_tick = s.last_message_tick;
    fresh.message_buckets = std::move(s.message_buckets);  // a comeback does not refill its rate limits
    fresh.has_client_id = s.has_client_id;
    fresh.client_id = s.client_id;
    fresh.stats = s.stats;
    fresh.resume_secret = s.resume_secret;
    fresh.replay_tokens = s.replay_tokens;
    fresh.proven = s.proven;
    fresh.client_messages_taken = s.client_messages_taken;
    // A comeback neither clears its abuse record nor refills its replay budget.
    const bool returning = s.phase == Phase::seated || s.phase == Phase::held;
    fresh.abuse_window_start = s.abuse_window_start;
    fresh.abusive_in_window = s.abusive_in_window;
    fresh.abusive_windows = s.abusive_windows;
    fresh.last_abusive_window = s.last_abusive_window;
    fresh.sent_log = std::move(s.sent_log);
    fresh.sent_log_bytes = s.sent_log_bytes;
    s = std::move(fresh);
    s.phase = Phase::seated;
    s.peer = peer;
    // With a token: this connection's own keys, from the token's and a fresh salt the accept carries.
    auth::ConnectionSalt salt{};
    if (keys) {
        salt = auth::connection_salt(token_gate->requirement().process_salt, ++keyed_connections);
        s.channel = std::make_unique<auth::SecureChannel>(auth::connection_keys(*keys, salt),
                                                          auth::SecureChannel::Side::server);
    }
    s.stats.encrypted = s.channel != nullptr;
    s.last_heard = now;
    s.inputs = sync::InputJitterBuffer<EncodedInput>(jitter_config(), tick);
    s.tuner = sync::InputBufferTuner(config.input_buffer_tuning);
    if (!returning) s.replay_tokens = 2.0 * config.late_input_replay_ticks;  // a full replay budget
    s.tuner.on_link(transport.stats(peer).jitter, tick_length());  // what the handshake measured, if anything
    s.stats.connected = true;
    s.stats.away = false;
    s.stats.peer = peer;
    if (s.message_buckets.size() != messages.size()) {
        s.message_buckets.assign(messages.size(), MessageBucket{});
        for (std::size_t id = 0; id < messages.size(); ++id)
            if (const MessageRule* rule = messages.find(static_cast<MessageId>(id)))
                s.message_buckets[id] =
                    MessageBucket{double(rule->spec.burst_messages), now};  // a full burst
    }
    return salt;
}

void ServerCore::Impl::send_accept(int slot, const auth::ConnectionSalt& salt, bool resumed,
                                   std::uint32_t next_message, Tick message_tick) {
    Seat& s = seat(slot);
    ConnectAccept acc{static_cast<std::uint8_t>(slot), tick, static_cast<std::uint16_t>(config.tick_rate_hz),
                      static_cast<std::uint8_t>(config.snapshot_rate_hz),
                      static_cast<std::uint8_t>(input_buffer_target(s))};
    acc.seat_grace_s = grace_seconds();
    acc.resumed = resumed;
    acc.next_message = next_message;
    acc.message_tick = message_tick;
    acc.client_messages_taken = s.client_messages_taken;
    if (s.channel) {
        // The client needs the salt to derive the keys: the accept goes in the clear, followed by the
        // first packet under those keys, empty, whose tag authenticates the accept. No secret travels in
        // it: with a token the account is what proves a comeback.
        acc.sealed = true;
        acc.salt = salt;
        std::vector<std::uint8_t> tag;
        if (!encode_message(acc, buffer).ok() ||
            !s.channel->seal(auth::Lane::reliable, {}, tag, buffer).ok()) {
            ++stats.send_failures;
        } else {
            buffer.insert(buffer.end(), tag.begin(), tag.end());
            if (transport.send(s.peer, transport::Delivery::reliable_ordered, buffer).ok())
                s.stats.bytes_sent += buffer.size();
            else
                ++stats.send_failures;
        }
    } else {
        acc.resume_secret = s.resume_secret;
        send(&s, s.peer, transport::Delivery::reliable_ordered, acc, &s.stats.bytes_sent);
    }
}

}  // namespace rwd::client_server
