/// Framing of client-server messages: a 3-bit type then the message; encode to bytes, peek the type, decode.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/client_server/messages.hpp>
#include <rewind/wire/message.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rwd::client_server {

template <class Input>
struct InputPacket;
template <class EntityRecord>
struct SnapshotPacket;

/// The MessageType each message struct travels as.
constexpr MessageType message_type_of(const ConnectRequest&) { return MessageType::connect_request; }
/// The MessageType each message struct travels as.
constexpr MessageType message_type_of(const ConnectAccept&) { return MessageType::connect_accept; }
/// The MessageType each message struct travels as.
template <class Input>
constexpr MessageType message_type_of(const InputPacket<Input>&) {
    return MessageType::input;
}
/// The MessageType each message struct travels as.
template <class Rec>
constexpr MessageType message_type_of(const SnapshotPacket<Rec>&) {
    return MessageType::snapshot;
}
/// The MessageType each message struct travels as.
constexpr MessageType message_type_of(const ServerMessage&) { return MessageType::server_message; }
/// The MessageType each message struct travels as.
constexpr MessageType message_type_of(const ClientMessage&) { return MessageType::client_message; }
/// The MessageType each message struct travels as.
constexpr MessageType message_type_of(const UnreliableMessage&) { return MessageType::unreliable_message; }
/// The MessageType each message struct travels as.
constexpr MessageType message_type_of(const Disconnect&) { return MessageType::disconnect; }
/// The MessageType each message struct travels as (the fixed front of an input packet).
constexpr MessageType message_type_of(const InputPacketHead&) { return MessageType::input; }
/// The MessageType each message struct travels as (the fixed front of a snapshot).
constexpr MessageType message_type_of(const SnapshotHeader&) { return MessageType::snapshot; }

/// A message with its type in front: what actually goes into a datagram.
template <class Msg>
struct Framed {
    Msg* msg = nullptr;  ///< the message (never null)
};

/// Framed fields: the type (a reader refuses a type other than the one it expects), then the message.
template <class Stream, class Msg>
bool serialize(Stream& s, Framed<Msg>& f) {
    MessageType type = message_type_of(*f.msg);
    if (!wire::serialize_enum(s, type, MessageType::client_message)) return false;
    if (type != message_type_of(*f.msg)) return s.fail(Errc::unknown_message), false;
    return serialize(s, *f.msg);
}

/// Encodes `msg` (type included) into `out`, resized to exactly the bytes used.
template <class Msg>
[[nodiscard]] Status encode_message(Msg& msg, std::vector<std::uint8_t>& out) {
    Framed<Msg> f{&msg};
    out.resize((wire::measure_bits(f) + 7) / 8);
    auto r = wire::write_message(std::span<std::uint8_t>(out), f);
    if (!r.ok()) return r.error();
    out.resize(r.value());
    return {};
}

/// The type of an encoded message, or unknown_message / end_of_data when the bytes cannot be one.
[[nodiscard]] Result<MessageType> peek_message_type(std::span<const std::uint8_t> data);

/// Decodes a whole datagram into `msg`: the type must match, every field must parse and nothing but zero
/// padding may follow. On failure `msg` may hold partial data; the caller drops it.
template <class Msg>
[[nodiscard]] Status decode_message(std::span<const std::uint8_t> data, Msg& msg) {
    Framed<Msg> f{&msg};
    return wire::read_message(data, f);
}

}  // namespace rwd::client_server
