// Lag-compensation bookkeeping: shots that hit on the shooter's screen, matched against what the server did.
#pragma once

#include "cs_figures.hpp"

#include <arena/arena_game.hpp>
#include <rewind/core/tick.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <vector>

namespace lab {

/// A remote player as a client drew it.
struct DrawnPlayer {
    int slot = 0;        ///< its slot
    std::int32_t x = 0;  ///< drawn centre, grid units
    std::int32_t y = 0;
    bool alive = false;  ///< drawn on the field
};

/// The player the shooter's screen shows its rifle shot hitting: the same ray the game casts (walls stop it,
/// the nearest circle wins), from the shooter's predicted position along its aim, against the drawn players.
/// -1: miss.
int on_screen_target(const arena::Player& shooter, int shooter_slot, std::span<const DrawnPlayer> drawn);

/// Matches client-side shots with the server's ticks.
class ShotTracker {
public:
    /// A client predicted a rifle shot at `tick`; `target` is the on-screen hit (-1: miss); `rewind_ticks` is
    /// the tick minus the view time it was stamped with.
    void on_client_shot(rwd::Tick tick, int shooter, int target, double rewind_ticks);
    /// The server's rewind cap in ticks: hits needing more are reported apart.
    void set_cap_ticks(double cap) { cap_ticks_ = cap; }
    /// The server ran `tick`, turning `before` into `after`.
    void on_server_tick(rwd::Tick tick, const arena::State& before, const arena::State& after);
    /// Fills the shot figures (shots never resolved count as unresolved); `tick_ms` converts rewinds.
    void finish(ShotFigures& out, double tick_ms) const;

private:
    struct Pending {
        int shooter = 0;
        int target = -1;
        bool within_cap = true;
    };
    void judged(const Pending& p, bool registered);
    std::map<std::uint32_t, std::vector<Pending>>
        pending_;  // by tick value (ticks stay far from the wrap here)
    std::vector<double> rewinds_;
    std::uint64_t shots_ = 0, hits_ = 0, registered_ = 0, not_registered_ = 0, dead_ = 0, silent_ = 0;
    std::uint64_t ambiguous_ = 0, unresolved_ = 0, shooter_dead_ = 0;
    std::uint64_t within_ = 0, within_ok_ = 0, beyond_ = 0, beyond_ok_ = 0;
    double cap_ticks_ = 1e9;
};

}  // namespace lab
