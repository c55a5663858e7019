// The client's replay player: a rollback or lockstep arena replay played in a window (pause, step, speed,
// seek) or checked headless.
#pragma once

#include "client/options.hpp"

namespace apps {

/// Opens --replay. Windowed: plays it at 60 frames a second times the chosen speed with pause, single
/// frames, seeking by slider or keys, and the checksum verdict on screen. Headless: plays it through,
/// verifies every checksum, seeks to seeded frames and compares each with the straight play, prints
/// `final {json}`. Exit 0 when the file replays exactly; 1 when it cannot be read or does not.
[[nodiscard]] int run_replay(const ClientOptions& options);

}  // namespace apps
