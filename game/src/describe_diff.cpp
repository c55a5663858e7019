// describe_diff: a field-by-field text of where two states differ, for desync forensics.
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "arena/arena_game.hpp"

namespace arena {
namespace {

// Appends "<prefix>.<name>: a -> b" when the values differ.
template <class T>
void field(std::string& out, const std::string& prefix, std::string_view name, T a, T b) {
    if (a == b) return;
    out += prefix;
    out += '.';
    out += name;
    out += ": ";
    out += std::to_string(a);
    out += " -> ";
    out += std::to_string(b);
    out += '\n';
}

void rng_field(std::string& out, const std::string& prefix, const rwd::Rng& a, const rwd::Rng& b) {
    const auto wa = std::bit_cast<std::array<std::uint64_t, 2>>(a);
    const auto wb = std::bit_cast<std::array<std::uint64_t, 2>>(b);
    field(out, prefix, "rng.state", wa[0], wb[0]);
    field(out, prefix, "rng.stream", wa[1], wb[1]);
}

}  // namespace

void ArenaGame::describe_diff(const State& a, const State& b, std::string& out) {
    const std::string world = "state";
    field(out, world, "tick", a.tick, b.tick);
    field<int>(out, world, "hit_count", a.hit_count, b.hit_count);
    field<int>(out, world, "reserved", a.reserved, b.reserved);
    rng_field(out, world + ".match", a.match_rng, b.match_rng);
    for (int i = 0; i < kMaxPlayers; ++i) {
        const Player& p = a.players[i];
        const Player& q = b.players[i];
        const std::string pre = "players[" + std::to_string(i) + "]";
        rng_field(out, pre, p.rng, q.rng);
        field(out, pre, "x", p.x, q.x);
        field(out, pre, "y", p.y, q.y);
        field(out, pre, "vx", p.vx, q.vx);
        field(out, pre, "vy", p.vy, q.vy);
        field(out, pre, "score", p.score, q.score);
        field(out, pre, "deaths", p.deaths, q.deaths);
        field<int>(out, pre, "aim", p.aim, q.aim);
        field<int>(out, pre, "hp", p.hp, q.hp);
        field<int>(out, pre, "fire_cooldown", p.fire_cooldown, q.fire_cooldown);
        field<int>(out, pre, "alt_cooldown", p.alt_cooldown, q.alt_cooldown);
        field<int>(out, pre, "reload_timer", p.reload_timer, q.reload_timer);
        field<int>(out, pre, "dash_timer", p.dash_timer, q.dash_timer);
        field<int>(out, pre, "dash_cooldown", p.dash_cooldown, q.dash_cooldown);
        field<int>(out, pre, "respawn_timer", p.respawn_timer, q.respawn_timer);
        field<int>(out, pre, "shots", p.shots, q.shots);
        field<int>(out, pre, "ammo", p.ammo, q.ammo);
        field<int>(out, pre, "flags", p.flags, q.flags);
        field(out, pre, "reserved", p.reserved, q.reserved);
    }
    for (int o = 0; o < kMaxPlayers; ++o) {
        for (int k = 0; k < kProjectilesPerPlayer; ++k) {
            const Projectile& p = a.projectiles[o][k];
            const Projectile& q = b.projectiles[o][k];
            const std::string pre = "projectiles[" + std::to_string(o) + "][" + std::to_string(k) + "]";
            field(out, pre, "x", p.x, q.x);
            field(out, pre, "y", p.y, q.y);
            field(out, pre, "vx", p.vx, q.vx);
            field(out, pre, "vy", p.vy, q.vy);
            field<int>(out, pre, "ttl", p.ttl, q.ttl);
            field<int>(out, pre, "serial", p.serial, q.serial);
        }
    }
    for (std::size_t i = 0; i < a.hits.size(); ++i) {
        const HitRecord& p = a.hits[i];
        const HitRecord& q = b.hits[i];
        const std::string pre = "hits[" + std::to_string(i) + "]";
        field<int>(out, pre, "shooter", p.shooter, q.shooter);
        field<int>(out, pre, "target", p.target, q.target);
        field<int>(out, pre, "damage", p.damage, q.damage);
        field<int>(out, pre, "flags", p.flags, q.flags);
    }
}

}  // namespace arena
