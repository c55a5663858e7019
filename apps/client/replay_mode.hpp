// The client's replay player: an arena replay (rollback, lockstep) or world recording (client-server) played
// in a window (pause, step, speed, seek) or checked headless.
#pragma once

#include "client/options.hpp"

namespace apps {

/// Opens --replay. Windowed: plays it at the match's rate times the chosen speed with pause, single steps,
/// seeking by slider or keys, the checksum verdict and (client-server) the kill feed on screen. Headless:
/// plays it through, verifies every checksum, seeks to seeded positions and compares each with the straight
/// play, prints `final {json}`. Exit 0 when the file replays exactly; 1 when it cannot be read or does not.
[[nodiscard]] int run_replay(const ClientOptions& options);

}  // namespace apps
