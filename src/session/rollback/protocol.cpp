// The rollback message codec: one serialize() for write, read and measure; every decoded field is
// range-checked.
#include <rewind/session/rollback/protocol.hpp>

#include <rewind/wire/message.hpp>
#include <rewind/wire/serialize.hpp>

#include <algorithm>
#include <limits>

namespace rwd::rollback {
namespace {

using wire::serialize_bool;
using wire::serialize_int;
using wire::serialize_uint64;

constexpr Frame kMaxWireFrame =
    std::numeric_limits<Frame>::max() - static_cast<Frame>(kMaxInputsPerStream) - 1;

/// A frame in [0, kMaxWireFrame] as 32 bits.
template <class Stream>
bool serialize_frame(Stream& s, Frame& f) {
    return serialize_int(s, f, Frame{0}, kMaxWireFrame);
}
/// A frame in [-1, kMaxWireFrame] sent as frame + 1 in 32 bits (0 = none).
template <class Stream>
bool serialize_opt_frame(Stream& s, Frame& f) {
    std::int64_t v = Stream::is_reading ? 0 : std::int64_t{f} + 1;
    if (!serialize_int(s, v, std::int64_t{0}, std::int64_t{kMaxWireFrame} + 1)) return false;
    if constexpr (Stream::is_reading) f = static_cast<Frame>(v - 1);
    return true;
}
/// A signed 32-bit value as its two's complement bits (the full range, so no advantage can overflow it).
template <class Stream>
bool serialize_i32(Stream& s, std::int32_t& v) {
    std::uint32_t u = Stream::is_reading ? 0u : static_cast<std::uint32_t>(v);
    if (!s.serialize_bits(u, 32)) return false;
    if constexpr (Stream::is_reading) v = static_cast<std::int32_t>(u);
    return true;
}

/// One input after `prev`: `same` bit, else its size (7 bits) and per byte a nonzero-XOR flag plus the XOR
/// byte.
template <class Stream>
bool serialize_input(Stream& s, const InputBits& prev, InputBits& cur) {
    bool same = Stream::is_reading ? false : cur == prev;
    if (!serialize_bool(s, same)) return false;
    if (same) {
        if constexpr (Stream::is_reading) cur = prev;
        return true;
    }
    std::uint8_t size = cur.size;
    if (!serialize_int(s, size, std::uint8_t{0}, static_cast<std::uint8_t>(kMaxInputBytes))) return false;
    if constexpr (Stream::is_reading) {
        cur = InputBits{};
        cur.size = size;
    }
    for (std::size_t i = 0; i < size; ++i) {
        std::uint8_t x =
            Stream::is_reading ? std::uint8_t{0} : static_cast<std::uint8_t>(cur.bytes[i] ^ prev.bytes[i]);
        bool nonzero = x != 0;
        if (!serialize_bool(s, nonzero)) return false;
        if (nonzero) {
            std::uint32_t v = x;
            if (!s.serialize_bits(v, 8)) return false;
            if constexpr (Stream::is_reading) {
                if (v == 0) return s.fail(Errc::malformed), false;  // non-canonical: flagged but zero
                x = static_cast<std::uint8_t>(v);
            }
        }
        if constexpr (Stream::is_reading) cur.bytes[i] = static_cast<std::uint8_t>(x ^ prev.bytes[i]);
    }
    if constexpr (Stream::is_reading) {
        // Non-canonical: flagged as changed but identical (the encoder would have sent the `same` bit).
        if (cur == prev) return s.fail(Errc::malformed), false;
    }
    return true;
}

template <class Stream>
bool serialize_stream(Stream& s, InputStream& st) {
    if (!serialize_int(s, st.player, std::uint8_t{0}, static_cast<std::uint8_t>(kMaxSessionPlayers - 1)))
        return false;
    if (!serialize_frame(s, st.start)) return false;
    std::uint32_t count = static_cast<std::uint32_t>(st.inputs.size());
    if (!serialize_int(s, count, 0u, static_cast<std::uint32_t>(kMaxInputsPerStream))) return false;
    if constexpr (Stream::is_reading) {
        // `count` is attacker-controlled: every input takes at least one bit, so check before allocating.
        if (count > s.bits_remaining()) return s.fail(Errc::length_too_long), false;
        st.inputs.assign(count, InputBits{});
    }
    InputBits prev{};
    for (InputBits& in : st.inputs) {
        if (!serialize_input(s, prev, in)) return false;
        prev = in;
    }
    return true;
}

/// A slot's status: disconnected [last_frame], joined [gap_last, join_frame].
template <class Stream>
bool serialize_status(Stream& s, PlayerStatus& ps) {
    if (!serialize_bool(s, ps.disconnected)) return false;
    if (ps.disconnected) {
        if (!serialize_opt_frame(s, ps.last_frame)) return false;
    } else if constexpr (Stream::is_reading) {
        ps.last_frame = kNullFrame;
    } else if (ps.last_frame != kNullFrame) {
        return s.fail(Errc::value_out_of_range), false;  // only disconnected players carry a frame
    }
    bool joined = Stream::is_reading ? false : ps.join_frame != kNullFrame;
    if (!serialize_bool(s, joined)) return false;
    if (!joined) {
        if constexpr (Stream::is_reading) {
            ps.join_frame = kNullFrame;
            ps.gap_last = kNullFrame;
        } else if (ps.gap_last != kNullFrame) {
            return s.fail(Errc::value_out_of_range), false;  // only a joined slot has a gap
        }
        return true;
    }
    if (!serialize_opt_frame(s, ps.gap_last) || !serialize_frame(s, ps.join_frame)) return false;
    // The gap lies before the join, and a joined player leaves at the earliest just before it joined.
    if (ps.gap_last >= ps.join_frame || (ps.disconnected && ps.last_frame < ps.join_frame - 1))
        return s.fail(Errc::value_out_of_range), false;
    return true;
}

template <class Stream>
bool serialize_statuses(Stream& s, Message& m) {
    if (!serialize_int(s, m.num_status, std::uint8_t{0}, static_cast<std::uint8_t>(kMaxSessionPlayers)))
        return false;
    for (std::size_t i = 0; i < m.num_status; ++i) {
        if (!serialize_status(s, m.status[i])) return false;
    }
    return true;
}

/// A piece of a state: its frame, checksum, encoding, total size, and this chunk's offset and bytes.
template <class Stream>
bool serialize_state_piece(Stream& s, Message& m) {
    if (!serialize_frame(s, m.state_frame)) return false;
    if (!serialize_uint64(s, m.state_checksum)) return false;
    if (!serialize_bool(s, m.state_serialized)) return false;
    const auto max_total = static_cast<std::uint32_t>(kMaxStateBytes);
    if (!serialize_int(s, m.state_total, 0u, max_total)) return false;
    if (!serialize_int(s, m.state_offset, 0u, max_total)) return false;
    if (!wire::serialize_bytes(s, m.state_bytes, kMaxStateChunk)) return false;
    // The chunk must lie inside the declared total (checked in 64 bits: no overflow).
    if (std::uint64_t{m.state_offset} + m.state_bytes.size() > m.state_total) {
        return s.fail(Errc::value_out_of_range), false;
    }
    return true;
}

template <class Stream>
bool serialize_input_body(Stream& s, Message& m) {
    if (!serialize_opt_frame(s, m.ack)) return false;
    if (!serialize_frame(s, m.sender_frame)) return false;
    if (!serialize_i32(s, m.advantage)) return false;
    if (!serialize_statuses(s, m)) return false;
    if (!serialize_bool(s, m.has_checksum)) return false;
    if (m.has_checksum) {
        if (!serialize_frame(s, m.checksum.frame)) return false;
        if (!serialize_uint64(s, m.checksum.checksum)) return false;
        if (!s.serialize_bits(m.checksum.status_tag, 32)) return false;
    }
    std::uint32_t n = static_cast<std::uint32_t>(m.streams.size());
    if (!serialize_int(s, n, 0u, static_cast<std::uint32_t>(kMaxSessionPlayers))) return false;
    if constexpr (Stream::is_reading) m.streams.assign(n, InputStream{});
    std::uint32_t seen = 0;
    for (InputStream& st : m.streams) {
        if (!serialize_stream(s, st)) return false;
        const std::uint32_t bit = 1u << st.player;
        if ((seen & bit) != 0) return s.fail(Errc::malformed), false;  // one stream per player
        seen |= bit;
    }
    return true;
}

}  // namespace

/// The whole message, for wire::write_message / read_message / measure_bits (found by ADL on Message).
template <class Stream>
bool serialize(Stream& s, Message& m) {
    if (!wire::serialize_enum(s, m.type, kMaxMsgType)) return false;
    if constexpr (Stream::is_reading) {
        if (m.type == static_cast<MsgType>(0)) return s.fail(Errc::unknown_message), false;
    }
    if (!s.serialize_bits(m.sender_nonce, 32)) return false;
    switch (m.type) {
        case MsgType::sync_request: {
            if (!s.serialize_bits(m.request_nonce, 32)) return false;
            bool spectator = m.role == Role::spectator;
            if (!serialize_bool(s, spectator)) return false;
            if constexpr (Stream::is_reading) m.role = spectator ? Role::spectator : Role::player;
            if (!s.serialize_bits(m.session_tag, 32)) return false;
            if (!serialize_int(s, m.num_players, std::uint8_t{1},
                               static_cast<std::uint8_t>(kMaxSessionPlayers))) {
                return false;
            }
            std::uint32_t mask = m.players_mask;
            if (!s.serialize_bits(mask, 8)) return false;
            if constexpr (Stream::is_reading) m.players_mask = static_cast<std::uint8_t>(mask);
            return true;
        }
        case MsgType::sync_reply:
            return s.serialize_bits(m.request_nonce, 32);
        case MsgType::input:
            return serialize_input_body(s, m);
        case MsgType::quality_report:
        case MsgType::quality_reply:
            return s.serialize_bits(m.stamp, 32);
        case MsgType::keepalive:
            return true;
        case MsgType::goodbye:
            return wire::serialize_enum(s, m.reason, kMaxLeaveReason);
        case MsgType::state_request:
            return serialize_frame(s, m.state_frame);
        case MsgType::state_chunk:
            return serialize_state_piece(s, m);
        case MsgType::join_request:
            return true;
        case MsgType::join_state: {
            if (!serialize_int(s, m.join_slot, std::uint8_t{0},
                               static_cast<std::uint8_t>(kMaxSessionPlayers - 1)))
                return false;
            if (!serialize_frame(s, m.join_frame)) return false;
            if (!serialize_statuses(s, m)) return false;
            if (!serialize_state_piece(s, m)) return false;
            // The joiner starts simulating after the state's frame and plays from a later frame.
            if (m.join_frame <= m.state_frame) return s.fail(Errc::value_out_of_range), false;
            return true;
        }
    }
    return s.fail(Errc::unknown_message), false;
}

Result<std::size_t> encode_message(const Message& msg, std::span<std::uint8_t> out) {
    // serialize() takes a mutable reference for all three directions; writing never modifies it.
    return wire::write_message(out, const_cast<Message&>(msg));
}

Status decode_message(std::span<const std::uint8_t> data, Message& msg) {
    msg = Message{};
    return wire::read_message(data, msg);
}

std::size_t measure_message(const Message& msg) {
    return wire::measure_bits(const_cast<Message&>(msg));  // measuring never modifies it
}

std::size_t input_bits_cost(const InputBits& prev, const InputBits& cur) {
    if (cur == prev) return 1;
    std::size_t bits = 1 + 7;
    for (std::size_t i = 0; i < cur.size; ++i) bits += (cur.bytes[i] != prev.bytes[i]) ? 9 : 1;
    return bits;
}

}  // namespace rwd::rollback
