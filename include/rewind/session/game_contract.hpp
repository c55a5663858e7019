/// The game contract checked hook by hook: each missing or mistyped hook fails with a message that names it
/// and the part of docs/GUIDE.md that explains it (the sessions assert these first).
#pragma once

#include <rewind/session/game.hpp>
#include <rewind/session/game_hooks.hpp>

#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace rwd::contract {

/// Whether G declares any of the lag-compensation hooks by name (a plain, not overloaded static function's
/// address can be taken): a mistyped optional hook must not silently become its default.
template <class G>
concept DeclaresLagCompensation = requires {
    typename G::Hitbox;
}
|| requires { &G::capture_hitboxes; }
|| requires { &G::lerp_hitbox; }
|| requires { &G::fires; }
|| requires { &G::view_time; }
|| requires { &G::set_view_time; };

/// True for a DeterministicGame; otherwise compilation stops at the first hook it lacks, with a message.
template <class G>
consteval bool deterministic_game() {
    static_assert(
        requires {
            { G::kMaxPlayers } -> std::convertible_to<int>;
            requires G::kMaxPlayers >
            0;
        },
        "rewind: the game needs `static constexpr int kMaxPlayers` > 0 (docs/GUIDE.md, \"The simulation\")");
    static_assert(
        requires { typename G::State; },
        "rewind: the game needs `using State` (docs/GUIDE.md, \"The simulation\")");
    static_assert(
        requires {
            requires std::copyable<typename G::State>;
            requires std::default_initializable<typename G::State>;
        },
        "rewind: State must be default-constructible and copyable (docs/GUIDE.md, \"The simulation\")");
    static_assert(
        requires { requires std::is_trivially_copyable_v<typename G::State> || HasStateSaveLoad<G>; },
        "rewind: State is not trivially copyable (flat data, no pointers): give the game `using SavedState`, "
        "`save_state(const State&, SavedState&)` and `load_state(const SavedState&, State&)` (docs/GUIDE.md, "
        "\"Heap state\")");
    static_assert(
        requires { typename G::Input; },
        "rewind: the game needs `using Input` (docs/GUIDE.md, \"The simulation\")");
    static_assert(
        requires {
            requires std::is_trivially_copyable_v<typename G::Input>;
            requires std::default_initializable<typename G::Input>;
            requires std::equality_comparable<typename G::Input>;
        },
        "rewind: Input must be trivially copyable, default-constructible (the neutral input) and comparable "
        "with == (docs/GUIDE.md, \"The simulation\")");
    static_assert(StepsPlain<G> || StepsRewound<G>,
                  "rewind: the game needs `static void step(State&, std::span<const Input>)` (docs/GUIDE.md, "
                  "\"The simulation\")");
    static_assert(
        requires(const typename G::State& s) {
            { G::checksum(s) } -> std::same_as<std::uint64_t>;
        },
        "rewind: the game needs `static std::uint64_t checksum(const State&)` (docs/GUIDE.md, \"The "
        "simulation\")");
    static_assert(
        requires { requires WireSerializable<typename G::Input>; },
        "rewind: Input needs `template <class Stream> bool serialize(Stream&, Input&)` beside it, "
        "found by ADL (docs/GUIDE.md, \"The simulation\")");
    return DeterministicGame<G>;
}

/// True for a ServerGame; otherwise compilation stops at the first hook it lacks, with a message.
template <class G>
consteval bool server_game() {
    static_assert(deterministic_game<G>());
    static_assert(std::copyable<typename G::State>,
                  "rewind: the client-server sessions copy the State: it must be copyable (docs/GUIDE.md, "
                  "\"Heap state\")");
    static_assert(
        requires(typename G::State & s, int slot) {
            G::add_player(s, slot);
            G::remove_player(s, slot);
        },
        "rewind: a client-server game needs `static void add_player(State&, int slot)` and `static void "
        "remove_player(State&, int slot)` (docs/GUIDE.md, \"Seats\")");
    static_assert(
        !requires { &G::sanitize; } || HasInputSanitizer<G>,
        "rewind: sanitize has the wrong signature: `static Input sanitize(const Input&, std::uint32_t& "
        "violations)` (docs/GUIDE.md, \"Optional hooks\")");
    static_assert(
        !DeclaresLagCompensation<G> || HasLagCompensation<G>,
        "rewind: the game declares some lag-compensation hooks but not all six with their signatures: "
        "Hitbox, capture_hitboxes, lerp_hitbox, fires, view_time, set_view_time, and the step that "
        "takes RewoundTargets (docs/GUIDE.md, \"Lag compensation\")");
    static_assert(
        !requires { &G::stamp_shot; } || HasShotStamp<G>,
        "rewind: stamp_shot needs lag compensation and the signature `static void stamp_shot(Input&, "
        "const State& predicted, int slot)` (docs/GUIDE.md, \"Lag compensation\")");
    return ServerGame<G>;
}

/// True for a ReplicatedGame; otherwise compilation stops at the first hook it lacks, with a message.
template <class G>
consteval bool replicated_game() {
    static_assert(server_game<G>());
    static_assert(
        requires {
            typename G::EntitySnapshot;
            requires std::is_trivially_copyable_v<typename G::EntitySnapshot>;
            requires std::equality_comparable<typename G::EntitySnapshot>;
        },
        "rewind: a client-server game needs `using EntitySnapshot`, trivially copyable and comparable with "
        "== "
        "(docs/GUIDE.md, \"Replication\")");
    static_assert(
        requires { requires WireSerializable<typename G::EntitySnapshot>; },
        "rewind: EntitySnapshot needs `template <class Stream> bool serialize(Stream&, "
        "EntitySnapshot&)` beside it, found by ADL (docs/GUIDE.md, \"Replication\")");
    static_assert(
        requires(typename G::EntityRecord rec) {
            { rec.id } -> std::convertible_to<std::uint32_t>;
            { rec.snap } -> std::convertible_to<typename G::EntitySnapshot>;
        },
        "rewind: a client-server game needs `struct EntityRecord { std::uint32_t id; EntitySnapshot snap; }` "
        "(docs/GUIDE.md, \"Replication\")");
    static_assert(
        requires(const typename G::State& s, std::vector<typename G::EntityRecord>& out) {
            G::capture(s, out);
        },
        "rewind: a client-server game needs `static void capture(const State&, std::vector<EntityRecord>&)` "
        "(docs/GUIDE.md, \"Replication\")");
    static_assert(
        requires(typename G::State & s, std::span<const typename G::EntityRecord> records) {
            G::restore(s, records);
        },
        "rewind: a client-server game needs `static void restore(State&, std::span<const EntityRecord>)` "
        "(docs/GUIDE.md, \"Replication\")");
    static_assert(
        requires(int slot) {
            { G::player_entity(slot) } -> std::convertible_to<std::uint32_t>;
        },
        "rewind: a client-server game needs `static std::uint32_t player_entity(int slot)` (docs/GUIDE.md, "
        "\"Replication\")");
    static_assert(!(
                      requires { &G::diff_fields; } || requires { &G::field_name; }) ||
                      HasFieldDiff<G>,
                  "rewind: diff_fields(a, b) -> bitmask and field_name(int bit) -> string_view go together "
                  "(docs/GUIDE.md, \"Optional hooks\")");
    static_assert(
        !(
            requires { &G::render_position_m; } || requires { &G::with_render_offset; }) ||
            HasRenderOffset<G>,
        "rewind: render_position_m(e) -> std::array<double, 3> and with_render_offset(e, offset_m) go "
        "together (docs/GUIDE.md, \"Optional hooks\")");
    static_assert(
        !requires { &G::interpolate; } || HasInterpolation<G>,
        "rewind: interpolate has the wrong signature: `static EntitySnapshot interpolate(const "
        "EntitySnapshot&, const EntitySnapshot&, float t)` (docs/GUIDE.md, \"Optional hooks\")");
    static_assert(
        !requires { &G::position_error_q; } || HasPositionError<G>,
        "rewind: position_error_q has the wrong signature: `static std::int64_t position_error_q(const "
        "EntitySnapshot&, const EntitySnapshot&)` (docs/GUIDE.md, \"Optional hooks\")");
    static_assert(
        !requires { &G::capture_entity; } || HasCaptureEntity<G>,
        "rewind: capture_entity has the wrong signature: `static std::optional<EntitySnapshot> "
        "capture_entity(const State&, std::uint32_t id)` (docs/GUIDE.md, \"Optional hooks\")");
    static_assert(
        !requires { &G::remote_input; } || HasRemoteInput<G>,
        "rewind: remote_input has the wrong signature: `static Input remote_input(const State&, int slot)` "
        "(docs/GUIDE.md, \"Optional hooks\")");
    return ReplicatedGame<G>;
}

}  // namespace rwd::contract
