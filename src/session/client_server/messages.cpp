/// Names of the client-server message types, disconnect codes and message refusals, and the message type
/// peek.
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/messages.hpp>

namespace rwd::client_server {

std::string_view message_type_name(MessageType t) {
    switch (t) {
        case MessageType::unreliable_message:
            return "unreliable_message";
        case MessageType::connect_request:
            return "connect_request";
        case MessageType::connect_accept:
            return "connect_accept";
        case MessageType::input:
            return "input";
        case MessageType::snapshot:
            return "snapshot";
        case MessageType::server_message:
            return "server_message";
        case MessageType::disconnect:
            return "disconnect";
        case MessageType::client_message:
            return "client_message";
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

const char* message_refusal_name(MessageRefusal r) {
    switch (r) {
        case MessageRefusal::unknown_type:
            return "unknown_type";
        case MessageRefusal::wrong_channel:
            return "wrong_channel";
        case MessageRefusal::oversized:
            return "oversized";
        case MessageRefusal::rate_limited:
            return "rate_limited";
        case MessageRefusal::malformed:
            return "malformed";
        case MessageRefusal::queue_full:
            return "queue_full";
    }
    return "unknown";
}

Result<MessageType> peek_message_type(std::span<const std::uint8_t> data) {
    wire::ReadStream s(data);
    std::uint32_t raw = 0;
    if (!s.serialize_bits(raw, kMessageTypeBits)) return Error{Errc::end_of_data, "empty message"};
    if (raw > static_cast<std::uint32_t>(MessageType::client_message))
        return Error{Errc::unknown_message, "unknown message type"};
    return static_cast<MessageType>(raw);
}

}  // namespace rwd::client_server
