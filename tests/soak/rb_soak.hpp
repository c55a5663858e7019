/// The rollback soak: an arena match of rollback peers (bots) on the soak network for a simulated stretch.
#pragma once

#include "soak/heap_meter.hpp"
#include "soak/soak_options.hpp"

#include <cstdint>
#include <string>

namespace soak {

/// What a rollback soak measured.
struct RbSoakReport {
    int peers = 0;                      ///< peers in the mesh
    bool running = false;               ///< every peer finished the handshake
    double simulated_seconds = 0.0;     ///< simulated time after the match started running
    double real_seconds = 0.0;          ///< wall-clock time the run took
    std::int64_t frames = 0;            ///< frames every peer confirmed (the slowest one's count)
    std::uint64_t frames_compared = 0;  ///< confirmed frames whose checksums were compared across all peers
    std::uint64_t checksum_mismatches = 0;  ///< confirmed frames where some peer's checksum differed
    std::uint64_t frames_missed = 0;  ///< confirmed frames a peer could no longer report (out of its ring)
    std::uint64_t desync_events = 0;  ///< desync_detected events the sessions raised
    std::uint64_t disconnect_events = 0;  ///< disconnected events (must stay 0: nobody leaves)
    std::uint64_t rollbacks = 0;          ///< rollbacks, all peers
    std::uint64_t malformed = 0;          ///< malformed packets, all peers
    HeapMeter heap;                       ///< live heap, one sample per sample interval
    std::string summary;                  ///< one line of figures for the log
};

/// Runs the rollback soak of `o` (rb_peers bots, rb_minutes simulated).
RbSoakReport run_rb_soak(const SoakOptions& o);

}  // namespace soak
