// The WebSocket transport's message rules, free of any socket: the class byte, the accept, close codes,
// sizes.
#pragma once

#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace rwd::transport::ws {

/// The path a client asks for and the subprotocol both sides name.
inline constexpr std::string_view kPath = "/rewind";
inline constexpr std::string_view kSubprotocol = "rewind.1";

/// The first byte of every message.
inline constexpr std::uint8_t kClassUnreliable = 0x00;
inline constexpr std::uint8_t kClassReliable = 0x01;
inline constexpr std::uint8_t kClassControl = 0x02;
/// The one control message: the server's accept.
inline constexpr std::uint8_t kControlAccept = 0x01;

/// Close codes: 4000 + DisconnectReason for rewind's own closes; the RFC's for refused messages.
inline constexpr std::uint16_t kCloseBase = 4000;
inline constexpr std::uint16_t kCloseRefused = 4004;
inline constexpr std::uint16_t kCloseUnsupportedData = 1003;
inline constexpr std::uint16_t kClosePolicy = 1008;
inline constexpr std::uint16_t kCloseTooBig = 1009;

/// Why an incoming message was refused (none: it is fine).
enum class Refusal : std::uint8_t { none, text, empty, unknown_class, too_big, misplaced_control };
/// The close code a refusal ends the connection with.
[[nodiscard]] std::uint16_t close_code_of(Refusal r);
/// The readable name of a refusal, for the log.
[[nodiscard]] std::string_view refusal_name(Refusal r);

/// The size limits an incoming message is held to.
struct Limits {
    std::size_t unreliable = 0;  ///< largest unreliable payload
    std::size_t reliable = 0;    ///< largest reliable payload
};

/// What one incoming binary message is.
struct Incoming {
    Refusal refusal = Refusal::none;           ///< set: close the connection
    bool accept = false;                       ///< the server's accept (only a client awaiting it takes one)
    Delivery delivery = Delivery::unreliable;  ///< for a message: its class
    std::span<const std::uint8_t> payload;     ///< for a message: the rewind message (a view into the input)
};

/// Classifies one incoming message. `awaiting_accept`: this side is a client that has not been accepted yet
/// (the one state in which a control message, and only `02 01`, is allowed; no other message is).
[[nodiscard]] Incoming classify(std::span<const std::uint8_t> message, bool text, const Limits& limits,
                                bool awaiting_accept);
/// The bytes of one outgoing message: the class byte, then `payload`.
[[nodiscard]] std::vector<std::uint8_t> frame(Delivery delivery, std::span<const std::uint8_t> payload);
/// The accept message.
[[nodiscard]] std::vector<std::uint8_t> accept_message();

/// The close code a local disconnect sends.
[[nodiscard]] std::uint16_t close_code(DisconnectReason reason);
/// What the side that receives close `code` reports; `accepted` says whether it had been accepted yet.
[[nodiscard]] DisconnectReason reason_of_close(std::uint16_t code, bool accepted);

/// Bytes of the WebSocket frame header around a message of `size` bytes (class byte included): 2, 4 or 10,
/// plus 4 for a masked (client-to-server) frame.
[[nodiscard]] std::size_t frame_overhead(std::size_t size, bool masked);

/// Whether a Sec-WebSocket-Protocol header value (comma-separated tokens) names kSubprotocol.
[[nodiscard]] bool offers_subprotocol(std::string_view header);

}  // namespace rwd::transport::ws
