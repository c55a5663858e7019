// Replication hooks: State <-> entity records (players and projectiles), diffs, and render interpolation.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "arena/arena_game.hpp"
#include "arena/fixed_math.hpp"

namespace arena {
namespace {

template <class T>
T clamp_to(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

EntitySnapshot snapshot_of(const Player& p) {
    EntitySnapshot e;
    e.kind = EntityKind::kPlayer;
    e.flags = p.flags;
    e.ammo = p.ammo;
    e.x = p.x;
    e.y = p.y;
    e.vx = p.vx;
    e.vy = p.vy;
    e.aim = p.aim;
    e.hp = p.hp;
    e.fire_cooldown = p.fire_cooldown;
    e.alt_cooldown = p.alt_cooldown;
    e.reload_timer = p.reload_timer;
    e.dash_timer = p.dash_timer;
    e.dash_cooldown = p.dash_cooldown;
    e.respawn_timer = p.respawn_timer;
    e.shots = p.shots;
    e.score = p.score;
    e.deaths = p.deaths;
    e.rng = std::bit_cast<std::array<std::uint64_t, 2>>(p.rng);
    return e;
}

// A projectile's record, as capture() lists it.
EntitySnapshot projectile_snapshot(int owner, const Projectile& pr) {
    EntitySnapshot e;
    e.kind = EntityKind::kProjectile;
    e.owner = static_cast<std::uint8_t>(owner);
    e.x = pr.x;
    e.y = pr.y;
    e.vx = pr.vx;
    e.vy = pr.vy;
    e.ttl = pr.ttl;
    return e;
}

// The inverse of snapshot_of, holding every field to what step() can produce: the records may come from the
// network, and step() must never see a position outside the arena or a timer beyond its maximum.
Player player_of(const EntitySnapshot& e) {
    Player p;
    p.flags = static_cast<std::uint8_t>((e.flags & kAllPlayerFlags) | kPresent);
    p.ammo = clamp_to<std::uint8_t>(e.ammo, 0, kRifleMagazine);
    p.x = clamp_to(e.x, kPlayerRadius, kArenaSize - kPlayerRadius);
    p.y = clamp_to(e.y, kPlayerRadius, kArenaSize - kPlayerRadius);
    p.vx = clamp_to(e.vx, -kMaxSpeed, kMaxSpeed);
    p.vy = clamp_to(e.vy, -kMaxSpeed, kMaxSpeed);
    p.aim = e.aim;
    p.hp = clamp_to<std::int16_t>(e.hp, 0, kMaxHp);
    p.fire_cooldown = clamp_to<std::uint16_t>(e.fire_cooldown, 0, kRifleInterval);
    p.alt_cooldown = clamp_to<std::uint16_t>(e.alt_cooldown, 0, kRocketCooldown);
    p.reload_timer = clamp_to<std::uint16_t>(e.reload_timer, 0, kReloadTicks);
    p.dash_timer = clamp_to<std::uint16_t>(e.dash_timer, 0, kDashTicks);
    p.dash_cooldown = clamp_to<std::uint16_t>(e.dash_cooldown, 0, kDashCooldown);
    p.respawn_timer = clamp_to<std::uint16_t>(e.respawn_timer, 0, kRespawnTicks);
    p.shots = e.shots;
    p.score = e.score;
    p.deaths = e.deaths;
    p.rng = std::bit_cast<rwd::Rng>(e.rng);
    return p;
}

}  // namespace

void ArenaGame::capture(const State& s, std::vector<EntityRecord>& out) {
    out.clear();
    for (int i = 0; i < kMaxPlayers; ++i) {
        if (s.players[i].present()) out.push_back({player_entity_id(i), snapshot_of(s.players[i])});
    }
    for (int owner = 0; owner < kMaxPlayers; ++owner) {
        const std::size_t first = out.size();
        for (const Projectile& pr : s.projectiles[owner]) {
            if (!pr.active()) continue;
            out.push_back({projectile_entity_id(owner, pr.serial), projectile_snapshot(owner, pr)});
        }
        // At most kProjectilesPerPlayer records per owner: a tiny sort keeps the whole list ordered by id.
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                  [](const EntityRecord& a, const EntityRecord& b) { return a.id < b.id; });
    }
}

std::optional<ArenaGame::EntitySnapshot> ArenaGame::capture_entity(const State& s, std::uint32_t id) {
    if (id < static_cast<std::uint32_t>(kMaxPlayers)) {
        const Player& p = s.players[id];
        if (!p.present()) return std::nullopt;
        return snapshot_of(p);
    }
    if (id < kProjectileIdBase) return std::nullopt;
    const std::uint32_t owner = (id - kProjectileIdBase) >> 16u;
    if (owner >= static_cast<std::uint32_t>(kMaxPlayers)) return std::nullopt;
    const auto serial = static_cast<std::uint16_t>((id - kProjectileIdBase) & 0xFFFFu);
    for (const Projectile& pr : s.projectiles[owner]) {
        if (pr.active() && pr.serial == serial) return projectile_snapshot(static_cast<int>(owner), pr);
    }
    return std::nullopt;
}

void ArenaGame::restore(State& s, std::span<const EntityRecord> entities) {
    const rwd::Rng match_rng = s.match_rng;
    const std::uint32_t tick = s.tick;
    s = State{};
    s.match_rng = match_rng;  // not replicated: only add_player uses it, and clients never do
    s.tick = tick;
    for (const EntityRecord& r : entities) {
        if (r.id < static_cast<std::uint32_t>(kMaxPlayers)) {
            if (r.snap.kind != EntityKind::kPlayer) continue;
            s.players[r.id] = player_of(r.snap);
            continue;
        }
        if (r.id < kProjectileIdBase || r.snap.kind != EntityKind::kProjectile) continue;
        const std::uint32_t owner = (r.id - kProjectileIdBase) >> 16u;
        if (owner >= static_cast<std::uint32_t>(kMaxPlayers)) continue;
        const auto serial = static_cast<std::uint16_t>((r.id - kProjectileIdBase) & 0xFFFFu);
        Projectile& pr = s.projectiles[owner][serial % kProjectilesPerPlayer];
        pr.x = clamp_to(r.snap.x, 0, kArenaSize);
        pr.y = clamp_to(r.snap.y, 0, kArenaSize);
        pr.vx = clamp_to(r.snap.vx, -kMaxSpeed, kMaxSpeed);
        pr.vy = clamp_to(r.snap.vy, -kMaxSpeed, kMaxSpeed);
        pr.ttl = clamp_to<std::uint16_t>(r.snap.ttl, 1, kRocketTtl);
        pr.serial = serial;
    }
}

EntitySnapshot ArenaGame::interpolate(const EntitySnapshot& a, const EntitySnapshot& b, float t) {
    if (!(t > 0.0f)) return a;  // also catches NaN
    if (t >= 1.0f) return b;
    EntitySnapshot out = t < 0.5f ? a : b;
    const bool same_life = a.kind == b.kind && (a.flags & kAlive) == (b.flags & kAlive);
    // More than 4 m in one snapshot step is a teleport (respawn), never something to slide across.
    const bool teleport = position_error_q(a, b) > 4 * kUnitsPerMeter;
    if (!same_life || teleport) return out;
    auto lerp = [t](std::int32_t x, std::int32_t y) {
        return static_cast<std::int32_t>(
            std::lround(static_cast<double>(x) + (static_cast<double>(y) - x) * t));
    };
    out.x = lerp(a.x, b.x);
    out.y = lerp(a.y, b.y);
    out.vx = lerp(a.vx, b.vx);
    out.vy = lerp(a.vy, b.vy);
    const std::int32_t turn = angle_delta(b.aim, a.aim);
    out.aim = static_cast<std::uint16_t>(
        a.aim + static_cast<std::int32_t>(std::lround(static_cast<float>(turn) * t)));
    return out;
}

std::int64_t ArenaGame::position_error_q(const EntitySnapshot& a, const EntitySnapshot& b) {
    return length_of(std::int64_t{a.x} - b.x, std::int64_t{a.y} - b.y);
}

std::array<double, 3> ArenaGame::render_position_m(const EntitySnapshot& e) {
    return {static_cast<double>(e.x) * kMetersPerUnit, static_cast<double>(e.y) * kMetersPerUnit, 0.0};
}

EntitySnapshot ArenaGame::with_render_offset(const EntitySnapshot& e, std::array<double, 3> offset_m) {
    // Offsets are bounded by the client's snap distance; anything non-finite or absurd leaves e where it is.
    auto moved = [](std::int32_t v, double off_m) {
        const double units = off_m * kUnitsPerMeter;
        if (!(std::fabs(units) < 4.0 * kArenaSize)) return v;
        return static_cast<std::int32_t>(std::llround(static_cast<double>(v) + units));
    };
    EntitySnapshot out = e;
    out.x = moved(e.x, offset_m[0]);
    out.y = moved(e.y, offset_m[1]);
    return out;
}

std::uint32_t diff_fields(const EntitySnapshot& a, const EntitySnapshot& b) {
    std::uint32_t m = 0;
    auto set = [&m](bool differs, int bit) {
        if (differs) m |= 1u << static_cast<unsigned>(bit);
    };
    set(a.kind != b.kind, kFieldKind);
    set(a.flags != b.flags, kFieldFlags);
    set(a.ammo != b.ammo, kFieldAmmo);
    set(a.owner != b.owner, kFieldOwner);
    set(a.x != b.x || a.y != b.y, kFieldPosition);
    set(a.vx != b.vx || a.vy != b.vy, kFieldVelocity);
    set(a.aim != b.aim, kFieldAim);
    set(a.hp != b.hp, kFieldHp);
    set(a.fire_cooldown != b.fire_cooldown, kFieldFireCooldown);
    set(a.alt_cooldown != b.alt_cooldown, kFieldAltCooldown);
    set(a.reload_timer != b.reload_timer, kFieldReloadTimer);
    set(a.dash_timer != b.dash_timer, kFieldDashTimer);
    set(a.dash_cooldown != b.dash_cooldown, kFieldDashCooldown);
    set(a.respawn_timer != b.respawn_timer, kFieldRespawnTimer);
    set(a.shots != b.shots, kFieldShots);
    set(a.ttl != b.ttl, kFieldTtl);
    set(a.score != b.score, kFieldScore);
    set(a.deaths != b.deaths, kFieldDeaths);
    set(a.rng != b.rng, kFieldRng);
    return m;
}

std::string_view field_name(int bit) {
    static constexpr std::array<std::string_view, kFieldCount> kNames{
        "kind",          "flags",         "ammo",         "owner",
        "position",      "velocity",      "aim",          "hp",
        "fire_cooldown", "alt_cooldown",  "reload_timer", "dash_timer",
        "dash_cooldown", "respawn_timer", "shots",        "ttl",
        "score",         "deaths",        "rng"};
    if (bit < 0 || bit >= kFieldCount) return "unknown";
    return kNames[static_cast<std::size_t>(bit)];
}

}  // namespace arena
