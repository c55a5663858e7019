/// FramePacer: how many rollback frames are due now, at the nominal rate times the session's recommended
/// speed, with a stall's backlog capped.
#pragma once

#include <rewind/core/time.hpp>

namespace rwd::rollback {

/// Turns wall-clock time into frames: due(now, speed) after each frame of the app, ran() per frame run.
class FramePacer {
public:
    /// Frames of `frame` each (60 Hz by default); at most `max_backlog` frames are ever owed (1..60), so
    /// a long stall does not make the game race afterwards.
    explicit FramePacer(Micros frame = Micros{16'667}, int max_backlog = 4);
    /// Moves to `now`, the time since the last call counted at `speed` (P2PSession::time_scale(), ~1):
    /// the frames due now (speed held to 0.5..2; a non-finite one counts as 1). The first call only starts
    /// the clock (0 due).
    int due(Micros now, double speed);
    /// One due frame was simulated.
    void ran();
    /// The nominal frame length.
    [[nodiscard]] Micros frame() const { return frame_; }

private:
    Micros frame_;
    Micros cap_;
    Micros carry_{};
    Micros last_{};
    bool started_ = false;
};

}  // namespace rwd::rollback
