// Swarm's simulation: integer movement, throws, bounces and hits over two heap vectors, in vector order.
#include "swarm/swarm_game.hpp"

#include <rewind/core/checksum.hpp>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

namespace swarm {
namespace {

constexpr std::int32_t kWalk = 6;        // units per frame per input step
constexpr std::int32_t kThrow = 4;       // body speed, units per frame per unit of kAim
constexpr std::int32_t kCooldown = 12;   // frames between two throws of one player
constexpr std::int32_t kBodyTtl = 150;   // frames a body flies
constexpr std::int32_t kHitRadius = 96;  // a body this close (on both axes) to another player hits it

// The 16 aim directions as integer vectors of length ~16 (0 is +x, counter-clockwise).
constexpr std::array<std::array<std::int32_t, 2>, 16> kAim{{{16, 0},
                                                            {15, 6},
                                                            {11, 11},
                                                            {6, 15},
                                                            {0, 16},
                                                            {-6, 15},
                                                            {-11, 11},
                                                            {-15, 6},
                                                            {-16, 0},
                                                            {-15, -6},
                                                            {-11, -11},
                                                            {-6, -15},
                                                            {0, -16},
                                                            {6, -15},
                                                            {11, -11},
                                                            {15, -6}}};

std::int32_t clamp_field(std::int32_t v) { return std::clamp(v, std::int32_t{0}, kField); }

// Moves a body one frame and reflects it off the walls.
void fly(Body& b) {
    b.x += b.vx;
    b.y += b.vy;
    if (b.x < 0 || b.x > kField) b.vx = -b.vx, b.x = clamp_field(b.x);
    if (b.y < 0 || b.y > kField) b.vy = -b.vy, b.y = clamp_field(b.y);
    --b.ttl;
}

}  // namespace

std::uint8_t aim_toward(std::int32_t dx, std::int32_t dy) {
    std::uint8_t best = 0;
    std::int64_t best_dot = std::numeric_limits<std::int64_t>::min();
    for (std::size_t a = 0; a < kAim.size(); ++a) {
        const std::int64_t dot = std::int64_t{dx} * kAim[a][0] + std::int64_t{dy} * kAim[a][1];
        if (dot > best_dot) best_dot = dot, best = static_cast<std::uint8_t>(a);
    }
    return best;
}

void SwarmGame::save_state(const State& s, SavedState& out) { out = s; }

void SwarmGame::load_state(const SavedState& in, State& s) { s = in; }

void SwarmGame::step(State& s, std::span<const Input> in) {
    for (Player& p : s.players) {
        const Input& i = in[static_cast<std::size_t>(p.slot)];
        p.x = clamp_field(p.x + i.walk_x * kWalk);
        p.y = clamp_field(p.y + i.walk_y * kWalk);
        if (p.cooldown > 0) --p.cooldown;
        if (i.throws != 0 && p.cooldown == 0) {
            const auto& d = kAim[i.aim & 15u];
            s.bodies.push_back(Body{p.x, p.y, d[0] * kThrow, d[1] * kThrow, p.slot, kBodyTtl});
            p.cooldown = kCooldown;
        }
    }
    for (Body& b : s.bodies) {
        fly(b);
        for (Player& p : s.players) {
            if (b.ttl <= 0 || p.slot == b.owner) continue;
            if (std::abs(p.x - b.x) < kHitRadius && std::abs(p.y - b.y) < kHitRadius) {
                const auto owner = std::find_if(s.players.begin(), s.players.end(),
                                                [&](const Player& q) { return q.slot == b.owner; });
                if (owner != s.players.end()) ++owner->score;
                --p.score;
                b.ttl = 0;
            }
        }
    }
    std::erase_if(s.bodies, [](const Body& b) { return b.ttl <= 0; });
    ++s.frame;
}

std::uint64_t SwarmGame::checksum(const State& s) {
    rwd::Hasher h(static_cast<std::uint64_t>(s.frame));
    h.add_value(static_cast<std::uint64_t>(s.players.size()));
    for (const Player& p : s.players) h.add_value(p);
    h.add_value(static_cast<std::uint64_t>(s.bodies.size()));
    for (const Body& b : s.bodies) h.add_value(b);
    return h.digest();
}

void SwarmGame::add_player(State& s, int slot) {
    std::erase_if(s.players, [&](const Player& p) { return p.slot == slot; });
    const auto at =
        std::find_if(s.players.begin(), s.players.end(), [&](const Player& p) { return p.slot > slot; });
    const std::int32_t corner = (slot % 2 == 0) ? kField / 4 : kField * 3 / 4;
    s.players.insert(at, Player{slot, corner, (slot / 2 % 2 == 0) ? kField / 4 : kField * 3 / 4, 0, 0});
}

State new_match(int players) {
    State s;
    for (int p = 0; p < players; ++p) SwarmGame::add_player(s, p);
    return s;
}

}  // namespace swarm
