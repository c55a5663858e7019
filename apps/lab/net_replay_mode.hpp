// rewind-lab --replay-net FILE: re-runs a recorded rewind-client or rewind-server session offline and says
// whether it did exactly what it did live.
#pragma once

#include <cstdio>
#include <string>

namespace lab {

/// Reads the network recording at `path` (rewind-client or rewind-server --record-net), re-runs the arena
/// client or server from it, and prints what it compared (and a client's corrections) to `out`. Exit code: 0
/// when every datagram sent and the outcome (a client's correction log, a server's final tick and world) are
/// the recording's, 1 when they differ or the file cannot be used.
int replay_net(const std::string& path, std::FILE* out);

}  // namespace lab
