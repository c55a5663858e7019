// End-to-end latency of a lab pass: from a client's tick (its input sampled) to the server tick that applied
// it, and how old the remote state is that a client draws; also which ticks the server had to repeat inputs.
#pragma once

#include "cs_figures.hpp"

#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/sync/frac_tick.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace lab {

/// Timestamps of client and server ticks, matched per seat.
class LatencyTracker {
public:
    /// `seats` bot clients at `tick_us` microseconds per tick.
    LatencyTracker(std::size_t seats, double tick_us) : seats_(seats), tick_us_(tick_us) {}

    /// The client of `seat` ran ticks [from, to) in its update at `now`: their inputs were sampled then.
    void on_client_ticks(std::size_t seat, rwd::Tick from, rwd::Tick to, rwd::Micros now);
    /// The server ran `tick` at `now` (call before on_server_input for that tick).
    void on_server_tick(rwd::Tick tick, rwd::Micros now);
    /// On that tick the server applied the client of `seat`'s own input, or repeated its last one;
    /// `measure`: count the latency sample.
    void on_server_input(std::size_t seat, rwd::Tick tick, rwd::Micros now, bool repeated, bool measure);
    /// A client drew remote players at `now` at server time `view` (fractional tick).
    void on_view(rwd::sync::FracTick view, rwd::Micros now);
    /// Whether the server repeated the input of `seat` on one of the `window` ticks up to `tick`.
    [[nodiscard]] bool repeated_near(std::size_t seat, rwd::Tick tick, int window) const;
    /// Fills the two distributions of `out`.
    void finish(LatencyFigures& out) const;

private:
    static constexpr std::size_t kRing = 256;  ///< ticks remembered per seat (about 4 s)
    struct Seat {
        std::array<std::uint32_t, kRing> ran_tick{};  ///< client: which tick the slot holds
        std::array<rwd::Micros, kRing> ran_at{};      ///< ... and when it ran
        std::array<std::uint32_t, kRing> repeated{};  ///< server: tick + 1 if its input was repeated on it
    };
    std::vector<Seat> seats_;
    double tick_us_ = 0;
    bool has_server_tick_ = false;
    rwd::Tick last_tick_{};
    rwd::Micros last_tick_at_{};
    std::vector<double> apply_ms_, view_age_ms_;
};

}  // namespace lab
