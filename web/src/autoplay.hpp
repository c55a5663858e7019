// Autoplay: the page's scripted input for tests (?autoplay=SECONDS&seed=N): an arena::Bot, seeded, playing
// from what the client shows (as a bot of rewind-client does), for that long after play starts.
#pragma once

#include "web_types.hpp"

#include <arena/bot.hpp>

#include <optional>

namespace web {

/// A bot that plays `seconds` of the match, counted from the first frame the client plays.
class Autoplay {
public:
    /// A script with the bot's `seed`, playing `seconds`.
    Autoplay(std::uint64_t seed, double seconds) : bot_(seed), length_(rwd::Micros::from_seconds(seconds)) {}
    /// The input for this frame: a new decision whenever the client's tick moved (one per tick, as natively).
    [[nodiscard]] arena::Input input(ArenaClient& client, rwd::Micros now);
    /// The time is up: the page leaves.
    [[nodiscard]] bool finished(rwd::Micros now) const { return started_ && now - start_ >= length_; }
    /// Seconds played so far.
    [[nodiscard]] double played_s(rwd::Micros now) const { return started_ ? (now - start_).seconds() : 0.0; }

private:
    arena::Bot bot_;
    rwd::Micros length_;
    rwd::Micros start_{};
    bool started_ = false;
    std::optional<rwd::Tick> last_tick_;
    arena::Input input_{};
};

}  // namespace web
