/// The optional game hook through which the server learns of discrete events (deaths, hits, scores) to send
/// reliably.
#pragma once

#include <rewind/session/client_server/messages.hpp>

#include <cstdint>
#include <vector>

namespace rwd::client_server {

/// Who receives a GameEvent.
enum class EventScope : std::uint8_t {
    everyone,  ///< every seated client (deaths, scores: the kill feed and the scoreboard)
    nearby,    ///< the subject, the other, and every client whose newest snapshot carried either one's
               ///< player entity (hits: effects nobody else can see); interest management for events
};

/// One discrete thing the game reports after a tick; the server stamps it and sends it to the clients its
/// scope selects.
struct GameEvent {
    EventKind kind =
        EventKind::hit;        ///< death, hit or score (spawn, leave and chat come from the server itself)
    std::uint8_t subject = 0;  ///< the slot it is about (victim, shooter, scorer)
    std::uint8_t other = 0;    ///< the other slot (killer, target)
    std::int32_t value = 0;    ///< damage, score
    EventScope scope = EventScope::everyone;  ///< who receives it
};

/// A game that reports events: `G::collect_events(before, after, out)` appends what happened between the
/// state before a tick and after it. Optional: a game without it still gets spawn, leave and chat events.
template <class G>
concept EmitsEvents = requires(const typename G::State& s, std::vector<GameEvent>& out) {
    G::collect_events(s, s, out);
};

}  // namespace rwd::client_server
