/// ServerCore: seats held for a client whose link is lost, and the client coming back to its seat (its
/// secret or its account, the messages it missed, or a resync).
#include "server_core_impl.hpp"

#include <rewind/core/log.hpp>

#include <sodium.h>

#include <algorithm>

namespace rwd::client_server {

ResumeSecret ServerCore::Impl::resume_secret(int slot, std::uint64_t seating) const {
    std::array<std::uint8_t, 9> in{};
    in[0] = static_cast<std::uint8_t>(slot);
    for (int i = 0; i < 8; ++i)
        in[static_cast<std::size_t>(1 + i)] = static_cast<std::uint8_t>(seating >> (8 * i));
    ResumeSecret out{};
    crypto_generichash(out.data(), out.size(), in.data(), in.size(), resume_key.data(), resume_key.size());
    return out;
}

void ServerCore::Impl::lose_link(int slot, Micros now) {
    Seat& s = seat(slot);
    if (s.phase != Phase::seated) return;
    // A client that never spoke after its accept may never have got it: it cannot come back, so nothing
    // waits for it.
    if (config.seat_grace.count <= 0 || !s.proven) return unseat(slot);
    // The connection goes; the seat, its player and its message stream stay for the grace.
    s.phase = Phase::held;
    s.peer = transport::kInvalidPeer;
    s.channel.reset();
    s.held_until = now + config.seat_grace;
    s.stats.connected = false;
    s.stats.away = true;
    ++stats.seats_held;
    game.on_away(slot);
    const Away away{static_cast<std::uint8_t>(slot), game.player_entity(slot), grace_seconds()};
    for (int i = 0; i < max_clients; ++i)
        if (i != slot && (seat(i).phase == Phase::seated || seat(i).phase == Phase::held))
            send_builtin(away, i);
    logf(config.logger, LogLevel::info, "slot %d lost its link: seat held for %.0f s", slot,
         config.seat_grace.seconds());
}

int ServerCore::Impl::resume_target(const ConnectRequest& req, const auth::TokenFields* token) {
    const auto live = [&](int i) { return seat(i).phase == Phase::seated || seat(i).phase == Phase::held; };
    if (token) {
        // The account proves it: a seat held for it, or the live seat it names (its old connection may be
        // dead without the server knowing yet; check_token refused any other live seat of the account).
        for (int i = 0; i < max_clients; ++i) {
            const Seat& s = seat(i);
            if (!live(i) || !s.has_client_id || s.client_id != token->client_id) continue;
            if (s.phase == Phase::held || (req.resume && req.resume_slot == i)) return i;
        }
        if (req.resume && valid(req.resume_slot) && live(req.resume_slot)) ++stats.resumes_refused;
        return -1;
    }
    if (!req.resume || !valid(req.resume_slot) || !live(req.resume_slot)) return -1;
    const Seat& s = seat(req.resume_slot);
    if (s.has_client_id ||
        sodium_memcmp(s.resume_secret.data(), req.resume_secret.data(), s.resume_secret.size()) != 0) {
        // Someone else's seat: whoever asks gets a seat of their own, never this one.
        ++stats.resumes_refused;
        logf(config.logger, LogLevel::warn, "a resume of slot %d with the wrong secret was refused",
             int{req.resume_slot});
        return -1;
    }
    return req.resume_slot;
}

void ServerCore::Impl::resume_seat(int slot, transport::PeerId peer, const ConnectRequest& req, Micros now,
                                   const auth::SessionKeys* keys) {
    Seat& s = seat(slot);
    const bool was_seated = s.phase == Phase::seated;
    if (was_seated) {
        // Its old connection is still open here (the client lost it without the server noticing): close it
        // quietly, nothing is said on it any more.
        transport.disconnect(s.peer, transport::DisconnectReason::kicked);
    }
    // Where the client's message stream goes on: from the next one it expects while the log still holds
    // it (and it is not past what was sent), else from the server's next message (a resync).
    const std::uint32_t missed = s.message_sequence - req.resume_next_message;  // wraps like the sequences
    const std::uint32_t oldest = s.sent_log.empty() ? s.message_sequence : s.sent_log.front().sequence;
    const bool named = req.resume && req.resume_slot == slot;  // (by account, a token may not name it)
    const bool resend = named && req.resume_has_messages && missed <= s.message_sequence - oldest;
    std::uint32_t next = s.message_sequence;
    Tick next_tick = s.last_message_tick;
    if (resend && missed > 0) {
        next = req.resume_next_message;
        next_tick = s.sent_log[s.sent_log.size() - missed].previous_tick;
    }
    if (was_seated) game.on_away(slot);  // away for no time: the game's hooks come in pairs
    const auth::ConnectionSalt salt = connect_seat(slot, peer, now, keys);
    game.on_back(slot);
    ++stats.resumes;
    ++s.stats.resumes;
    send_accept(slot, salt, true, next, next_tick);
    std::uint32_t resent = 0;
    if (resend)
        for (std::size_t i = s.sent_log.size() - missed; i < s.sent_log.size(); ++i) {
            const LoggedMessage& e = s.sent_log[i];
            ServerMessage m{e.sequence, e.tick, e.type, e.payload, e.sequence, e.previous_tick};
            if (send(&s, s.peer, transport::Delivery::reliable_ordered, m, &s.stats.bytes_sent)) ++resent;
        }
    stats.messages_resent += resent;
    s.stats.messages_resent += resent;
    if (!resend) {
        ++stats.resume_resyncs;
        ++s.stats.resume_resyncs;
    }
    send_builtin(Back{static_cast<std::uint8_t>(slot), game.player_entity(slot), !resend}, slot);
    const Back back{static_cast<std::uint8_t>(slot), game.player_entity(slot), false};
    for (int i = 0; i < max_clients; ++i)
        if (i != slot && (seat(i).phase == Phase::seated || seat(i).phase == Phase::held))
            send_builtin(back, i);
    logf(config.logger, LogLevel::info, "peer %u took slot %d back (%u messages resent%s)", peer, slot,
         resent, resend ? "" : ", resync");
}

void ServerCore::Impl::log_message(Seat& s, const ServerMessage& m) {
    if (config.seat_grace.count <= 0) return;
    s.sent_log.push_back(LoggedMessage{m.sequence, m.tick, m.previous_tick, m.type, m.payload});
    s.sent_log_bytes += m.payload.size();
    while (!s.sent_log.empty() &&
           (s.sent_log.size() > config.resume_log_messages || s.sent_log_bytes > config.resume_log_bytes)) {
        s.sent_log_bytes -= s.sent_log.front().payload.size();
        s.sent_log.pop_front();
    }
}

}  // namespace rwd::client_server
