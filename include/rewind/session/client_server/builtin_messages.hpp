/// The library's own message types, sent through the same mechanism as a game's: a player's entity entering
/// (spawn) and leaving (leave) the match, and chat lines.
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
/// Number of the library's own message types (ids 0..kBuiltinMessageTypes-1).
inline constexpr std::size_t kBuiltinMessageTypes = 3;

/// Spawn fields (compiled in the library for the three wire streams).
template <class Stream>
bool serialize(Stream& s, Spawn& m);
/// Leave fields.
template <class Stream>
bool serialize(Stream& s, Leave& m);
/// Chat fields.
template <class Stream>
bool serialize(Stream& s, Chat& m);

}  // namespace rwd::client_server
