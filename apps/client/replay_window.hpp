// The replay player's window: any kind of recording behind one interface, drawn with a control bar (play,
// pause, single steps, speed, a seek slider, the checksum verdict) and a feed of the recorded messages.
#pragma once

#include "client/arena_view.hpp"
#include "client/options.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace apps {

/// A recording being played: positions 0..last(), `rate()` of them per second of the match.
class ReplaySource {
public:
    virtual ~ReplaySource() = default;
    [[nodiscard]] virtual long long position() const = 0;
    [[nodiscard]] virtual long long last() const = 0;
    [[nodiscard]] virtual int rate() const = 0;
    /// One position on; false at the end.
    virtual bool step() = 0;
    /// To `target` (clamped), from the nearest saved state.
    virtual void seek(long long target) = 0;
    /// The entities at the position; `own_slot`'s player marked (-1: none).
    virtual void scene(int own_slot, std::vector<DrawnEntity>& out) const = 0;
    /// One line naming the file's kind and match.
    [[nodiscard]] virtual std::string title() const = 0;
    /// Positions checked against the recording so far, and how many differed.
    [[nodiscard]] virtual std::uint64_t verified() const = 0;
    [[nodiscard]] virtual std::uint64_t mismatches() const = 0;
    /// Recent recorded events to list beside the arena (the kill feed), newest last.
    [[nodiscard]] virtual std::vector<std::string> feed() const { return {}; }
};

/// Plays `source` in a window until it is closed (or --screenshot after --frames frames). Exit code.
[[nodiscard]] int play_replay_window(ReplaySource& source, const ClientOptions& options);

}  // namespace apps
