/// ServerCore: messages from seated clients (inputs, game messages, goodbye) and the garbage and abuse
/// accounting.
#include "server_core_impl.hpp"

#include <rewind/wire/message.hpp>
#include <rewind/wire/stream.hpp>

#include <algorithm>

namespace rwd::client_server {

void ServerCore::Impl::count_malformed(int slot, Micros now) {
    ++stats.malformed;
    ++seat(slot).stats.malformed;
    count_toward_garbage_kick(slot, now);
}

void ServerCore::Impl::count_unexpected(int slot, Micros now) {
    // A server-to-client message sent to the server is well formed but never legitimate: it counts toward the
    // same kick as garbage, or a client could send it forever.
    ++stats.unexpected;
    ++seat(slot).stats.unexpected;
    count_toward_garbage_kick(slot, now);
}

void ServerCore::Impl::count_toward_garbage_kick(int slot, Micros now) {
    Seat& s = seat(slot);
    s.stats.flagged = true;
    if (config.max_malformed && s.stats.malformed + s.stats.unexpected >= config.max_malformed)
        kick(slot, DisconnectCode::garbage, now);
}

void ServerCore::Impl::count_abusive_packet(int slot, Micros now) {
    // Refused input packets (over the rate limit, or stamped too far ahead) are cheap to drop, but a client
    // that keeps sending them window after window is attacking, not lagging: it is kicked as cheating.
    Seat& s = seat(slot);
    s.stats.flagged = true;
    if (now - s.abuse_window_start >= config.abuse_window) {
        s.abuse_window_start = now;
        s.abusive_in_window = 0;
    }
    if (++s.abusive_in_window != config.abusive_packets_per_window) return;
    ++s.stats.abusive_windows;
    // Consecutive: the previous abusive window must have ended no more than one window before this one began.
    s.abusive_windows = (now - s.last_abusive_window < config.abuse_window * 2) ? s.abusive_windows + 1 : 1;
    s.last_abusive_window = now;
    if (config.max_abusive_windows && s.abusive_windows >= config.max_abusive_windows)
        kick(slot, DisconnectCode::cheating, now);
}

void ServerCore::Impl::on_seat_message(int slot, transport::Delivery delivery,
                                       std::span<const std::uint8_t> data, Micros now) {
    Seat& s = seat(slot);
    s.stats.bytes_received += data.size();
    const auto type = peek_message_type(data);
    if (!type.ok()) return count_malformed(slot, now);
    switch (type.value()) {
        case MessageType::input: {
            on_input(slot, data, now);
            return;
        }
        case MessageType::client_message:
        case MessageType::unreliable_message:
            return on_client_message(slot, delivery != transport::Delivery::unreliable, data, now);
        case MessageType::disconnect: {
            Disconnect d;
            if (!decode_message(data, d).ok()) return count_malformed(slot, now);
            logf(config.logger, LogLevel::info, "slot %d said goodbye", slot);
            const transport::PeerId peer = s.peer;
            unseat(slot);
            transport.disconnect(peer, transport::DisconnectReason::local);
            return;
        }
        default:
            return count_unexpected(slot, now);
    }
}

void ServerCore::Impl::on_input(int slot, std::span<const std::uint8_t> data, Micros now) {
    // The head and tail are the library's; each input is the game's, read (and validated) by the game side.
    wire::ReadStream in(data);
    InputPacketHead head;
    Framed<InputPacketHead> framed{&head};
    bool ok = serialize(in, framed);
    packet_inputs.clear();
    for (int i = 0; ok && i < head.count; ++i) {
        EncodedInput e;
        ok = game.read_input(in, e);
        if (!ok) in.fail(Errc::malformed);
        packet_inputs.push_back(e);
    }
    InputPacketTail tail;
    ok = ok && serialize(in, tail);
    if (!wire::finish_read(in, ok).ok()) return count_malformed(slot, now);

    Seat& s = seat(slot);
    s.last_heard = now;
    s.proven = true;
    s.spoke = true;  // it holds the accept (and its secret): a lost link may hold its seat
    if (!s.has_ping || tail.ping_time != s.ping_time) {
        s.has_ping = true;
        s.ping_time = tail.ping_time;
        s.ping_at = now;
    }
    if (tail.has_ack) {
        game.on_snapshot_ack(slot, tail.ack_snapshot_tick);  // the delta baseline
        // What the short tick form of its next snapshots refers to (untrusted: forward only, never past what
        // was sent).
        const Tick ack = tail.ack_snapshot_tick;
        if (s.has_sent_snapshot && !(ack > s.last_snapshot_tick) &&
            (!s.has_snapshot_ack || ack > s.snapshot_ack)) {
            s.has_snapshot_ack = true;
            s.snapshot_ack = ack;
        }
    }
    s.interpolation_ms = tail.interpolation_delay_ms;
    const auto verdict = s.inputs.push(head.newest_tick, std::span<const EncodedInput>(packet_inputs), now);
    if (verdict == sync::PacketVerdict::rate_limited || verdict == sync::PacketVerdict::too_far_in_future)
        count_abusive_packet(slot, now);
    // How early the oldest input this packet brought first arrived feeds the client's adaptive buffer target
    // (so the ticks lost packets cost show too); a copy that brings nothing new says nothing about that.
    if (verdict == sync::PacketVerdict::accepted && s.inputs.last_push_brought_new())
        s.tuner.on_arrival(s.inputs.last_first_arrival_offset_ticks(), now);
    const auto& b = s.inputs.stats();
    s.stats.inputs_duplicate = b.redundant_inputs;
    stats.inputs_late += b.late_inputs - std::min(b.late_inputs, s.stats.inputs_late);
    s.stats.inputs_late = b.late_inputs;
    s.stats.inputs_overflow = b.overflow_dropped;
    s.stats.inputs_rate_limited = b.rate_limited;
    s.stats.inputs_future = b.future_rejected;
    if (s.inputs.flood_flagged()) s.stats.flagged = true;
}

}  // namespace rwd::client_server
