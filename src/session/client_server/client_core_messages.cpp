/// ClientCore::Impl: what arrives from the server: transport events, the accept, snapshot headers (staleness,
/// loss, clock, the server's view of our inputs; the adapter reads the entities), messages and goodbyes.
#include "session/client_server/client_core_impl.hpp"

#include <rewind/core/log.hpp>
#include <rewind/core/sequence.hpp>
#include <rewind/wire/message.hpp>

#include <algorithm>
#include <utility>

namespace rwd::client_server::detail {

void ClientCore::Impl::on_transport_event(transport::TransportEvent& ev, Micros now) {
    using Type = transport::TransportEvent::Type;
    if (ev.peer != server_) return;
    if (ev.type == Type::connected) {
        ConnectRequest h = hello();
        send(transport::Delivery::reliable_ordered, h);
        connect_started_ = now;  // the attempt now waits connect_timeout for the accept to this hello
        return;
    }
    if (ev.type == Type::disconnected) {
        if (phase_ == ClientPhase::reconnecting) {
            server_ = transport::kInvalidPeer;  // the transport has forgotten it already
            return reconnect_failed(now);
        }
        if ((phase_ == ClientPhase::syncing || phase_ == ClientPhase::playing) &&
            ev.reason != transport::DisconnectReason::refused) {
            logf(config_.logger, LogLevel::warn, "transport dropped the server: %s",
                 transport::disconnect_reason_name(ev.reason).data());
            server_ = transport::kInvalidPeer;
            return link_lost(DisconnectCode::transport, now);
        }
        // Before the accept, a lost or unanswered connection is tried again; a refusal is an answer.
        if (phase_ == ClientPhase::connecting && ev.reason != transport::DisconnectReason::refused) {
            server_ = transport::kInvalidPeer;  // the transport has forgotten it already
            attempt_failed(DisconnectCode::transport, now);
            return;
        }
        logf(config_.logger, phase_ == ClientPhase::connecting ? LogLevel::info : LogLevel::warn,
             "transport dropped the server: %s", transport::disconnect_reason_name(ev.reason).data());
        end(DisconnectCode::transport);
        return;
    }
    on_packet(ev.delivery, ev.data, now);
}

void ClientCore::Impl::on_packet(transport::Delivery delivery, std::span<const std::uint8_t> data,
                                 Micros now) {
    std::span<const std::uint8_t> plain = data;
    if (!config_.connect_token.empty()) {
        const auto lane = auth::lane_of(delivery);
        if (channel_) {
            const auth::OpenError e = channel_->open(lane, data, opened_);
            if (e != auth::OpenError::none) {
                ++stats_.packets_rejected[static_cast<std::size_t>(e)];
                return;  // never decoded, never counts as hearing the server
            }
            plain = opened_;
        } else if (!on_clear_handshake(lane, data, plain)) {
            return;
        }
    }
    stats_.bytes_received += data.size();
    last_heard_ = now;
    on_message(plain, now);
}

bool ClientCore::Impl::on_clear_handshake(auth::Lane lane, std::span<const std::uint8_t> data,
                                          std::span<const std::uint8_t>& plain) {
    // Before the accept only two things come in the clear: a refusal of the hello (the server seats no one
    // and opens no keys before the token checks out), and the accept with its salt and, after it, the first
    // packet under this connection's keys, whose tag authenticates it.
    const auto type = peek_message_type(data);
    const bool handshaking = phase_ == ClientPhase::connecting || phase_ == ClientPhase::reconnecting;
    if (handshaking && lane == auth::Lane::reliable && type.ok()) {
        if (type.value() == MessageType::disconnect) {
            Disconnect d;
            if (decode_message(data, d).ok() &&
                (d.code == DisconnectCode::unauthorized || d.code == DisconnectCode::server_full ||
                 d.code == DisconnectCode::bad_protocol || d.code == DisconnectCode::garbage)) {
                plain = data;
                return true;
            }
        } else if (type.value() == MessageType::connect_accept) {
            ConnectAccept acc;
            if (decode_message(data, acc).ok() && !acc.sealed) {
                // A whole plain accept: this server does not require tokens (or someone says so).
                logf(config_.logger, LogLevel::error,
                     "the server accepted in the clear: it does not require connect tokens, and this client "
                     "will not talk to it unencrypted");
                stats_.disconnect_code = DisconnectCode::bad_protocol;
                quit();  // closes the connection (nothing more is sent: there are no keys to seal it with)
                return false;
            }
            if (data.size() > auth::kSealedOverheadBytes) {
                const auto head = data.first(data.size() - auth::kSealedOverheadBytes);
                const auto tag = data.last(auth::kSealedOverheadBytes);
                if (decode_message(head, acc).ok() && acc.sealed) {
                    auto ch = std::make_unique<auth::SecureChannel>(
                        auth::connection_keys(config_.session_keys, acc.salt),
                        auth::SecureChannel::Side::client);
                    const auth::OpenError e = ch->open(auth::Lane::reliable, tag, opened_, head);
                    if (e == auth::OpenError::none) {
                        channel_ = std::move(ch);
                        plain = head;
                        return true;
                    }
                    ++stats_.packets_rejected[static_cast<std::size_t>(e)];
                    return false;
                }
            }
        }
    }
    ++stats_.packets_rejected[static_cast<std::size_t>(auth::OpenError::forged)];
    return false;
}

void ClientCore::Impl::on_message(std::span<const std::uint8_t> data, Micros now) {
    const auto type = peek_message_type(data);
    if (!type.ok()) {
        ++stats_.malformed;
        return;
    }
    switch (type.value()) {
        case MessageType::connect_accept:
            on_accept(data);
            return;
        case MessageType::snapshot:
            on_snapshot(data, now);
            return;
        case MessageType::server_message: {
            ServerMessage sm;
            sm.expected_sequence = expected_message_;
            sm.previous_tick = last_message_tick_;
            if (!decode_message(data, sm).ok()) {
                ++stats_.malformed;
                return;
            }
            // The channel is reliable and ordered: each message is the next one, whatever its type.
            if (sm.sequence != expected_message_) ++stats_.events_out_of_order;
            expected_message_ = sm.sequence + 1;
            last_message_tick_ = sm.tick;
            ++stats_.events_received;
            if (sm.type == kBackMessageId) {
                Back back;
                if (decode_payload(sm.payload, back).ok() && back.slot == slot_ && back.resync)
                    ++stats_.resume_resyncs;
            }
            take_message(Message{sm.type, true, -1, sm.tick, sm.sequence, std::move(sm.payload)});
            return;
        }
        case MessageType::unreliable_message: {
            UnreliableMessage um;
            if (!decode_message(data, um).ok()) {
                ++stats_.malformed;
                return;
            }
            // At most once: the transport may deliver a datagram twice (and a stale one is of no use).
            if (unreliable_seen_.exists(um.sequence) || unreliable_seen_.is_too_old(um.sequence)) return;
            unreliable_seen_.insert(um.sequence);
            if (take_message(Message{um.type, false, -1, um.tick, 0, std::move(um.payload)}))
                ++stats_.unreliable_messages_received;
            return;
        }
        case MessageType::disconnect: {
            Disconnect d;
            if (!decode_message(data, d).ok()) {
                ++stats_.malformed;
                return;
            }
            if (phase_ == ClientPhase::reconnecting && d.code == DisconnectCode::unauthorized &&
                (d.token_error == auth::TokenError::expired || d.token_error == auth::TokenError::replayed)) {
                // The token served its connection: coming back takes a fresh one (set_credentials).
                stats_.token_error = d.token_error;
                waiting_for_credentials_ = true;
                transport_.disconnect(server_, transport::DisconnectReason::local);
                server_ = transport::kInvalidPeer;
                channel_.reset();
                retry_at_.reset();
                logf(config_.logger, LogLevel::warn,
                     "reconnecting needs a fresh connect token (the server said: %s)",
                     auth::token_error_name(d.token_error).data());
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

void ClientCore::Impl::on_accept(std::span<const std::uint8_t> data) {
    ConnectAccept acc;
    if (!decode_message(data, acc).ok() || acc.slot >= max_players_) {
        ++stats_.malformed;
        return;
    }
    if (acc.tick_rate_hz != config_.tick_rate_hz) {
        logf(config_.logger, LogLevel::error, "server ticks at %d Hz, client at %d Hz", acc.tick_rate_hz,
             config_.tick_rate_hz);
        quit();
        stats_.disconnect_code = DisconnectCode::bad_protocol;  // the reason that explains the goodbye
        return;
    }
    if (phase_ != ClientPhase::connecting && phase_ != ClientPhase::reconnecting) {
        ++stats_.malformed;  // one accept per connection
        return;
    }
    // With a token the account proves the seat: the server may give back a held seat the hello did not name.
    const bool by_account = !config_.connect_token.empty();
    if (acc.resumed && !by_account && (!resume_ || acc.slot != resume_->slot)) {
        ++stats_.malformed;  // a seat given back that we did not ask for
        return;
    }
    if (phase_ == ClientPhase::reconnecting) {
        // A new connection (its snapshots start over), and the clock restarts at the server's time once
        // synced.
        forget_connection_snapshots();
        force_resync_ = true;
        if (!acc.resumed) {
            ++stats_.seats_lost;
            logf(config_.logger, LogLevel::warn, "the server no longer held slot %d: seated anew in slot %d",
                 slot_, int{acc.slot});
        }
    }
    if (acc.resumed) {
        // The reliable stream goes on where the server says: the first message it resends, or a resync.
        expected_message_ = acc.next_message;
        last_message_tick_ = acc.message_tick;
        ++stats_.resumes;
        logf(config_.logger, LogLevel::info, "back in slot %d", int{acc.slot});
    } else {
        expected_message_ = 0;
        last_message_tick_ = Tick{};
        sent_log_.clear();  // a new seat: the old one's messages were the old player's
        sent_count_ = 0;
    }
    resume_.reset();
    slot_ = acc.slot;
    grace_offered_ = acc.seat_grace_s > 0;
    secret_ = acc.resume_secret;
    // Aim our inputs at the server's jitter buffer: its target, not our config's guess of it.
    stats_.server_input_buffer_target = acc.input_buffer_target;
    (void)clock_.set_target_input_offset(static_cast<double>(acc.input_buffer_target));
    phase_ = ClientPhase::syncing;
    if (acc.resumed) resend_after(acc.client_messages_taken);
}

void ClientCore::Impl::on_snapshot(std::span<const std::uint8_t> data, Micros now) {
    // The header is ours; the entity section is the game's, delta-coded against a snapshot the adapter
    // decoded before.
    wire::ReadStream s(data);
    SnapshotHeader head;
    head.has_tick_reference = has_snapshot_;  // a short server tick is expanded against the newest one held
    head.tick_reference = newest_snapshot_tick_;
    Framed<SnapshotHeader> framed{&head};
    bool baseline_missing = false;
    const bool ok = serialize(s, framed) && game_.read_snapshot_entities(s, head, baseline_missing);
    if (!wire::finish_read(s, ok).ok()) {
        if (baseline_missing)
            ++stats_.snapshots_unknown_baseline;
        else
            ++stats_.malformed;
        return;
    }
    // A tick is only as trustworthy as its sequence: a datagram far older than the newest snapshot could
    // expand its short tick to a later one, but never its sequence.
    if (has_snapshot_ &&
        (head.server_tick <= newest_snapshot_tick_ || seq_diff(head.sequence, newest_snapshot_seq_) <= 0)) {
        ++stats_.snapshots_stale;  // reordered or duplicated: a newer state is already in
        return;
    }
    on_snapshot_header(head, now);
    has_snapshot_ = true;
    newest_snapshot_tick_ = head.server_tick;
    newest_snapshot_seq_ = head.sequence;
    game_.accept_snapshot(head, phase_ == ClientPhase::playing, now);
}

void ClientCore::Impl::on_snapshot_header(const SnapshotHeader& head, Micros now) {
    ++stats_.snapshots_received;
    // Loss from sequence numbers: expected = span of sequences seen, received = count (window halves as it
    // ages).
    if (!has_seq_) {
        has_seq_ = true;
        newest_seq_ = head.sequence;
        seq_expected_window_ = seq_received_window_ = 1;
    } else {
        const std::int32_t d = seq_diff(head.sequence, newest_seq_);
        if (d > 0) {
            seq_expected_window_ += static_cast<std::uint64_t>(d);
            newest_seq_ = head.sequence;
        }
        ++seq_received_window_;
        if (seq_expected_window_ >= 120) {
            stats_.loss = 1.0 - std::min(1.0, static_cast<double>(seq_received_window_) /
                                                  static_cast<double>(seq_expected_window_));
            seq_expected_window_ /= 2;
            seq_received_window_ /= 2;
        }
    }

    // The snapshot holds the state after tick X and leaves the server right after it ran X, when the server's
    // clock reads X + 1: that is the stamp clock sync wants.
    clock_.on_server_tick(head.server_tick + 1, now);
    // The echo carries the low kPongTimeBits of our send time; the difference is taken modulo 2^22 µs (4.2
    // s).
    constexpr std::uint32_t pong_mask = (1u << kPongTimeBits) - 1u;
    const auto since_ping =
        static_cast<std::uint32_t>(static_cast<std::uint32_t>(now.count) - head.pong_time) & pong_mask;
    if (head.pong_time != 0 && since_ping < pong_mask / 2)
        clock_.on_pong(now - Micros{since_ping}, now, Micros{head.pong_hold_us});
    const double tick_us = 1e6 / config_.tick_rate_hz;
    if (head.has_input) {
        stats_.server_input_offset_ticks = head.arrival_offset_us / tick_us;
        clock_.on_input_offset(stats_.server_input_offset_ticks);
    }
    stats_.server_input_buffer_depth = head.input_buffer_depth;
    // The server's jitter buffer target for our inputs follows their measured arrival spread: aim at it.
    if (head.input_buffer_target != stats_.server_input_buffer_target) {
        stats_.server_input_buffer_target = head.input_buffer_target;
        (void)clock_.set_target_input_offset(static_cast<double>(head.input_buffer_target));
    }
    stats_.server_tick_drift =
        clock_.estimated_server_tick(now) -
        sync::FracTick::at(head.server_tick, clock_.rtt().seconds() * config_.tick_rate_hz / 2);
}

}  // namespace rwd::client_server::detail
