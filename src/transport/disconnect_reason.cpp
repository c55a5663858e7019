// Readable names for transport disconnect reasons.
#include <rewind/transport/transport.hpp>

namespace rwd::transport {

std::string_view disconnect_reason_name(DisconnectReason r) {
    switch (r) {
        case DisconnectReason::none:
            return "none";
        case DisconnectReason::local:
            return "local";
        case DisconnectReason::remote:
            return "remote";
        case DisconnectReason::timed_out:
            return "timed_out";
        case DisconnectReason::refused:
            return "refused";
        case DisconnectReason::kicked:
            return "kicked";
    }
    return "unknown";
}

}  // namespace rwd::transport
