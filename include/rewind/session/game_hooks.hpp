/// How the sessions call a game's optional hooks: the game's own when it has one, else the documented
/// default.
#pragma once

#include <rewind/session/game.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace rwd {

/// a + (b - a) * t rounded to the nearest integer, for a game's interpolate() of linear integer fields.
template <std::integral T>
constexpr T lerp_linear(T a, T b, float t) {
    const double v = static_cast<double>(a) + (static_cast<double>(b) - static_cast<double>(a)) * t;
    return static_cast<T>(std::llround(v));
}

namespace hooks {

/// What a rollback save holds: G::SavedState with the save/load hooks, else the State itself.
template <class G>
struct SavedStateOf {
    using type = typename G::State;  ///< a copy of the state
};
/// With the save/load hooks: the game's own save.
template <class G>
requires HasStateSaveLoad<G>
struct SavedStateOf<G> {
    using type = typename G::SavedState;  ///< the game's own save
};
/// What a rollback save holds.
template <class G>
using saved_state_t = typename SavedStateOf<G>::type;

/// Saves `s` into `out`: G::save_state(), else a copy.
template <DeterministicGame G>
void save_state(const typename G::State& s, saved_state_t<G>& out) {
    if constexpr (HasStateSaveLoad<G>)
        G::save_state(s, out);
    else
        out = s;
}

/// Loads `saved` into `s`: G::load_state(), else a copy.
template <DeterministicGame G>
void load_state(const saved_state_t<G>& saved, typename G::State& s) {
    if constexpr (HasStateSaveLoad<G>)
        G::load_state(saved, s);
    else
        s = saved;
}

/// One step of G: with the rewound targets when G's step takes them, else without (they are nullptr then
/// anyway: a game without lag compensation never has a shot rewound).
template <DeterministicGame G>
void step(typename G::State& s, std::span<const typename G::Input> inputs,
          const RewoundTargets<G>* rewound = nullptr) {
    if constexpr (StepsRewound<G>)
        G::step(s, inputs, rewound);
    else
        G::step(s, inputs);
}

/// The input the server applies: G::sanitize() (counting into `violations`), else the input as decoded.
template <ServerGame G>
typename G::Input sanitize(const typename G::Input& in, std::uint32_t& violations) {
    if constexpr (HasInputSanitizer<G>)
        return G::sanitize(in, violations);
    else
        return in;
}

/// The link of the player in `slot` is lost and its seat held: G::player_away(), else nothing.
template <ServerGame G>
void player_away(typename G::State& s, int slot) {
    if constexpr (HasPlayerAway<G>)
        G::player_away(s, slot);
    else
        (void)s, (void)slot;
}

/// The player in `slot` came back to its held seat: G::player_back(), else nothing.
template <ServerGame G>
void player_back(typename G::State& s, int slot) {
    if constexpr (HasPlayerBack<G>)
        G::player_back(s, slot);
    else
        (void)s, (void)slot;
}

/// Whether `in` fires a shot the server lag-compensates: G::fires(), else never.
template <ServerGame G>
bool fires(const typename G::Input& in) {
    if constexpr (HasLagCompensation<G>)
        return static_cast<bool>(G::fires(in));
    else
        return (void)in, false;
}

/// What a remote entity is drawn at between snapshots a and b: G::interpolate(), else b.
template <ReplicatedGame G>
typename G::EntitySnapshot interpolate(const typename G::EntitySnapshot& a,
                                       const typename G::EntitySnapshot& b, float t) {
    if constexpr (HasInterpolation<G>)
        return G::interpolate(a, b, t);
    else
        return (void)a, (void)t, b;
}

/// The fields in which two entities differ: G::diff_fields(), else bit 0 when they differ at all.
template <ReplicatedGame G>
std::uint32_t diff_fields(const typename G::EntitySnapshot& a, const typename G::EntitySnapshot& b) {
    if constexpr (HasFieldDiff<G>)
        return static_cast<std::uint32_t>(G::diff_fields(a, b));
    else
        return a == b ? 0u : 1u;
}

/// The name of field `bit`: G::field_name(), else "entity" for bit 0 (the default diff's only bit).
template <ReplicatedGame G>
std::string_view field_name(int bit) {
    if constexpr (HasFieldDiff<G>)
        return G::field_name(bit);
    else
        return bit == 0 ? std::string_view("entity") : std::string_view("unknown");
}

/// Metres per grid unit: G::kMetersPerUnit, else 1.
template <ReplicatedGame G>
constexpr double meters_per_unit() {
    if constexpr (HasMetersPerUnit<G>)
        return static_cast<double>(G::kMetersPerUnit);
    else
        return 1.0;
}

/// The distance between two entities in grid units: G::position_error_q(), else 0 (unknown).
template <ReplicatedGame G>
std::int64_t position_error_q(const typename G::EntitySnapshot& a, const typename G::EntitySnapshot& b) {
    if constexpr (HasPositionError<G>)
        return static_cast<std::int64_t>(G::position_error_q(a, b));
    else
        return (void)a, (void)b, 0;
}

/// Entity `id` of `records` (sorted by id, as capture() lists them), or nullopt.
template <ReplicatedGame G>
std::optional<typename G::EntitySnapshot> record_of(std::span<const typename G::EntityRecord> records,
                                                    std::uint32_t id) {
    const auto it = std::lower_bound(records.begin(), records.end(), id,
                                     [](const typename G::EntityRecord& e, std::uint32_t v) {
                                         return static_cast<std::uint32_t>(e.id) < v;
                                     });
    if (it == records.end() || static_cast<std::uint32_t>(it->id) != id) return std::nullopt;
    return it->snap;
}

/// What G::capture() lists for entity `id` of `s` (nullopt if nothing): G::capture_entity(), else the whole
/// world captured into `scratch` and searched.
template <ReplicatedGame G>
std::optional<typename G::EntitySnapshot> capture_entity(const typename G::State& s, std::uint32_t id,
                                                         std::vector<typename G::EntityRecord>& scratch) {
    if constexpr (HasCaptureEntity<G>) {
        return (void)scratch, G::capture_entity(s, id);
    } else {
        G::capture(s, scratch);
        return record_of<G>(std::span<const typename G::EntityRecord>(scratch), id);
    }
}

/// The input a client predicts for the remote player in `slot`: G::remote_input(), else a default Input.
template <ReplicatedGame G>
typename G::Input remote_input(const typename G::State& s, int slot) {
    if constexpr (HasRemoteInput<G>)
        return G::remote_input(s, slot);
    else
        return (void)s, (void)slot, typename G::Input{};
}

/// Where an entity is drawn, in metres: G::render_position_m(), else the origin (no smoothing then).
template <ReplicatedGame G>
std::array<double, 3> render_position_m(const typename G::EntitySnapshot& e) {
    if constexpr (HasRenderOffset<G>)
        return G::render_position_m(e);
    else
        return (void)e, std::array<double, 3>{};
}

/// `e` drawn moved by `offset_m`: G::with_render_offset(), else `e` (no smoothing).
template <ReplicatedGame G>
typename G::EntitySnapshot with_render_offset(const typename G::EntitySnapshot& e,
                                              const std::array<double, 3>& offset_m) {
    if constexpr (HasRenderOffset<G>)
        return G::with_render_offset(e, offset_m);
    else
        return (void)offset_m, e;
}

}  // namespace hooks
}  // namespace rwd
