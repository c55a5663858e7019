// rewind-lab --replay-net FILE: re-runs a recorded rewind-client session offline and says whether it did
// exactly what it did live.
#pragma once

#include <cstdio>
#include <string>

namespace lab {

/// Reads the network recording at `path` (rewind-client --record-net), re-runs the arena client from it, and
/// prints what it compared and the re-run's corrections to `out`. Exit code: 0 when every datagram sent and
/// the whole correction log are the recording's, 1 when they differ or the file cannot be used.
int replay_net(const std::string& path, std::FILE* out);

}  // namespace lab
