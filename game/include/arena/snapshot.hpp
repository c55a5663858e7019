/// Replication: one entity (player or projectile) as the server sends it, with full and delta encodings.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

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
    kCtxGenerator,     ///< the generator's increment (the owner part's rng[1])
};

/// Model ordinals inside a field's group (range-coded lists): a field's full form and its delta form code
/// different things, so they use different slots. Delta mode: the "changed" bit at ordinal 0, the value
/// from ordinal 1; full form: the value from ordinal kFullOrdinal. (Score and deaths are residuals, which
/// need 36 ordinals each: the delta's from 1 to 36, the full form's from 28 to 63; they share slots 28..36
/// only for a difference of 2^24 or more, which costs nothing but compression.) The owner-only part's group
/// holds its "present/changed" bit at 0, then field k's block of kOwnerFieldOrdinals from 1 + 9k: "changed"
/// at its first ordinal and the value after it, or in full the value from kOwnerFullOffset (the generator's
/// words take no slot of this group on a range stream: uniform bits and group kCtxGenerator; the bit-packed
/// streams have no slots).
inline constexpr std::uint32_t kFullOrdinal = 48;
inline constexpr std::uint32_t kOwnerFieldOrdinals = 9;
inline constexpr std::uint32_t kOwnerFullOffset = 5;
static_assert(1 + kOwnerFieldOrdinals * 6 + kOwnerFullOffset + 3 < 64, "the owner part's slots fit a group");

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

/// Position in [0, kArenaSize] and velocity in [-kMaxSpeed, kMaxSpeed], in full.
template <class Stream>
bool serialize_motion(Stream& s, EntitySnapshot& v) {
    using rwd::wire::serialize_int;
    return serialize_int(s, v.x, 0, kArenaSize) && serialize_int(s, v.y, 0, kArenaSize) &&
           serialize_int(s, v.vx, -kMaxSpeed, kMaxSpeed) && serialize_int(s, v.vy, -kMaxSpeed, kMaxSpeed);
}

}  // namespace detail

/// Reads, writes or measures one entity in full: kind, motion, then the kind's own fields. Values outside the
/// grid ranges fail the stream (on read: attacker data is rejected, never clamped silently).
template <class Stream>
bool serialize(Stream& s, EntitySnapshot& v);

/// Reads, writes or measures one entity against a base both sides hold: one bit per unchanged group,
/// positions and velocities as residuals from the base (wire::serialize_residual: small moves cost 5-10
/// bits), a changed kind in full.
/// Both are defined and instantiated for every library stream (RWD_WIRE_FOR_EACH_STREAM) in
/// snapshot_codec.cpp.
template <class Stream>
bool serialize_delta(Stream& s, EntitySnapshot& v, const EntitySnapshot& base);

}  // namespace arena
