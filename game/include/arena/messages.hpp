/// The arena's own messages, sent by the server through rewind's message mechanism: hit markers, the kill
/// feed and score announcements (chat is the library's).
#pragma once

#include <cstdint>

#include <rewind/session/client_server/game_message.hpp>
#include <rewind/wire/serialize.hpp>

#include "arena/constants.hpp"

namespace arena {

namespace msg {
using rwd::client_server::MessageDelivery;
using rwd::client_server::MessageDirection;
using rwd::client_server::MessageSpec;
}  // namespace msg

/// The weapon of a killing blow.
enum class Weapon : std::uint8_t { rifle = 0, launcher = 1 };

/// A damaging hit, for the hit marker: sent to the two players and to everyone who can see one of them.
struct HitMessage {
    static constexpr msg::MessageSpec kMessage{"hit", msg::MessageDirection::to_client,
                                               msg::MessageDelivery::reliable, 4};
    std::uint8_t shooter = 0;  ///< slot that dealt it
    std::uint8_t target = 0;   ///< slot that took it
    std::uint8_t damage = 0;   ///< hit points removed, 0..kMaxHp
    friend bool operator==(const HitMessage&, const HitMessage&) = default;
};

/// A death, for the kill feed: sent to everyone.
struct DeathMessage {
    static constexpr msg::MessageSpec kMessage{"death", msg::MessageDirection::to_client,
                                               msg::MessageDelivery::reliable, 4};
    std::uint8_t victim = 0;        ///< slot that died
    std::uint8_t killer = 0;        ///< slot that dealt the killing blow (the victim itself if none)
    Weapon weapon = Weapon::rifle;  ///< what dealt it
    friend bool operator==(const DeathMessage&, const DeathMessage&) = default;
};

/// A player's score changed, for the scoreboard and the announcement: sent to everyone.
struct ScoreMessage {
    static constexpr msg::MessageSpec kMessage{"score", msg::MessageDirection::to_client,
                                               msg::MessageDelivery::reliable, 8};
    std::uint8_t slot = 0;   ///< the player
    std::int32_t score = 0;  ///< its new score (kills)
    friend bool operator==(const ScoreMessage&, const ScoreMessage&) = default;
};

// The three message codecs are defined and instantiated for every library stream (RWD_WIRE_FOR_EACH_STREAM)
// in message_codec.cpp.

/// HitMessage fields: two slots, damage 0..kMaxHp (a reader refuses anything else).
template <class Stream>
bool serialize(Stream& s, HitMessage& m);

/// DeathMessage fields: two slots and the weapon.
template <class Stream>
bool serialize(Stream& s, DeathMessage& m);

/// ScoreMessage fields: the slot and the score near 0.
template <class Stream>
bool serialize(Stream& s, ScoreMessage& m);

}  // namespace arena
