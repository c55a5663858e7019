/// The arena's message codecs (hit markers, kill feed, scores), compiled once for every stream type rewind
/// serializes with.
#include <cstdint>

#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream_list.hpp>

#include "arena/messages.hpp"

namespace arena {

// The three codecs are documented in arena/messages.hpp.

template <class Stream>
bool serialize(Stream& s, HitMessage& m) {
    using rwd::wire::serialize_int;
    return serialize_int(s, m.shooter, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}) &&
           serialize_int(s, m.target, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}) &&
           serialize_int(s, m.damage, std::uint8_t{0}, static_cast<std::uint8_t>(kMaxHp));
}

template <class Stream>
bool serialize(Stream& s, DeathMessage& m) {
    using rwd::wire::serialize_int;
    return serialize_int(s, m.victim, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}) &&
           serialize_int(s, m.killer, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}) &&
           rwd::wire::serialize_enum(s, m.weapon, Weapon::launcher);
}

template <class Stream>
bool serialize(Stream& s, ScoreMessage& m) {
    return rwd::wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}) &&
           rwd::wire::serialize_relative(s, 0, m.score);
}

#define ARENA_MESSAGE_CODEC(S)                     \
    template bool serialize<S>(S&, HitMessage&);   \
    template bool serialize<S>(S&, DeathMessage&); \
    template bool serialize<S>(S&, ScoreMessage&);
RWD_WIRE_FOR_EACH_STREAM(ARENA_MESSAGE_CODEC)
#undef ARENA_MESSAGE_CODEC

}  // namespace arena
