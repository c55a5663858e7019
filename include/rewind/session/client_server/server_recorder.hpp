/// ServerRecorder: what a Server tells a recording of its match, tick by tick and message by message.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/session/client_server/message_outbox.hpp>

namespace rwd::client_server {

/// Set with Server<G>::set_recorder; WorldRecorder<G> (world_recorder.hpp) writes a world recording from it.
template <class G>
class ServerRecorder {
public:
    virtual ~ServerRecorder() = default;
    /// The world after `tick`; called again with `replayed` for each tick a late-input replay re-simulated
    /// (oldest first, after the replay is committed), so the newest call for a tick is its final world.
    virtual void on_tick(Tick tick, const typename G::State& after, bool replayed) = 0;
    /// A message sent to the clients on `tick` (the game's, the app's, and those a replay added).
    virtual void on_message(Tick tick, const OutMessage& message) = 0;
};

}  // namespace rwd::client_server
