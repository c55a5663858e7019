// Player movement: input to velocity (acceleration, friction, dash), sub-stepped wall collision, push-apart.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "arena/constants.hpp"
#include "arena/fixed_math.hpp"
#include "arena/map.hpp"
#include "sim.hpp"

namespace arena::sim {
namespace {

// a * num / den rounded away from zero (den > 0), so a push-out never stops short of the surface.
std::int64_t scale_away(std::int64_t a, std::int64_t num, std::int64_t den) {
    const std::int64_t p = a * num;
    return p >= 0 ? (p + den - 1) / den : -((-p + den - 1) / den);
}

std::int32_t clamp32(std::int64_t v, std::int32_t lo, std::int32_t hi) {
    return static_cast<std::int32_t>(v < lo ? lo : (v > hi ? hi : v));
}

std::uint16_t count_down(std::uint16_t t) {
    return t > 0 ? static_cast<std::uint16_t>(t - 1) : std::uint16_t{0};
}

// Pushes the circle at (x, y) out of one box; removes the velocity component pointing into it.
void resolve_box(const Box& b, std::int32_t& x, std::int32_t& y, std::int32_t& vx, std::int32_t& vy) {
    const std::int64_t r = kPlayerRadius;
    const std::int64_t cx = x < b.min_x ? b.min_x : (x > b.max_x ? b.max_x : x);
    const std::int64_t cy = y < b.min_y ? b.min_y : (y > b.max_y ? b.max_y : y);
    const std::int64_t dx = x - cx;
    const std::int64_t dy = y - cy;
    const std::int64_t d2 = dx * dx + dy * dy;
    if (d2 >= r * r) return;
    if (d2 == 0) {
        // Centre inside the box (only reachable from a corrupted or restored state): leave by the nearest
        // face.
        const std::int64_t left = x - b.min_x;
        const std::int64_t right = b.max_x - x;
        const std::int64_t down = y - b.min_y;
        const std::int64_t up = b.max_y - y;
        const std::int64_t best = std::min(std::min(left, right), std::min(down, up));
        if (best == left) {
            x = static_cast<std::int32_t>(b.min_x - r);
            if (vx > 0) vx = 0;
        } else if (best == right) {
            x = static_cast<std::int32_t>(b.max_x + r);
            if (vx < 0) vx = 0;
        } else if (best == down) {
            y = static_cast<std::int32_t>(b.min_y - r);
            if (vy > 0) vy = 0;
        } else {
            y = static_cast<std::int32_t>(b.max_y + r);
            if (vy < 0) vy = 0;
        }
        return;
    }
    const std::int64_t len = length_of(dx, dy);
    x = static_cast<std::int32_t>(cx + scale_away(dx, r, len));
    y = static_cast<std::int32_t>(cy + scale_away(dy, r, len));
    const std::int64_t dot = std::int64_t{vx} * dx + std::int64_t{vy} * dy;
    if (dot < 0) {
        // Sliding keeps the speed but can move it from one axis to the other: clamp per axis as everywhere.
        vx = clamp32(vx - dx * dot / d2, -kMaxSpeed, kMaxSpeed);
        vy = clamp32(vy - dy * dot / d2, -kMaxSpeed, kMaxSpeed);
    }
}

void resolve_walls(std::int32_t& x, std::int32_t& y, std::int32_t& vx, std::int32_t& vy) {
    static_assert(kPlayerRadius <= kWallsNearRadius, "walls_near() must cover a player");
    // Every wall in order, as if each were tried: one walls_near() leaves out cannot touch the player where
    // it is now (resolve_box would change nothing), and a push that moves the player asks again.
    const std::span<const Box> all = walls();
    std::uint32_t near = walls_near(x, y);
    for (std::size_t k = 0; k < all.size(); ++k) {
        if ((near >> k & 1u) == 0) continue;
        const std::int32_t ox = x, oy = y;
        resolve_box(all[k], x, y, vx, vy);
        if (x != ox || y != oy) near = walls_near(x, y);
    }
}

void update_velocity(Player& p, const Input& in) {
    std::int64_t mx = in.move_x;
    std::int64_t my = in.move_y;
    const std::int64_t mlen = length_of(mx, my);
    if (mlen > kAxisMax) {  // diagonal or over-long: normalize so it is no faster than straight
        mx = mx * kAxisMax / mlen;
        my = my * kAxisMax / mlen;
    }
    const std::int64_t tx = mx * kTopSpeed / kAxisMax;
    const std::int64_t ty = my * kTopSpeed / kAxisMax;
    const std::int64_t top2 = std::int64_t{kTopSpeed} * kTopSpeed;
    const std::int64_t old2 = std::int64_t{p.vx} * p.vx + std::int64_t{p.vy} * p.vy;
    const bool steering = mlen != 0 && old2 <= top2;
    const std::int64_t rate = steering ? kAcceleration : kFriction;
    const std::int64_t dx = tx - p.vx;
    const std::int64_t dy = ty - p.vy;
    const std::int64_t dlen = length_of(dx, dy);
    std::int64_t nvx = tx;
    std::int64_t nvy = ty;
    if (dlen > rate) {
        nvx = p.vx + dx * rate / dlen;
        nvy = p.vy + dy * rate / dlen;
    }
    // Rounding must never lift a walking player above top speed.
    const std::int64_t new2 = nvx * nvx + nvy * nvy;
    if (new2 > top2 && old2 <= top2) {
        const std::int64_t nlen = length_of(nvx, nvy);
        nvx = nvx * kTopSpeed / nlen;
        nvy = nvy * kTopSpeed / nlen;
    }
    p.vx = clamp32(nvx, -kMaxSpeed, kMaxSpeed);
    p.vy = clamp32(nvy, -kMaxSpeed, kMaxSpeed);
}

void start_dash(Player& p, const Input& in) {
    std::int64_t dx = in.move_x;
    std::int64_t dy = in.move_y;
    if (dx == 0 && dy == 0) {
        dx = cos_q14(p.aim);
        dy = sin_q14(p.aim);
    }
    const std::int64_t len = length_of(dx, dy);
    p.vx = clamp32(dx * kDashSpeed / len, -kMaxSpeed, kMaxSpeed);
    p.vy = clamp32(dy * kDashSpeed / len, -kMaxSpeed, kMaxSpeed);
    p.dash_timer = kDashTicks;
    p.dash_cooldown = kDashCooldown;
}

}  // namespace

void clamp_to_arena(std::int32_t& x, std::int32_t& y) {
    x = clamp32(x, kPlayerRadius, kArenaSize - kPlayerRadius);
    y = clamp32(y, kPlayerRadius, kArenaSize - kPlayerRadius);
}

void apply_input(Player& p, const Input& in, int slot, TickScratch& scratch) {
    p.aim = in.aim;
    p.fire_cooldown = count_down(p.fire_cooldown);
    p.alt_cooldown = count_down(p.alt_cooldown);
    p.dash_cooldown = count_down(p.dash_cooldown);
    if (p.ammo > kRifleMagazine) p.ammo = kRifleMagazine;
    if (p.reload_timer > 0) {
        p.reload_timer = count_down(p.reload_timer);
        if (p.reload_timer == 0) p.ammo = kRifleMagazine;
    } else if ((in.buttons & kReload) != 0 && p.ammo < kRifleMagazine) {
        p.reload_timer = kReloadTicks;
    }
    if ((in.buttons & kFire) != 0 && p.reload_timer == 0 && p.fire_cooldown == 0) {
        if (p.ammo > 0) {
            --p.ammo;
            p.fire_cooldown = kRifleInterval;
            scratch.fired_rifle[slot] = true;
        } else {
            p.reload_timer = kReloadTicks;  // pulling the trigger on an empty magazine reloads
        }
    }
    if ((in.buttons & kAltFire) != 0 && p.alt_cooldown == 0) {
        p.alt_cooldown = kRocketCooldown;
        scratch.fired_rocket[slot] = true;
    }
    if ((in.buttons & kDash) != 0 && p.dash_timer == 0 && p.dash_cooldown == 0) {
        start_dash(p, in);
    } else if (p.dash_timer > 0) {
        p.dash_timer = count_down(p.dash_timer);  // a dash holds its velocity (walls may still slide it)
    } else {
        update_velocity(p, in);
    }
}

void move_with_walls(std::int32_t& x, std::int32_t& y, std::int32_t& vx, std::int32_t& vy, std::int32_t dx,
                     std::int32_t dy) {
    const std::int64_t ax = dx < 0 ? -std::int64_t{dx} : dx;
    const std::int64_t ay = dy < 0 ? -std::int64_t{dy} : dy;
    const std::int64_t longest = ax > ay ? ax : ay;
    const std::int64_t n = longest == 0 ? 1 : (longest + kMaxSubstep - 1) / kMaxSubstep;
    for (std::int64_t k = 1; k <= n; ++k) {
        const std::int64_t sx = std::int64_t{dx} * k / n - std::int64_t{dx} * (k - 1) / n;
        const std::int64_t sy = std::int64_t{dy} * k / n - std::int64_t{dy} * (k - 1) / n;
        x = clamp32(std::int64_t{x} + sx, kPlayerRadius, kArenaSize - kPlayerRadius);
        y = clamp32(std::int64_t{y} + sy, kPlayerRadius, kArenaSize - kPlayerRadius);
        resolve_walls(x, y, vx, vy);
    }
    clamp_to_arena(x, y);
}

void move_players(State& s) {
    for (Player& p : s.players) {
        if (!p.alive()) continue;
        p.vx = clamp32(p.vx, -kMaxSpeed, kMaxSpeed);
        p.vy = clamp32(p.vy, -kMaxSpeed, kMaxSpeed);
        clamp_to_arena(p.x, p.y);
        move_with_walls(p.x, p.y, p.vx, p.vy, p.vx, p.vy);
    }
}

void separate_players(State& s) {
    std::array<std::int32_t, kMaxPlayers> px{};
    std::array<std::int32_t, kMaxPlayers> py{};
    constexpr std::int64_t kMinDist = 2 * std::int64_t{kPlayerRadius};
    bool any = false;
    // The alive players' slots and positions, in slot order: the pairs below go in the same order as over
    // every slot, without visiting the empty and dead ones.
    std::array<int, kMaxPlayers> slot{};
    std::array<std::int32_t, kMaxPlayers> ax{};
    std::array<std::int32_t, kMaxPlayers> ay{};
    int alive = 0;
    for (int i = 0; i < kMaxPlayers; ++i) {
        if (!s.players[i].alive()) continue;
        slot[static_cast<std::size_t>(alive)] = i;
        ax[static_cast<std::size_t>(alive)] = s.players[i].x;
        ay[static_cast<std::size_t>(alive)] = s.players[i].y;
        ++alive;
    }
    for (int m = 0; m < alive; ++m) {
        const auto um = static_cast<std::size_t>(m);
        const int i = slot[um];
        for (int n = m + 1; n < alive; ++n) {
            const auto un = static_cast<std::size_t>(n);
            const int j = slot[un];
            const std::int64_t dx = std::int64_t{ax[un]} - ax[um];
            const std::int64_t dy = std::int64_t{ay[un]} - ay[um];
            if (dx >= kMinDist || dx <= -kMinDist || dy >= kMinDist || dy <= -kMinDist) continue;
            const std::int64_t d2 = dx * dx + dy * dy;
            if (d2 >= kMinDist * kMinDist) continue;
            any = true;
            std::int64_t ux = 0;
            std::int64_t uy = 0;
            if (d2 == 0) {
                ux = kMinDist / 2;  // exactly on top of each other: the lower slot goes west
            } else {
                const std::int64_t len = length_of(dx, dy);
                const std::int64_t overlap = kMinDist - len;
                ux = scale_away(dx, overlap, 2 * len);
                uy = scale_away(dy, overlap, 2 * len);
            }
            px[i] = clamp32(px[i] - ux, -kArenaSize, kArenaSize);
            py[i] = clamp32(py[i] - uy, -kArenaSize, kArenaSize);
            px[j] = clamp32(px[j] + ux, -kArenaSize, kArenaSize);
            py[j] = clamp32(py[j] + uy, -kArenaSize, kArenaSize);
        }
    }
    if (!any) return;
    for (int i = 0; i < kMaxPlayers; ++i) {
        if (px[i] == 0 && py[i] == 0) continue;
        std::int64_t dx = px[i];
        std::int64_t dy = py[i];
        const std::int64_t len = length_of(dx, dy);
        if (len > kMaxPush) {
            dx = dx * kMaxPush / len;
            dy = dy * kMaxPush / len;
        }
        Player& p = s.players[i];
        move_with_walls(p.x, p.y, p.vx, p.vy, static_cast<std::int32_t>(dx), static_cast<std::int32_t>(dy));
    }
}

}  // namespace arena::sim
