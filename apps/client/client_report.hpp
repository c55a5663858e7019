// The client's end-of-run figures as one JSON line (for load tests) and its periodic status line.
#pragma once

#include "client/net_player.hpp"

#include <string>

namespace apps {

/// One JSON object with the session's figures: slot, phase, snapshots, corrections, errors, RTT, loss, rates.
[[nodiscard]] std::string client_report_json(const NetPlayer& player, double played_s);
/// A short key=value status: phase, slot, tick, RTT, loss, corrections, snapshots, kbps.
[[nodiscard]] std::string client_status_kv(const NetPlayer& player);
/// The readable name of a client phase.
[[nodiscard]] const char* phase_name(rwd::client_server::ClientPhase p);

}  // namespace apps
