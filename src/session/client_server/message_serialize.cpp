/// serialize() of the game-independent client-server messages, compiled once for the three wire streams.
#include <rewind/session/client_server/messages.hpp>
#include <rewind/wire/serialize.hpp>

#include <climits>

namespace rwd::client_server {

template <class Stream>
bool serialize_tick(Stream& s, Tick& t) {
    return wire::serialize_bits(s, t.value, 32);
}

template <class Stream>
bool serialize(Stream& s, ConnectRequest& m) {
    return wire::serialize_bits(s, m.protocol_id, 32) && wire::serialize_int(s, m.version, 0u, 0xFFFFu) &&
           wire::serialize_bits(s, m.game_id, 32) && wire::serialize_bytes(s, m.token, auth::kMaxTokenBytes);
}

template <class Stream>
bool serialize(Stream& s, ConnectAccept& m) {
    return wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{255}) &&
           serialize_tick(s, m.server_tick) &&
           wire::serialize_int(s, m.tick_rate_hz, std::uint16_t{1}, std::uint16_t{1000}) &&
           wire::serialize_int(s, m.snapshot_rate_hz, std::uint8_t{1}, std::uint8_t{255}) &&
           wire::serialize_int(s, m.input_buffer_target, std::uint8_t{0}, std::uint8_t{16});
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

template <class Stream>
bool serialize(Stream& s, SnapshotHeader& m) {
    if (!wire::serialize_int(s, m.sequence, std::uint16_t{0}, std::uint16_t{0xFFFF}) ||
        !serialize_tick(s, m.server_tick) || !wire::serialize_bool(s, m.has_input))
        return false;
    if (m.has_input && !serialize_tick(s, m.last_input_tick)) return false;
    return wire::serialize_int(s, m.arrival_offset_us, -kMaxArrivalOffsetUs, kMaxArrivalOffsetUs) &&
           wire::serialize_int(s, m.input_buffer_depth, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_bits(s, m.pong_time, 32) && wire::serialize_bits(s, m.pong_hold_us, 32) &&
           wire::serialize_int(s, m.input_buffer_target, std::uint8_t{0}, std::uint8_t{16});
}

template <class Stream>
bool serialize(Stream& s, Event& m) {
    return wire::serialize_bits(s, m.sequence, 32) && wire::serialize_enum(s, m.kind, EventKind::leave) &&
           serialize_tick(s, m.tick) &&
           wire::serialize_int(s, m.subject, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_int(s, m.other, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_int(s, m.value, INT32_MIN, INT32_MAX) &&
           wire::serialize_string(s, m.text, kMaxChatBytes);
}

template <class Stream>
bool serialize(Stream& s, Disconnect& m) {
    if (!wire::serialize_enum(s, m.code, DisconnectCode::unauthorized)) return false;
    if (m.code != DisconnectCode::unauthorized) return true;
    return wire::serialize_enum(s, m.token_error, auth::TokenError::client_in_use);
}

template <class Stream>
bool serialize(Stream& s, ChatRequest& m) {
    return wire::serialize_string(s, m.text, kMaxChatBytes);
}

// The three streams every message goes through.
#define REWIND_CS_INSTANTIATE(Stream)                           \
    template bool serialize_tick<Stream>(Stream&, Tick&);       \
    template bool serialize<Stream>(Stream&, ConnectRequest&);  \
    template bool serialize<Stream>(Stream&, ConnectAccept&);   \
    template bool serialize<Stream>(Stream&, InputPacketHead&); \
    template bool serialize<Stream>(Stream&, InputPacketTail&); \
    template bool serialize<Stream>(Stream&, SnapshotHeader&);  \
    template bool serialize<Stream>(Stream&, Event&);           \
    template bool serialize<Stream>(Stream&, Disconnect&);      \
    template bool serialize<Stream>(Stream&, ChatRequest&);
REWIND_CS_INSTANTIATE(wire::WriteStream)
REWIND_CS_INSTANTIATE(wire::ReadStream)
REWIND_CS_INSTANTIATE(wire::MeasureStream)
#undef REWIND_CS_INSTANTIATE

}  // namespace rwd::client_server
