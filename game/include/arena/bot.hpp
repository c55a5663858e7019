/// Bots: seeded brains that turn what a client sees into Input (wander, chase, strafe, aim, shoot, reload).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include <rewind/core/result.hpp>
#include <rewind/core/rng.hpp>

#include "arena/constants.hpp"
#include "arena/input.hpp"
#include "arena/map.hpp"
#include "arena/state.hpp"

namespace arena {

/// How a bot plays. Defaults make a competent but beatable opponent.
struct BotConfig {
    std::uint16_t aim_error = 1200;  ///< max aim offset, angle units (1200 = 6.6 degrees), re-rolled often
    std::uint16_t aim_error_period = 20;  ///< ticks between aim offset re-rolls
    std::uint16_t reaction_ticks = 12;    ///< ticks a target must be seen before the first shot (200 ms)
    std::uint16_t fire_cone = 2000;       ///< fires only when the aim is this close to the target direction
    std::int32_t chase_distance = 14 * kUnitsPerMeter;   ///< closes in on targets farther than this
    std::int32_t retreat_distance = 4 * kUnitsPerMeter;  ///< backs off from targets closer than this
    std::int32_t sight_range = kRifleRange;              ///< ignores players farther than this
    std::uint32_t rocket_chance = 24;  ///< 1 in N ticks fires the launcher at a mid-range target (0 = never)
    std::uint32_t dash_chance = 180;   ///< 1 in N ticks dashes while moving (0 = never)
    std::uint16_t strafe_min_ticks = 20;  ///< shortest strafe in one direction
    std::uint16_t strafe_max_ticks = 70;  ///< longest strafe in one direction

    /// Ok, or invalid_config naming the first bad field.
    [[nodiscard]] rwd::Status validate() const;
};

/// Another player as the bot's client sees it: possibly stale or interpolated, never authoritative.
struct SeenPlayer {
    bool visible = false;  ///< present in the bot's view (replicated to its client)
    bool alive = false;    ///< on the field
    std::int32_t x = 0;    ///< centre, grid units
    std::int32_t y = 0;    ///< centre, grid units
};

/// Everything a bot may base its decision on: what a client renders, nothing more.
struct BotView {
    int self_slot = 0;                             ///< the bot's own slot (others[self_slot] is ignored)
    Player self{};                                 ///< the bot's own player (predicted or authoritative)
    std::array<SeenPlayer, kMaxPlayers> others{};  ///< everyone else, indexed by slot
};

/// A view of `s` from `slot` with exact, current positions (for local simulations and tests).
BotView view_of(const State& s, int slot);

/// One bot brain with its own seeded generator (never the game's), so it can run on a client or the server.
class Bot {
public:
    /// A bot playing with `config` (use validate() first), its choices seeded by `seed`.
    explicit Bot(std::uint64_t seed, const BotConfig& config = {});

    /// The input for the next tick. Always valid: sanitize() leaves it unchanged.
    Input think(const BotView& view);

    /// The slot the bot is engaging, or -1.
    [[nodiscard]] int target() const { return target_; }

private:
    int pick_target(const BotView& view) const;
    void steer_towards(std::int64_t dx, std::int64_t dy, Input& out) const;
    void pick_waypoint();

    BotConfig config_;
    rwd::Rng rng_;
    int target_ = -1;
    std::uint32_t seen_ticks_ = 0;
    std::int32_t aim_offset_ = 0;
    std::uint32_t aim_timer_ = 0;
    std::int32_t strafe_dir_ = 1;
    std::uint32_t strafe_timer_ = 0;
    Point waypoint_{};
    std::uint32_t waypoint_timer_ = 0;
    Point last_pos_{};
    std::uint32_t stuck_ticks_ = 0;
};

}  // namespace arena
