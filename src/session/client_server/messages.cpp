/// Names of the client-server message types, disconnect codes and event kinds, and the message type peek.
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/messages.hpp>

namespace rwd::client_server {

std::string_view message_type_name(MessageType t) {
    switch (t) {
        case MessageType::connect_request:
            return "connect_request";
        case MessageType::connect_accept:
            return "connect_accept";
        case MessageType::input:
            return "input";
        case MessageType::snapshot:
            return "snapshot";
        case MessageType::event:
            return "event";
        case MessageType::disconnect:
            return "disconnect";
        case MessageType::chat:
            return "chat";
    }
    return "unknown";
}

std::string_view disconnect_code_name(DisconnectCode c) {
    switch (c) {
        case DisconnectCode::none:
            return "none";
        case DisconnectCode::client_quit:
            return "client_quit";
        case DisconnectCode::server_shutdown:
            return "server_shutdown";
        case DisconnectCode::timed_out:
            return "timed_out";
        case DisconnectCode::server_full:
            return "server_full";
        case DisconnectCode::bad_protocol:
            return "bad_protocol";
        case DisconnectCode::garbage:
            return "garbage";
        case DisconnectCode::cheating:
            return "cheating";
        case DisconnectCode::transport:
            return "transport";
        case DisconnectCode::unauthorized:
            return "unauthorized";
    }
    return "unknown";
}

std::string_view event_kind_name(EventKind k) {
    switch (k) {
        case EventKind::spawn:
            return "spawn";
        case EventKind::death:
            return "death";
        case EventKind::hit:
            return "hit";
        case EventKind::score:
            return "score";
        case EventKind::chat:
            return "chat";
        case EventKind::leave:
            return "leave";
    }
    return "unknown";
}

Result<MessageType> peek_message_type(std::span<const std::uint8_t> data) {
    wire::ReadStream s(data);
    std::uint32_t raw = 0;
    if (!s.serialize_bits(raw, kMessageTypeBits)) return Error{Errc::end_of_data, "empty message"};
    if (raw < static_cast<std::uint32_t>(MessageType::connect_request) ||
        raw > static_cast<std::uint32_t>(MessageType::chat))
        return Error{Errc::unknown_message, "unknown message type"};
    return static_cast<MessageType>(raw);
}

}  // namespace rwd::client_server
