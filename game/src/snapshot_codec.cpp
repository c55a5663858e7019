/// The arena's entity codec (full and delta forms), compiled once for every stream type rewind serializes
/// with.
#include <array>
#include <cstdint>

#include <rewind/wire/context.hpp>
#include <rewind/wire/residual.hpp>
#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream_list.hpp>

#include "arena/constants.hpp"
#include "arena/snapshot.hpp"
#include "arena/state.hpp"

namespace arena {
namespace detail {
namespace {

/// A player's aim: in full, or on a context-modelling stream in delta mode as the residual from the base's
/// aim the short way round the circle (in [-32768, 32767]), which a player tracking a target keeps small.
template <class Stream>
bool serialize_aim(Stream& s, std::uint16_t& aim, const EntitySnapshot* base) {
    if constexpr (rwd::wire::kModelsContext<Stream>) {
        if (base != nullptr) {
            std::int32_t turn = static_cast<std::int16_t>(static_cast<std::uint16_t>(aim - base->aim));
            if (!rwd::wire::serialize_residual(s, kCtxAim, 0, turn, 1)) return false;  // after "changed"
            if (turn < INT16_MIN || turn > INT16_MAX) return s.fail(rwd::Errc::value_out_of_range), false;
            if constexpr (Stream::is_reading) aim = static_cast<std::uint16_t>(base->aim + turn);
            return true;
        }
    }
    return serialize_u16(s, aim, 0xFFFF);
}

/// Score and deaths in full are residuals from 0 (range-coded lists), their ordinals from here to 63.
constexpr std::uint32_t kFullCountOrdinal = 64 - rwd::wire::kResidualOrdinals;
/// A position residual's mantissa bits below its top four carry no pattern: they are uniform bits.
constexpr int kPositionModelledBits = 4;

/// A score or death count: on a context-modelling stream a residual, from the base's count in delta mode
/// (from ordinal 1, after "changed") and from 0 in full (from kFullCountOrdinal): counts are small and move
/// by one. Elsewhere 32 raw bits, as always.
template <class Stream>
bool serialize_count(Stream& s, std::uint32_t ctx, std::int32_t& v, const std::int32_t* base) {
    if constexpr (rwd::wire::kModelsContext<Stream>) {
        return rwd::wire::serialize_residual(s, ctx, base != nullptr ? *base : 0, v,
                                             base != nullptr ? 1 : kFullCountOrdinal);
    } else {
        return serialize_i32_raw(s, v);
    }
}

/// A player's generator state (PCG32): two uint64 fields, except on a range stream, which codes what each
/// word is: the state rng[0], random by design, as 64 uniform bits (low half first); the increment rng[1], a
/// small odd number fixed per player, in group kCtxGenerator as its low half (as an int32) residual from 0,
/// then "high half non-zero" and, if so, the high half as 32 uniform bits.
template <class Stream>
bool serialize_generator(Stream& s, std::array<std::uint64_t, 2>& rng) {
    if constexpr (rwd::wire::kModelsContext<Stream>) {
        using rwd::wire::serialize_uniform_bits;
        auto lo = static_cast<std::uint32_t>(rng[0]);
        auto hi = static_cast<std::uint32_t>(rng[0] >> 32);
        if (!serialize_uniform_bits(s, lo, 32) || !serialize_uniform_bits(s, hi, 32)) return false;
        if constexpr (Stream::is_reading) rng[0] = (std::uint64_t{hi} << 32) | lo;
        auto inc_lo = static_cast<std::int32_t>(static_cast<std::uint32_t>(rng[1]));
        // On read rng[1] still holds the base's: the high half is 0 unless the flag says otherwise.
        auto inc_hi = Stream::is_reading ? 0u : static_cast<std::uint32_t>(rng[1] >> 32);
        if (!rwd::wire::serialize_residual(s, kCtxGenerator, 0, inc_lo)) return false;
        rwd::wire::set_context(s, kCtxGenerator, rwd::wire::kResidualOrdinals);
        bool high = inc_hi != 0;
        if (!rwd::wire::serialize_bool(s, high)) return false;
        if (high && !serialize_uniform_bits(s, inc_hi, 32)) return false;
        if constexpr (Stream::is_reading) {
            if (high && inc_hi == 0) return s.fail(rwd::Errc::malformed), false;  // one encoding per value
            rng[1] = (std::uint64_t{inc_hi} << 32) | static_cast<std::uint32_t>(inc_lo);
        }
        return true;
    } else {
        return rwd::wire::serialize_uint64(s, rng[0]) && rwd::wire::serialize_uint64(s, rng[1]);
    }
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
    // In delta mode one "changed?" bit per field (at `delta_ordinal` of `ctx`, the value after it); the
    // reader starts from the base value and refuses "changed" to the same value (one encoding per value). In
    // full, the value alone at `full_ordinal`.
    auto field = [&](std::uint32_t ctx, std::uint32_t delta_ordinal, std::uint32_t full_ordinal, auto&& same,
                     auto&& body) {
        if (base == nullptr) {
            rwd::wire::set_context(s, ctx, full_ordinal);
            return body();
        }
        rwd::wire::set_context(s, ctx, delta_ordinal);
        bool changed = !same();
        if (!serialize_bool(s, changed)) return false;
        if (!changed) return true;
        if (!body()) return false;
        if constexpr (Stream::is_reading) {
            if (same()) return s.fail(rwd::Errc::malformed), false;
        }
        return true;
    };
    auto group = [&](std::uint32_t ctx, auto&& same, auto&& body) {
        return field(ctx, 0, kFullOrdinal, same, body);
    };
    const EntitySnapshot& b = base != nullptr ? *base : v;
    bool ok = group(
        kCtxFlags, [&] { return v.flags == b.flags; },
        [&] { return serialize_int(s, v.flags, std::uint8_t{0}, kAllPlayerFlags); });
    ok = ok && group(
                   kCtxAim, [&] { return v.aim == b.aim; }, [&] { return serialize_aim(s, v.aim, base); });
    ok = ok && group(
                   kCtxHp, [&] { return v.hp == b.hp; },
                   [&] { return serialize_int(s, v.hp, std::int16_t{0}, kMaxHp); });
    ok = ok && group(
                   kCtxDashTimer, [&] { return v.dash_timer == b.dash_timer; },
                   [&] { return serialize_u16(s, v.dash_timer, kDashTicks); });
    ok = ok && group(
                   kCtxRespawnTimer, [&] { return v.respawn_timer == b.respawn_timer; },
                   [&] { return serialize_u16(s, v.respawn_timer, kRespawnTicks); });
    ok = ok &&
         group(
             kCtxScore, [&] { return v.score == b.score; },
             [&] { return serialize_count(s, kCtxScore, v.score, base != nullptr ? &b.score : nullptr); });
    ok = ok &&
         group(
             kCtxDeaths, [&] { return v.deaths == b.deaths; },
             [&] { return serialize_count(s, kCtxDeaths, v.deaths, base != nullptr ? &b.deaths : nullptr); });
    if (!ok) return false;

    // The owner-only part: its bit, then each field in slots of its own (see kOwnerFieldOrdinals).
    static constexpr EntitySnapshot kNone{};
    bool owner_part = !same_owner_fields(v, base != nullptr ? *base : kNone);
    rwd::wire::set_context(s, kCtxOwner);
    if (!serialize_bool(s, owner_part)) return false;
    if (!owner_part) return true;  // the reader already holds them (the base's, or zero)
    std::uint32_t field_index = 0;
    auto owner = [&](auto&& same, auto&& body) {
        const std::uint32_t first = 1 + kOwnerFieldOrdinals * field_index++;
        return field(kCtxOwner, first, first + kOwnerFullOffset, same, body);
    };
    ok = owner([&] { return v.ammo == b.ammo; },
               [&] { return serialize_int(s, v.ammo, std::uint8_t{0}, kRifleMagazine); });
    ok = ok && owner([&] { return v.fire_cooldown == b.fire_cooldown; },
                     [&] { return serialize_u16(s, v.fire_cooldown, kRifleInterval); });
    ok = ok && owner([&] { return v.alt_cooldown == b.alt_cooldown; },
                     [&] { return serialize_u16(s, v.alt_cooldown, kRocketCooldown); });
    ok = ok && owner([&] { return v.reload_timer == b.reload_timer; },
                     [&] { return serialize_u16(s, v.reload_timer, kReloadTicks); });
    ok = ok && owner([&] { return v.dash_cooldown == b.dash_cooldown; },
                     [&] { return serialize_u16(s, v.dash_cooldown, kDashCooldown); });
    ok = ok && owner([&] { return v.shots == b.shots; }, [&] { return serialize_u16(s, v.shots, 0xFFFF); });
    ok = ok && owner([&] { return v.rng == b.rng; }, [&] { return serialize_generator(s, v.rng); });
    if constexpr (Stream::is_reading) {
        // One encoding per value: "changed" with nothing changed (or "present" with all zero) is refused.
        if (ok && same_owner_fields(v, base != nullptr ? *base : kNone))
            s.fail(rwd::Errc::malformed), ok = false;
    }
    return ok;
}

/// The kind-specific fields that are not motion: player rest, or projectile owner and ttl.
template <class Stream>
bool serialize_kind_fields(Stream& s, EntitySnapshot& v, const EntitySnapshot* base) {
    using rwd::wire::serialize_bool;
    using rwd::wire::serialize_int;
    if (v.kind == EntityKind::kPlayer) return serialize_player_rest(s, v, base);
    rwd::wire::set_context(s, kCtxProjectile);
    if (base != nullptr) {
        // A "changed" bit per field, and "changed" to the base value is refused (one encoding per value).
        bool changed = v.owner != base->owner;
        if (!serialize_bool(s, changed)) return false;
        if (changed && !serialize_int(s, v.owner, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}))
            return false;
        if (Stream::is_reading && changed && v.owner == base->owner)
            return s.fail(rwd::Errc::malformed), false;
        changed = v.ttl != base->ttl;
        if (!serialize_bool(s, changed)) return false;
        if (changed && !serialize_u16(s, v.ttl, kRocketTtl)) return false;
        if (Stream::is_reading && changed && v.ttl == base->ttl) return s.fail(rwd::Errc::malformed), false;
        return true;
    }
    return serialize_int(s, v.owner, std::uint8_t{0}, std::uint8_t{kMaxPlayers - 1}) &&
           serialize_u16(s, v.ttl, kRocketTtl);
}

}  // namespace
}  // namespace detail

// serialize() and serialize_delta(): documented in arena/snapshot.hpp.
template <class Stream>
bool serialize(Stream& s, EntitySnapshot& v) {
    if constexpr (Stream::is_reading) v = EntitySnapshot{};
    rwd::wire::set_context(s, kCtxFull);
    return rwd::wire::serialize_enum(s, v.kind, EntityKind::kProjectile) && detail::serialize_motion(s, v) &&
           detail::serialize_kind_fields(s, v, nullptr);
}

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
        // x and y share one model group, vx and vy another (on the bit-packing streams: relative buckets).
        using rwd::wire::serialize_residual;
        const bool ok = serialize_residual(s, kCtxPosition, base.x, v.x, 0, detail::kPositionModelledBits) &&
                        serialize_residual(s, kCtxPosition, base.y, v.y, 0, detail::kPositionModelledBits) &&
                        serialize_residual(s, kCtxVelocity, base.vx, v.vx) &&
                        serialize_residual(s, kCtxVelocity, base.vy, v.vy);
        if (!ok) return false;
        if constexpr (Stream::is_reading) {
            // "moved" with nothing moved is refused (one encoding per value). Residuals can express any
            // int32: hold decoded values to the same ranges as the full form.
            if (v.x == base.x && v.y == base.y && v.vx == base.vx && v.vy == base.vy) {
                s.fail(rwd::Errc::malformed);
                return false;
            }
            if (v.x < 0 || v.x > kArenaSize || v.y < 0 || v.y > kArenaSize || v.vx < -kMaxSpeed ||
                v.vx > kMaxSpeed || v.vy < -kMaxSpeed || v.vy > kMaxSpeed) {
                s.fail(rwd::Errc::value_out_of_range);
                return false;
            }
        }
    }
    return detail::serialize_kind_fields(s, v, &base);
}

#define ARENA_SNAPSHOT_CODEC(S)                      \
    template bool serialize<S>(S&, EntitySnapshot&); \
    template bool serialize_delta<S>(S&, EntitySnapshot&, const EntitySnapshot&);
RWD_WIRE_FOR_EACH_STREAM(ARENA_SNAPSHOT_CODEC)
#undef ARENA_SNAPSHOT_CODEC

}  // namespace arena
