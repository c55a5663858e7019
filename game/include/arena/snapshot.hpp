/// Replication: one entity (player or projectile) as the server sends it, with full and delta encodings.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include <rewind/wire/context.hpp>
#include <rewind/wire/serialize.hpp>

#include "arena/constants.hpp"
#include "arena/state.hpp"

namespace arena {

/// What an entity is.
enum class EntityKind : std::uint8_t {
    kPlayer = 0,      ///< a player seat (id = slot)
    kProjectile = 1,  ///< a launcher projectile
};

/// Entity id of the player in `slot`.
constexpr std::uint32_t player_entity_id(int slot) { return static_cast<std::uint32_t>(slot); }
/// First projectile entity id; projectile ids are kProjectileIdBase + owner * 65536 + serial.
inline constexpr std::uint32_t kProjectileIdBase = 256;
/// Entity id of `owner`'s projectile number `serial`.
constexpr std::uint32_t projectile_entity_id(int owner, std::uint16_t serial) {
    return kProjectileIdBase + (static_cast<std::uint32_t>(owner) << 16u) + serial;
}

/// One replicated entity. Every field lies on the grid step() uses, so serialize() is lossless for any state
/// step() produced. Fields a kind does not use stay 0.
struct EntitySnapshot {
    EntityKind kind = EntityKind::kPlayer;  ///< player or projectile
    std::uint8_t flags = 0;                 ///< player: PlayerFlag bits
    std::uint8_t ammo = 0;                  ///< player: rifle rounds
    std::uint8_t owner = 0;                 ///< projectile: the slot that fired it
    std::int32_t x = 0;                     ///< centre, grid units
    std::int32_t y = 0;                     ///< centre, grid units
    std::int32_t vx = 0;                    ///< units per tick
    std::int32_t vy = 0;                    ///< units per tick
    std::uint16_t aim = 0;                  ///< player: facing
    std::int16_t hp = 0;                    ///< player: hit points
    std::uint16_t fire_cooldown = 0;        ///< player: ticks until the rifle may fire
    std::uint16_t alt_cooldown = 0;         ///< player: ticks until the launcher may fire
    std::uint16_t reload_timer = 0;         ///< player: ticks left reloading
    std::uint16_t dash_timer = 0;           ///< player: ticks left dashing
    std::uint16_t dash_cooldown = 0;        ///< player: ticks until the next dash
    std::uint16_t respawn_timer = 0;        ///< player: ticks until respawn
    std::uint16_t shots = 0;                ///< player: projectiles fired (names the next one)
    std::uint16_t ttl = 0;                  ///< projectile: ticks left to live
    std::int32_t score = 0;                 ///< player: kills
    std::int32_t deaths = 0;                ///< player: deaths
    std::array<std::uint64_t, 2> rng{};  ///< player: its generator's state (respawn points are predictable)
    /// Field-wise equality.
    friend constexpr bool operator==(const EntitySnapshot&, const EntitySnapshot&) = default;
};
static_assert(std::has_unique_object_representations_v<EntitySnapshot>,
              "EntitySnapshot must have no padding");

/// Bits of diff_fields(): one per group of fields that change together.
enum SnapshotField : int {
    kFieldKind = 0,
    kFieldFlags,
    kFieldAmmo,
    kFieldOwner,
    kFieldPosition,
    kFieldVelocity,
    kFieldAim,
    kFieldHp,
    kFieldFireCooldown,
    kFieldAltCooldown,
    kFieldReloadTimer,
    kFieldDashTimer,
    kFieldDashCooldown,
    kFieldRespawnTimer,
    kFieldShots,
    kFieldTtl,
    kFieldScore,
    kFieldDeaths,
    kFieldRng,
    kFieldCount  ///< number of field bits
};

/// Bitmask of SnapshotField bits where a and b differ.
std::uint32_t diff_fields(const EntitySnapshot& a, const EntitySnapshot& b);
/// Name of a SnapshotField bit ("unknown" outside the range).
std::string_view field_name(int bit);

/// Range-coder model groups (rwd::wire::set_context) of the entity fields, after the entity list's own:
/// fields with one distribution share a group; a no-op on the bit-packing streams.
enum SnapshotContext : std::uint32_t {
    kCtxHeader = 2,    ///< same_kind, moved
    kCtxPosition,      ///< x and y residuals
    kCtxVelocity,      ///< vx and vy residuals
    kCtxFlags,         ///< player flags
    kCtxAim,           ///< player aim
    kCtxHp,            ///< player hp
    kCtxDashTimer,     ///< player dash timer
    kCtxRespawnTimer,  ///< player respawn timer
    kCtxScore,         ///< player score
    kCtxDeaths,        ///< player deaths
    kCtxOwner,         ///< the owner-only part
    kCtxProjectile,    ///< projectile owner and ttl
    kCtxFull,          ///< an entity in full
};

namespace detail {

/// A 16-bit unsigned field in [0, max].
template <class Stream>
bool serialize_u16(Stream& s, std::uint16_t& v, std::uint16_t max) {
    return rwd::wire::serialize_int(s, v, std::uint16_t{0}, max);
}

/// An int32 as 32 raw bits.
template <class Stream>
bool serialize_i32_raw(Stream& s, std::int32_t& v) {
    std::uint32_t u = static_cast<std::uint32_t>(v);
    if (!rwd::wire::serialize_bits(s, u, 32)) return false;
    if constexpr (Stream::is_reading) v = static_cast<std::int32_t>(u);
    return true;
}

/// Whether `v`'s owner-only fields (ammo, cooldowns, reload, shots, generator) equal `b`'s.
constexpr bool same_owner_fields(const EntitySnapshot& v, const EntitySnapshot& b) {
    return v.ammo == b.ammo && v.fire_cooldown == b.fire_cooldown && v.alt_cooldown == b.alt_cooldown &&
           v.reload_timer == b.reload_timer && v.dash_cooldown == b.dash_cooldown && v.shots == b.shots &&
           v.rng == b.rng;
}

/// A player's fields other than kind, position and velocity, one group each, optionally each behind a
/// "changed" bit against `base` (delta mode). The owner-only fields come last behind one bit: in full, "any
/// of them non-zero" (a remote view has them all zero); in delta mode, "any of them changed".
template <class Stream>
bool serialize_player_rest(Stream& s, EntitySnapshot& v, const EntitySnapshot* base) {
    using rwd::wire::serialize_bool;
    using rwd::wire::serialize_int;
    // One "changed?" bit per group in delta mode; the reader starts from the base value.
    auto group = [&](std::uint32_t ctx, bool same, auto&& body) {
        rwd::wire::set_context(s, ctx);
        if (base == nullptr) return body();
        bool changed = !same;
        if (!serialize_bool(s, changed)) return false;
        return changed ? body() : true;
    };
    const EntitySnapshot& b = base != nullptr ? *base : v;
    bool ok = group(kCtxFlags, v.flags == b.flags,
                    [&] { return serialize_int(s, v.flags, std::uint8_t{0}, kAllPlayerFlags); });
    ok = ok && group(kCtxAim, v.aim == b.aim, [&] { return serialize_u16(s, v.aim, 0xFFFF); });
    ok = ok && group(kCtxHp, v.hp == b.hp, [&] { return serialize_int(s, v.hp, std::int16_t{0}, kMaxHp); });
    ok = ok && group(kCtxDashTimer, v.dash_timer == b.dash_timer,
                     [&] { return serialize_u16(s, v.dash_timer, kDashTicks); });
    ok = ok && group(kCtxRespawnTimer, v.respawn_timer == b.respawn_timer,
                     [&] { return serialize_u16(s, v.respawn_timer, kRespawnTicks); });
    ok = ok && group(kCtxScore, v.score == b.score, [&] { return serialize_i32_raw(s, v.score); });
    ok = ok && group(kCtxDeaths, v.deaths == b.deaths, [&] { return serialize_i32_raw(s, v.deaths); });
    if (!ok) return false;

    // The owner-only part.
    static constexpr EntitySnapshot kNone{};
    bool owner_part = !same_owner_fields(v, base != nullptr ? *base : kNone);
    rwd::wire::set_context(s, kCtxOwner);
    if (!serialize_bool(s, owner_part)) return false;
    if (!owner_part) return true;  // the reader already holds them (the base's, or zero)
    ok = group(kCtxOwner, v.ammo == b.ammo,
               [&] { return serialize_int(s, v.ammo, std::uint8_t{0}, kRifleMagazine); });
    ok = ok && group(kCtxOwner, v.fire_cooldown == b.fire_cooldown,
                     [&] { return serialize_u16(s, v.fire_cooldown, kRifleInterval); });
    ok = ok && group(kCtxOwner, v.alt_cooldown == b.alt_cooldown,
                     [&] { return serialize_u16(s, v.alt_cooldown, kRocketCooldown); });
    ok = ok && group(kCtxOwner, v.reload_timer == b.reload_timer,
                     [&] { return serialize_u16(s, v.reload_timer, kReloadTicks); });
    ok = ok && group(kCtxOwner, v.dash_cooldown == b.dash_cooldown,
                     [&] { return serialize_u16(s, v.dash_cooldown, kDashCooldown); });
    ok = ok && group(kCtxOwner, v.shots == b.shots, [&] { return serialize_u16(s, v.shots, 0xFFFF); });
    ok = ok && group(kCtxOwner, v.rng == b.rng, [&] {
             return rwd::wire::serialize_uint64(s, v.rng[0]) && rwd::wire::serialize_uint64(s, v.rng[1]);
         });
    if constexpr (Stream::is_reading) {
        // One encoding per value: "changed" with nothing changed (or "present" with all zero) is refused.
        if (ok && same_owner_fields(v, base != nullptr ? *base : kNone))
            s.fail(rwd::Errc::malformed), ok = false;
    }
    return ok;
}

/// Position in [0, kArenaSize] and velocity in [-kMaxSpeed, kMaxSpeed], in full.
template <class Stream>
bool serialize_motion(Stream& s, EntitySnapshot& v) {
    using rwd::wire::serialize_int;
    return serialize_int(s, v.x, 0, kArenaSize) && serialize_int(s, v.y, 0, kArenaSize) &&
           serialize_int(s, v.vx, -kMaxSpeed, kMaxSpeed) && serialize_int(s, v.vy, -kMaxSpeed, kMaxSpeed);
}

/// The kind-specific fields that are not motion: player rest, or projectile owner and ttl.
template <class Stream>
bool serialize_kind_fields(Stream& s, EntitySnapshot& v, const EntitySnapshot* base) {
    using rwd::wire::serialize_bool;
    using rwd::wire::serialize_int;
    if (v.kind == EntityKind::kPlayer) return serialize_player_rest(s, v, base);
    rwd::wire::set_context(s, kCtxProjectile);
    if (base != nullptr) {
        bool changed = v.owner != base->owner;
        if (!serialize_bool(s, changed)) return false;
        if (changed && !serialize_int(s, v.owner, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}))
            return false;
        changed = v.ttl != base->ttl;
        if (!serialize_bool(s, changed)) return false;
        return !changed || serialize_u16(s, v.ttl, kRocketTtl);
    }
    return serialize_int(s, v.owner, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}) &&
           serialize_u16(s, v.ttl, kRocketTtl);
}

}  // namespace detail

/// Reads, writes or measures one entity in full: kind, motion, then the kind's own fields. Values outside the
/// grid ranges fail the stream (on read: attacker data is rejected, never clamped silently).
template <class Stream>
bool serialize(Stream& s, EntitySnapshot& v) {
    if constexpr (Stream::is_reading) v = EntitySnapshot{};
    rwd::wire::set_context(s, kCtxFull);
    return rwd::wire::serialize_enum(s, v.kind, EntityKind::kProjectile) && detail::serialize_motion(s, v) &&
           detail::serialize_kind_fields(s, v, nullptr);
}

/// Reads, writes or measures one entity against a base both sides hold: one bit per unchanged group,
/// positions and velocities relative to the base (small moves cost 5-10 bits), a changed kind in full.
template <class Stream>
bool serialize_delta(Stream& s, EntitySnapshot& v, const EntitySnapshot& base) {
    using rwd::wire::serialize_bool;
    rwd::wire::set_context(s, kCtxHeader);
    bool same_kind = v.kind == base.kind;
    if (!serialize_bool(s, same_kind)) return false;
    if (!same_kind) return serialize(s, v);
    if constexpr (Stream::is_reading) v = base;
    bool moved = v.x != base.x || v.y != base.y || v.vx != base.vx || v.vy != base.vy;
    if (!serialize_bool(s, moved)) return false;
    if (moved) {
        // x and y share one model, vx and vy another (each starts a fresh ordinal run).
        const auto residual = [&](std::uint32_t ctx, std::int32_t ref, std::int32_t& field) {
            rwd::wire::set_context(s, ctx);
            return rwd::wire::serialize_relative(s, ref, field);
        };
        const bool ok = residual(kCtxPosition, base.x, v.x) && residual(kCtxPosition, base.y, v.y) &&
                        residual(kCtxVelocity, base.vx, v.vx) && residual(kCtxVelocity, base.vy, v.vy);
        if (!ok) return false;
        if constexpr (Stream::is_reading) {
            // Relative coding can express any int32: hold decoded values to the same ranges as the full form.
            if (v.x < 0 || v.x > kArenaSize || v.y < 0 || v.y > kArenaSize || v.vx < -kMaxSpeed ||
                v.vx > kMaxSpeed || v.vy < -kMaxSpeed || v.vy > kMaxSpeed) {
                s.fail(rwd::Errc::value_out_of_range);
                return false;
            }
        }
    }
    return detail::serialize_kind_fields(s, v, &base);
}

}  // namespace arena
