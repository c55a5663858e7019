/// serialize() of the game-independent client-server messages, compiled once for the three wire streams.
#include <rewind/session/client_server/builtin_messages.hpp>
#include <rewind/session/client_server/messages.hpp>
#include <rewind/wire/serialize.hpp>

#include <algorithm>
#include <climits>

namespace rwd::client_server {

template <class Stream>
bool serialize_tick(Stream& s, Tick& t) {
    return wire::serialize_bits(s, t.value, 32);
}

namespace {

/// A fixed array of bytes, 8 bits each.
template <class Stream, std::size_t N>
bool serialize_byte_array(Stream& s, std::array<std::uint8_t, N>& a) {
    return std::all_of(a.begin(), a.end(), [&](std::uint8_t& b) {
        std::uint32_t v = b;
        if (!wire::serialize_bits(s, v, 8)) return false;
        b = static_cast<std::uint8_t>(v);
        return true;
    });
}

}  // namespace

template <class Stream>
bool serialize(Stream& s, ConnectRequest& m) {
    if (!wire::serialize_bits(s, m.protocol_id, 32) || !wire::serialize_int(s, m.version, 0u, 0xFFFFu) ||
        !wire::serialize_bits(s, m.game_id, 32) || !wire::serialize_bytes(s, m.token, auth::kMaxTokenBytes) ||
        !wire::serialize_bool(s, m.resume))
        return false;
    if (!m.resume) return true;
    return wire::serialize_int(s, m.resume_slot, std::uint8_t{0}, std::uint8_t{255}) &&
           serialize_byte_array(s, m.resume_secret) && wire::serialize_bool(s, m.resume_has_messages) &&
           (!m.resume_has_messages || wire::serialize_bits(s, m.resume_next_message, 32));
}

template <class Stream>
bool serialize(Stream& s, ConnectAccept& m) {
    if (!wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{255}) ||
        !serialize_tick(s, m.server_tick) ||
        !wire::serialize_int(s, m.tick_rate_hz, std::uint16_t{1}, std::uint16_t{1000}) ||
        !wire::serialize_int(s, m.snapshot_rate_hz, std::uint8_t{1}, std::uint8_t{255}) ||
        !wire::serialize_int(s, m.input_buffer_target, std::uint8_t{0}, std::uint8_t{16}) ||
        !wire::serialize_bool(s, m.sealed) || (m.sealed && !serialize_byte_array(s, m.salt)) ||
        !wire::serialize_int(s, m.seat_grace_s, std::uint16_t{0}, std::uint16_t{0xFFFF}) ||
        (m.seat_grace_s > 0 && !m.sealed && !serialize_byte_array(s, m.resume_secret)) ||
        !wire::serialize_bool(s, m.resumed))
        return false;
    return !m.resumed || (wire::serialize_bits(s, m.next_message, 32) && serialize_tick(s, m.message_tick) &&
                          wire::serialize_bits(s, m.client_messages_taken, 32));
}

template <class Stream>
bool serialize(Stream& s, InputPacketHead& m) {
    return wire::serialize_int(s, m.sequence, std::uint16_t{0}, std::uint16_t{0xFFFF}) &&
           serialize_tick(s, m.newest_tick) &&
           wire::serialize_int(s, m.count, std::uint8_t{0}, std::uint8_t{kInputsPerPacket});
}

template <class Stream>
bool serialize(Stream& s, InputPacketTail& m) {
    if (!wire::serialize_bool(s, m.has_ack)) return false;
    if (m.has_ack && !serialize_tick(s, m.ack_snapshot_tick)) return false;
    return wire::serialize_bits(s, m.ping_time, 32) &&
           wire::serialize_int(s, m.interpolation_delay_ms, std::uint16_t{0}, std::uint16_t{1000});
}

// The snapshot's tick: its low kShortTickBits when the reader holds a reference tick near it, else in full.
template <class Stream>
bool serialize_snapshot_tick(Stream& s, SnapshotHeader& m) {
    bool is_short = !Stream::is_reading && m.has_tick_reference && m.server_tick - m.tick_reference >= 0 &&
                    m.server_tick - m.tick_reference < kShortTickSpan / 2;
    if (!wire::serialize_bool(s, is_short)) return false;
    if (!is_short) return serialize_tick(s, m.server_tick);
    std::uint32_t low = m.server_tick.value & (kShortTickSpan - 1);
    if (!wire::serialize_bits(s, low, kShortTickBits)) return false;
    if constexpr (Stream::is_reading) {
        if (!m.has_tick_reference) return s.fail(Errc::malformed), false;  // nothing to expand it against
        // The tick with these low bits nearest the reference.
        const auto ref = m.tick_reference.value;
        const std::uint32_t up = (low - ref) & (kShortTickSpan - 1);
        m.server_tick =
            up < kShortTickSpan / 2 ? Tick{ref + up} : Tick{ref - ((ref - low) & (kShortTickSpan - 1))};
    }
    return true;
}

template <class Stream>
bool serialize(Stream& s, SnapshotHeader& m) {
    if (!wire::serialize_int(s, m.sequence, std::uint16_t{0}, std::uint16_t{0xFFFF}) ||
        !serialize_snapshot_tick(s, m) || !wire::serialize_bool(s, m.has_input))
        return false;
    if (m.has_input) {
        // The newest applied input's tick, relative to the snapshot's (usually the same tick).
        std::int32_t lag = Stream::is_reading ? 0 : m.last_input_tick - m.server_tick;
        if (!wire::serialize_relative(s, 0, lag) || !wire::serialize_bool(s, m.provisional)) return false;
        if constexpr (Stream::is_reading) m.last_input_tick = m.server_tick + lag;
    }
    if (!wire::serialize_int(s, m.arrival_offset_us, -kMaxArrivalOffsetUs, kMaxArrivalOffsetUs)) return false;
    // The queue depth relative to the target it is steered to.
    std::int32_t depth = m.input_buffer_depth;
    if (!wire::serialize_int(s, m.input_buffer_target, std::uint8_t{0}, std::uint8_t{16}) ||
        !wire::serialize_relative(s, m.input_buffer_target, depth))
        return false;
    if constexpr (Stream::is_reading) {
        if (depth < 0 || depth > 255) return s.fail(Errc::value_out_of_range), false;
        m.input_buffer_depth = static_cast<std::uint8_t>(depth);
    }
    // The ping echo: the low bits of the newest ping_time and how long the server held it.
    // (A ping whose low bits are all 0 is not echoed: 0 means none.)
    bool has_pong = (m.pong_time & ((1u << kPongTimeBits) - 1u)) != 0 && m.pong_hold_us <= kMaxPongHoldUs;
    if (!wire::serialize_bool(s, has_pong)) return false;
    if (!has_pong) {
        if constexpr (Stream::is_reading) m.pong_time = 0, m.pong_hold_us = 0;
        return true;
    }
    std::uint32_t low = m.pong_time & ((1u << kPongTimeBits) - 1u);
    if (!wire::serialize_bits(s, low, kPongTimeBits) ||
        !wire::serialize_bits(s, m.pong_hold_us, kPongHoldBits))
        return false;
    if constexpr (Stream::is_reading) {
        if (low == 0) return s.fail(Errc::malformed), false;  // 0 means "no ping yet": never echoed
        m.pong_time = low;
    }
    return true;
}

// A message's type and payload: the id in 8 bits, the payload's length in bits_required(kMaxMessageBytes)
// bits, then its bytes.
template <class Stream>
bool serialize_typed_payload(Stream& s, MessageId& type, std::vector<std::uint8_t>& payload) {
    return wire::serialize_int(s, type, MessageId{0}, MessageId{255}) &&
           wire::serialize_bytes(s, payload, kMaxMessageBytes);
}

template <class Stream>
bool serialize(Stream& s, ServerMessage& m) {
    // Sequence and tick against what the receiver already holds (usually 5 bits each).
    auto seq = static_cast<std::int32_t>(m.sequence - m.expected_sequence);
    auto dt = static_cast<std::int32_t>(m.tick.value - m.previous_tick.value);
    if (!wire::serialize_relative(s, 0, seq) || !wire::serialize_relative(s, 0, dt) ||
        !serialize_typed_payload(s, m.type, m.payload))
        return false;
    if constexpr (Stream::is_reading) {
        m.sequence = m.expected_sequence + static_cast<std::uint32_t>(seq);
        m.tick = Tick{m.previous_tick.value + static_cast<std::uint32_t>(dt)};
    }
    return true;
}

template <class Stream>
bool serialize(Stream& s, ClientMessage& m) {
    return serialize_typed_payload(s, m.type, m.payload);
}

template <class Stream>
bool serialize(Stream& s, UnreliableMessage& m) {
    return serialize_tick(s, m.tick) &&
           wire::serialize_int(s, m.sequence, std::uint16_t{0}, std::uint16_t{0xFFFF}) &&
           serialize_typed_payload(s, m.type, m.payload);
}

template <class Stream>
bool serialize(Stream& s, Spawn& m) {
    return wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_varint(s, m.entity);
}

template <class Stream>
bool serialize(Stream& s, Leave& m) {
    return wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_varint(s, m.entity);
}

template <class Stream>
bool serialize(Stream& s, Chat& m) {
    return wire::serialize_int(s, m.speaker, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_string(s, m.text, kMaxChatBytes);
}

template <class Stream>
bool serialize(Stream& s, Away& m) {
    return wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_varint(s, m.entity) &&
           wire::serialize_int(s, m.grace_s, std::uint16_t{0}, std::uint16_t{0xFFFF});
}

template <class Stream>
bool serialize(Stream& s, Back& m) {
    return wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_varint(s, m.entity) && wire::serialize_bool(s, m.resync);
}

template <class Stream>
bool serialize(Stream& s, Disconnect& m) {
    if (!wire::serialize_enum(s, m.code, DisconnectCode::unauthorized)) return false;
    if (m.code != DisconnectCode::unauthorized) return true;
    return wire::serialize_enum(s, m.token_error, auth::TokenError::wrong_sealing_key);
}

// The three streams every message goes through.
#define REWIND_CS_INSTANTIATE(Stream)                             \
    template bool serialize_tick<Stream>(Stream&, Tick&);         \
    template bool serialize<Stream>(Stream&, ConnectRequest&);    \
    template bool serialize<Stream>(Stream&, ConnectAccept&);     \
    template bool serialize<Stream>(Stream&, InputPacketHead&);   \
    template bool serialize<Stream>(Stream&, InputPacketTail&);   \
    template bool serialize<Stream>(Stream&, SnapshotHeader&);    \
    template bool serialize<Stream>(Stream&, ServerMessage&);     \
    template bool serialize<Stream>(Stream&, ClientMessage&);     \
    template bool serialize<Stream>(Stream&, UnreliableMessage&); \
    template bool serialize<Stream>(Stream&, Disconnect&);        \
    template bool serialize<Stream>(Stream&, Spawn&);             \
    template bool serialize<Stream>(Stream&, Leave&);             \
    template bool serialize<Stream>(Stream&, Chat&);              \
    template bool serialize<Stream>(Stream&, Away&);              \
    template bool serialize<Stream>(Stream&, Back&);
REWIND_CS_INSTANTIATE(wire::WriteStream)
REWIND_CS_INSTANTIATE(wire::ReadStream)
REWIND_CS_INSTANTIATE(wire::MeasureStream)
#undef REWIND_CS_INSTANTIATE

}  // namespace rwd::client_server
