// Bot brains: target choice by line of sight, chase/strafe/wander movement, aim with error and reaction time.
#include "arena/bot.hpp"

#include <cstdint>

#include "arena/fixed_math.hpp"

namespace arena {
namespace {

std::int32_t clamp_coord(std::int64_t v) {
    return static_cast<std::int32_t>(v < 0 ? 0 : (v > kArenaSize ? kArenaSize : v));
}

}  // namespace

rwd::Status BotConfig::validate() const {
    if (aim_error > 16384) return rwd::Error{rwd::Errc::invalid_config, "aim_error above a quarter turn"};
    if (aim_error_period == 0) return rwd::Error{rwd::Errc::invalid_config, "aim_error_period must be > 0"};
    if (chase_distance <= retreat_distance) {
        return rwd::Error{rwd::Errc::invalid_config, "chase_distance must exceed retreat_distance"};
    }
    if (retreat_distance < 0) return rwd::Error{rwd::Errc::invalid_config, "retreat_distance negative"};
    if (sight_range <= 0) return rwd::Error{rwd::Errc::invalid_config, "sight_range must be > 0"};
    if (strafe_min_ticks == 0 || strafe_max_ticks < strafe_min_ticks) {
        return rwd::Error{rwd::Errc::invalid_config, "strafe ticks: need 0 < min <= max"};
    }
    return {};
}

BotView view_of(const State& s, int slot) {
    BotView v;
    v.self_slot = slot;
    if (slot >= 0 && slot < kMaxPlayers) v.self = s.players[slot];
    for (int i = 0; i < kMaxPlayers; ++i) {
        const Player& p = s.players[i];
        v.others[i] = SeenPlayer{p.present(), p.alive(), p.x, p.y};
    }
    return v;
}

Bot::Bot(std::uint64_t seed, const BotConfig& config) : config_(config), rng_(seed, 0x626f74ULL) {
    // Degenerate configs must still give valid inputs: keep the periods usable.
    if (config_.aim_error_period == 0) config_.aim_error_period = 1;
    if (config_.strafe_min_ticks == 0) config_.strafe_min_ticks = 1;
    if (config_.strafe_max_ticks < config_.strafe_min_ticks)
        config_.strafe_max_ticks = config_.strafe_min_ticks;
    pick_waypoint();
}

void Bot::pick_waypoint() {
    const std::int32_t margin = 2 * kUnitsPerMeter;
    waypoint_ = Point{rng_.range(margin, kArenaSize - margin), rng_.range(margin, kArenaSize - margin)};
    waypoint_timer_ = 240 + rng_.uniform(240);
}

int Bot::pick_target(const BotView& view) const {
    const Point me{clamp_coord(view.self.x), clamp_coord(view.self.y)};
    const std::int64_t range2 = std::int64_t{config_.sight_range} * config_.sight_range;
    int best = -1;
    std::int64_t best_d2 = 0;
    for (int i = 0; i < kMaxPlayers; ++i) {
        const SeenPlayer& o = view.others[i];
        if (i == view.self_slot || !o.visible || !o.alive) continue;
        const Point them{clamp_coord(o.x), clamp_coord(o.y)};
        const std::int64_t dx = them.x - me.x;
        const std::int64_t dy = them.y - me.y;
        const std::int64_t d2 = dx * dx + dy * dy;
        if (d2 > range2 || (best >= 0 && d2 >= best_d2)) continue;
        if (!line_of_sight(me, them)) continue;
        best = i;
        best_d2 = d2;
    }
    return best;
}

void Bot::steer_towards(std::int64_t dx, std::int64_t dy, Input& out) const {
    const std::int64_t len = length_of(dx, dy);
    if (len == 0) return;
    out.move_x = static_cast<std::int8_t>(dx * kAxisMax / len);
    out.move_y = static_cast<std::int8_t>(dy * kAxisMax / len);
}

Input Bot::think(const BotView& view) {
    Input out;
    const Player& me = view.self;
    out.aim = me.aim;
    if (!me.alive()) {
        target_ = -1;
        seen_ticks_ = 0;
        return out;  // dead: wait for the respawn
    }
    const Point pos{clamp_coord(me.x), clamp_coord(me.y)};

    // Who to fight: the nearest visible player; the reaction clock restarts whenever the target changes.
    const int target = pick_target(view);
    if (target != target_) seen_ticks_ = 0;
    target_ = target;
    if (target_ >= 0) ++seen_ticks_;

    // Aim error: a random offset held for a while, like a hand that drifts.
    if (aim_timer_ == 0) {
        const std::int32_t e = config_.aim_error;
        aim_offset_ = e == 0 ? 0 : rng_.range(-e, e);
        aim_timer_ = config_.aim_error_period;
    }
    --aim_timer_;

    if (target_ >= 0) {
        const SeenPlayer& t = view.others[target_];
        const std::int64_t dx = std::int64_t{clamp_coord(t.x)} - pos.x;
        const std::int64_t dy = std::int64_t{clamp_coord(t.y)} - pos.y;
        const std::int64_t dist = length_of(dx, dy);
        const std::uint16_t exact = atan2_angle(dy, dx);
        out.aim = static_cast<std::uint16_t>(exact + aim_offset_);

        // Movement: chase from afar, back off when too close, strafe in between.
        if (dist > config_.chase_distance) {
            steer_towards(dx, dy, out);
        } else if (dist < config_.retreat_distance) {
            steer_towards(-dx, -dy, out);
        } else {
            if (strafe_timer_ == 0) {
                strafe_dir_ = rng_.chance(1, 2) ? 1 : -1;
                strafe_timer_ = static_cast<std::uint32_t>(
                    rng_.range(config_.strafe_min_ticks, config_.strafe_max_ticks));
            }
            --strafe_timer_;
            steer_towards(-dy * strafe_dir_, dx * strafe_dir_, out);
        }

        // Shooting: after the reaction time, when roughly on target; reload when empty.
        const bool reacted = seen_ticks_ > config_.reaction_ticks;
        const std::int32_t off = angle_delta(out.aim, exact);
        const bool on_target = (off < 0 ? -off : off) <= config_.fire_cone + config_.aim_error;
        if (me.ammo == 0 && me.reload_timer == 0) {
            out.buttons |= kReload;
        } else if (reacted && on_target && dist <= kRifleRange) {
            out.buttons |= kFire;
        }
        if (reacted && config_.rocket_chance != 0 && dist > 5 * kUnitsPerMeter &&
            dist < 16 * kUnitsPerMeter && rng_.chance(1, config_.rocket_chance)) {
            out.buttons |= kAltFire;
        }
    } else {
        // Nobody in sight: top up the magazine and wander between random waypoints.
        if (me.ammo < kRifleMagazine / 2 && me.reload_timer == 0) out.buttons |= kReload;
        const std::int64_t dx = std::int64_t{waypoint_.x} - pos.x;
        const std::int64_t dy = std::int64_t{waypoint_.y} - pos.y;
        if (waypoint_timer_ == 0 || length_of(dx, dy) < kUnitsPerMeter) pick_waypoint();
        --waypoint_timer_;
        steer_towards(std::int64_t{waypoint_.x} - pos.x, std::int64_t{waypoint_.y} - pos.y, out);
        if (out.move_x != 0 || out.move_y != 0) out.aim = atan2_angle(out.move_y, out.move_x);
    }

    // Stuck against a wall for half a second: try somewhere else.
    const std::int64_t moved =
        length_of(std::int64_t{pos.x} - last_pos_.x, std::int64_t{pos.y} - last_pos_.y);
    stuck_ticks_ = moved < 16 && (out.move_x != 0 || out.move_y != 0) ? stuck_ticks_ + 1 : 0;
    last_pos_ = pos;
    if (stuck_ticks_ > 30) {
        pick_waypoint();
        strafe_dir_ = -strafe_dir_;
        stuck_ticks_ = 0;
    }

    if (config_.dash_chance != 0 && (out.move_x != 0 || out.move_y != 0) &&
        rng_.chance(1, config_.dash_chance)) {
        out.buttons |= kDash;
    }
    return out;
}

}  // namespace arena
