// ShotTraces: the rifle shots a client reads from snapshots (a magazine that lost a round) and where their
// tracers end (the first wall), for the native and the browser client to draw alike.
#pragma once

#include <arena/snapshot.hpp>

#include <cstdint>
#include <map>
#include <optional>

namespace arena {

/// An aim (65536 steps a full turn) in radians.
[[nodiscard]] double aim_radians(std::uint16_t aim);

/// One rifle tracer in grid units: from the shooter along its aim to the first wall or the rifle's range.
struct ShotTrace {
    double from_x = 0, from_y = 0;  ///< the shooter
    double to_x = 0, to_y = 0;      ///< where the tracer stops
};

/// Per player, the rounds in its magazine at its last snapshot.
class ShotTraces {
public:
    /// Notes player `id`'s newest snapshot; the tracer of a shot fired since its previous one, if any (a live
    /// player whose magazine lost a round).
    [[nodiscard]] std::optional<ShotTrace> note(std::uint32_t id, const EntitySnapshot& e);

private:
    std::map<std::uint32_t, std::uint8_t> last_ammo_;
};

}  // namespace arena
