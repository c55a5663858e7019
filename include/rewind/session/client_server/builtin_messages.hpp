/// The library's own message types, sent through the same mechanism as a game's: a player's entity entering
/// (spawn) and leaving (leave) the match, a player whose link is lost (away) and who came back (back), and
/// chat lines.
#pragma once

#include <rewind/session/client_server/game_message.hpp>

#include <cstdint>
#include <string>

namespace rwd::client_server {

/// Longest chat text in bytes.
inline constexpr std::uint32_t kMaxChatBytes = 120;

/// A player joined (or was already here when this client joined): sent by the server, reliable.
struct Spawn {
    static constexpr MessageSpec kMessage{"spawn", MessageDirection::to_client, MessageDelivery::reliable, 8};
    std::uint8_t slot = 0;     ///< the player's slot
    std::uint32_t entity = 0;  ///< the player's entity id (G::player_entity)
    friend bool operator==(const Spawn&, const Spawn&) = default;
};

/// A player left the match: sent by the server, reliable.
struct Leave {
    static constexpr MessageSpec kMessage{"leave", MessageDirection::to_client, MessageDelivery::reliable, 8};
    std::uint8_t slot = 0;     ///< the player's slot
    std::uint32_t entity = 0;  ///< the player's entity id
    friend bool operator==(const Leave&, const Leave&) = default;
};

/// A player's link is lost and the server holds its seat (ServerConfig::seat_grace): its entity stays in the
/// world, driven by neutral input (or as the game's player_away hook decides), until it comes back (Back) or
/// the grace ends (Leave). Sent by the server to everyone else, reliable.
struct Away {
    static constexpr MessageSpec kMessage{"away", MessageDirection::to_client, MessageDelivery::reliable, 10};
    std::uint8_t slot = 0;      ///< the player's slot
    std::uint32_t entity = 0;   ///< the player's entity id
    std::uint16_t grace_s = 0;  ///< how long the seat is held, in seconds
    friend bool operator==(const Away&, const Away&) = default;
};

/// A player came back to its seat. Sent by the server to everyone, the returning client included: to it,
/// `resync` says that reliable messages sent while it was away could not all be resent (the server's log had
/// dropped them, or the client remembered none, e.g. after a restart), so what it knows from earlier
/// messages may be out of date.
struct Back {
    static constexpr MessageSpec kMessage{"back", MessageDirection::to_client, MessageDelivery::reliable, 8};
    std::uint8_t slot = 0;     ///< the player's slot
    std::uint32_t entity = 0;  ///< the player's entity id
    bool resync = false;       ///< (to the returning client only) messages were lost
    friend bool operator==(const Back&, const Back&) = default;
};

/// A chat line. A client sends it (Client::send_chat; `speaker` is ignored) and the server relays it to
/// every seated client with `speaker` set to the sender's slot. At most 5 a second, 60 in a burst, per
/// client.
struct Chat {
    static constexpr MessageSpec kMessage{
        "chat", MessageDirection::both, MessageDelivery::reliable, kMaxChatBytes + 3, 5, 60};
    std::uint8_t speaker = 0;  ///< the slot of the client that said it
    std::string text;          ///< at most kMaxChatBytes
    friend bool operator==(const Chat&, const Chat&) = default;
};

/// The library's message ids.
inline constexpr MessageId kSpawnMessageId = 0;
/// The library's message ids.
inline constexpr MessageId kLeaveMessageId = 1;
/// The library's message ids.
inline constexpr MessageId kChatMessageId = 2;
/// The library's message ids.
inline constexpr MessageId kAwayMessageId = 3;
/// The library's message ids.
inline constexpr MessageId kBackMessageId = 4;
/// Number of the library's own message types (ids 0..kBuiltinMessageTypes-1).
inline constexpr std::size_t kBuiltinMessageTypes = 5;

/// Spawn fields (compiled in the library for the three wire streams).
template <class Stream>
bool serialize(Stream& s, Spawn& m);
/// Leave fields.
template <class Stream>
bool serialize(Stream& s, Leave& m);
/// Chat fields.
template <class Stream>
bool serialize(Stream& s, Chat& m);
/// Away fields.
template <class Stream>
bool serialize(Stream& s, Away& m);
/// Back fields.
template <class Stream>
bool serialize(Stream& s, Back& m);

}  // namespace rwd::client_server
