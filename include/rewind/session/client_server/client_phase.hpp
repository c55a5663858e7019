/// ClientPhase: what a client-server client is doing (idle, connecting, syncing, playing, reconnecting,
/// disconnected).
#pragma once

#include <cstdint>

namespace rwd::client_server {

/// What the client is doing.
enum class ClientPhase : std::uint8_t {
    idle,          ///< not connected
    connecting,    ///< transport connecting or hello sent, waiting for the accept
    syncing,       ///< accepted; waiting for a snapshot and a clock estimate before ticking
    playing,       ///< ticking, predicting and sending inputs
    reconnecting,  ///< the link was lost: trying to get the seat back (ClientConfig::reconnect_for)
    disconnected,  ///< the session ended (see ClientStats::disconnect_code)
};

}  // namespace rwd::client_server
