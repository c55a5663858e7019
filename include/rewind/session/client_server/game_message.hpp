/// Game-defined messages: what a message type declares (its spec and its serialize), the list a game
/// declares them in, their ids on the wire, and a received message.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/wire/stream.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rwd::client_server {

/// A message type's number on the wire: the library's own types first, then the game's in the order of
/// its MessageList (so a client and a server built from the same game agree).
using MessageId = std::uint8_t;
/// The id of the game's first message type; the ids below it are the library's own (builtin_messages.hpp).
inline constexpr MessageId kFirstGameMessageId = 8;
/// Most message types a game may declare.
inline constexpr std::size_t kMaxGameMessageTypes = 256 - kFirstGameMessageId;
/// Largest payload of any message in bytes (a type's own MessageSpec::max_bytes is usually far smaller).
inline constexpr std::size_t kMaxMessageBytes = 1024;

/// Which way a message type may travel.
enum class MessageDirection : std::uint8_t {
    to_client,  ///< server to one client or to many (announcements, kill feed, inventory changes)
    to_server,  ///< client to server (votes, requests); validated like inputs
    both,       ///< either way
};

/// How a message type travels.
enum class MessageDelivery : std::uint8_t {
    reliable,  ///< reliable and ordered: arrives exactly once, in the order sent (with the library's events)
    unreliable,  ///< at most once, possibly out of order: for what is stale by the time a resend would land
};

/// What a message type is: its name, how it travels, and what a receiver accepts of it. A game declares one
/// per type as `static constexpr rwd::client_server::MessageSpec kMessage{...};`.
struct MessageSpec {
    const char* name = "message";  ///< for logs and counters
    MessageDirection direction = MessageDirection::to_client;
    MessageDelivery delivery = MessageDelivery::reliable;
    /// Largest encoded payload in bytes, 1..kMaxMessageBytes: the sender refuses to send more and the
    /// receiver refuses (and counts) more. Keep it tight: it is what a client may make the server read.
    std::uint16_t max_bytes = 64;
    /// Messages of this type the server takes from one client per second (a token bucket), and
    /// burst_messages in a burst; more are refused and counted. Ignored for server-to-client traffic.
    std::uint16_t per_second = 10;
    std::uint16_t burst_messages = 20;  ///< see per_second, >= 1
};

/// Whether `spec` is usable: a payload cap within 1..kMaxMessageBytes and a burst of at least one.
constexpr bool valid_spec(const MessageSpec& spec) {
    return spec.max_bytes >= 1 && spec.max_bytes <= kMaxMessageBytes && spec.burst_messages >= 1;
}

/// A message type: default-constructible, with a `static constexpr MessageSpec kMessage` and an
/// ADL-visible `template <class Stream> bool serialize(Stream&, M&)` like every other wire type (one
/// function for writing, reading and measuring; every value it reads must be checked: the bytes are
/// untrusted).
template <class M>
concept GameMessage = std::default_initializable<M> && std::copy_constructible<M> &&
    requires(M& m, wire::WriteStream& w, wire::ReadStream& r, wire::MeasureStream& ms) {
    { M::kMessage } -> std::convertible_to<MessageSpec>;
    { serialize(w, m) } -> std::convertible_to<bool>;
    { serialize(r, m) } -> std::convertible_to<bool>;
    { serialize(ms, m) } -> std::convertible_to<bool>;
};

/// The message types a game declares, as `using Messages = rwd::client_server::MessageList<A, B, C>;`:
/// A travels as id kFirstGameMessageId, B as the next, and so on.
template <GameMessage... Ms>
struct MessageList {
    /// Number of types in the list.
    static constexpr std::size_t size = sizeof...(Ms);
};

/// A message as received: its type, where and when it came from, and its payload (decode it with the
/// session's read()).
struct Message {
    MessageId type = 0;    ///< the message type's id
    bool reliable = true;  ///< it came over the reliable ordered channel
    int from = -1;         ///< on the server: the slot of the client that sent it; on a client: -1
    /// On a client: the server tick it was sent on. On the server: the tick being simulated when it arrived.
    Tick tick{};
    /// Reliable messages on a client: counts every reliable message of this connection from 0 (the library's
    /// spawn and leave included), so exactly-once order can be checked. 0 otherwise.
    std::uint32_t sequence = 0;
    std::vector<std::uint8_t> payload;  ///< the encoded message, at most its spec's max_bytes
    friend bool operator==(const Message&, const Message&) = default;
};

/// Why a message from a client was refused (ServerStats::messages_refused and ServerClientStats, indexed by
/// this).
enum class MessageRefusal : std::uint8_t {
    unknown_type,   ///< no such type, or a type that may not travel to the server
    wrong_channel,  ///< a reliable type sent unreliably, or the other way round
    oversized,      ///< payload over the type's max_bytes
    rate_limited,   ///< over the type's per_second/burst_messages for this client
    malformed,      ///< the payload does not decode as its type
    queue_full,     ///< the app has not polled the server's messages for too long (the oldest went)
};
/// Number of MessageRefusal values.
inline constexpr std::size_t kMessageRefusalCount = 6;
/// The readable name of a refusal.
const char* message_refusal_name(MessageRefusal r);

}  // namespace rwd::client_server
