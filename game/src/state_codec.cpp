/// The arena's whole-state codec (desync forensics dumps), compiled once for every stream type rewind
/// serializes with.
#include <array>
#include <bit>
#include <cstdint>

#include <rewind/core/rng.hpp>
#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream_list.hpp>

#include "arena/state_serialize.hpp"

namespace arena {
namespace detail {
namespace {

/// Any integer field of up to 32 bits, at full width (bit pattern preserved).
template <class Stream, class T>
bool serialize_raw(Stream& s, T& v) {
    static_assert(sizeof(T) <= 4, "use serialize_uint64 for wider fields");
    using U = std::make_unsigned_t<T>;
    std::uint32_t u = static_cast<U>(v);
    if (!rwd::wire::serialize_bits(s, u, static_cast<int>(8 * sizeof(T)))) return false;
    if constexpr (Stream::is_reading) v = static_cast<T>(static_cast<U>(u));
    return true;
}

/// A generator's 128-bit state.
template <class Stream>
bool serialize_rng(Stream& s, rwd::Rng& rng) {
    auto words = std::bit_cast<std::array<std::uint64_t, 2>>(rng);
    if (!rwd::wire::serialize_uint64(s, words[0]) || !rwd::wire::serialize_uint64(s, words[1])) return false;
    if constexpr (Stream::is_reading) rng = std::bit_cast<rwd::Rng>(words);
    return true;
}

/// One player, every field.
template <class Stream>
bool serialize_player(Stream& s, Player& p) {
    return serialize_rng(s, p.rng) && serialize_raw(s, p.x) && serialize_raw(s, p.y) &&
           serialize_raw(s, p.vx) && serialize_raw(s, p.vy) && serialize_raw(s, p.score) &&
           serialize_raw(s, p.deaths) && serialize_raw(s, p.aim) && serialize_raw(s, p.hp) &&
           serialize_raw(s, p.fire_cooldown) && serialize_raw(s, p.alt_cooldown) &&
           serialize_raw(s, p.reload_timer) && serialize_raw(s, p.dash_timer) &&
           serialize_raw(s, p.dash_cooldown) && serialize_raw(s, p.respawn_timer) &&
           serialize_raw(s, p.shots) && serialize_raw(s, p.ammo) && serialize_raw(s, p.flags) &&
           serialize_raw(s, p.reserved);
}

/// One projectile slot, every field.
template <class Stream>
bool serialize_projectile(Stream& s, Projectile& pr) {
    return serialize_raw(s, pr.x) && serialize_raw(s, pr.y) && serialize_raw(s, pr.vx) &&
           serialize_raw(s, pr.vy) && serialize_raw(s, pr.ttl) && serialize_raw(s, pr.serial);
}

/// One logged hit, every field at full width.
template <class Stream>
bool serialize_hit(Stream& s, HitRecord& h) {
    return serialize_raw(s, h.shooter) && serialize_raw(s, h.target) && serialize_raw(s, h.damage) &&
           serialize_raw(s, h.flags);
}

}  // namespace
}  // namespace detail

template <class Stream>
bool serialize(Stream& s, State& st) {
    if (!detail::serialize_raw(s, st.tick) || !detail::serialize_raw(s, st.hit_count) ||
        !detail::serialize_raw(s, st.reserved) || !detail::serialize_rng(s, st.match_rng)) {
        return false;
    }
    for (Player& p : st.players) {
        if (!detail::serialize_player(s, p)) return false;
    }
    for (auto& ring : st.projectiles) {
        for (Projectile& pr : ring) {
            if (!detail::serialize_projectile(s, pr)) return false;
        }
    }
    for (HitRecord& h : st.hits) {
        if (!detail::serialize_hit(s, h)) return false;
    }
    return true;
}

#define ARENA_STATE_CODEC(S) template bool serialize<S>(S&, State&);
RWD_WIRE_FOR_EACH_STREAM(ARENA_STATE_CODEC)
#undef ARENA_STATE_CODEC

}  // namespace arena
