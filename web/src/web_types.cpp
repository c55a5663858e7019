// phase_name(): the client phases by name, for the overlay, the status line and window.rewindStats.
#include "web_types.hpp"

namespace web {

std::string_view phase_name(rwd::client_server::ClientPhase p) {
    using rwd::client_server::ClientPhase;
    switch (p) {
        case ClientPhase::idle:
            return "idle";
        case ClientPhase::connecting:
            return "connecting";
        case ClientPhase::syncing:
            return "syncing";
        case ClientPhase::playing:
            return "playing";
        case ClientPhase::reconnecting:
            return "reconnecting";
        case ClientPhase::disconnected:
            return "disconnected";
    }
    return "unknown";
}

}  // namespace web
