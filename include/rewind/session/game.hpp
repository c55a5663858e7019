/// The game contract: the C++20 concepts a game traits struct G satisfies to run on rewind's sessions.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/sync/entity_delta.hpp>
#include <rewind/sync/view_time.hpp>
#include <rewind/wire/stream.hpp>

#include <array>
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rwd {

namespace wire {
class RangeModel;
}  // namespace wire

/// A type serialize()-able (found by ADL) through all three wire streams, the same function for each.
template <class T>
concept WireSerializable = requires(wire::WriteStream& w, wire::ReadStream& r, wire::MeasureStream& m, T& v) {
    { serialize(w, v) } -> std::same_as<bool>;
    { serialize(r, v) } -> std::same_as<bool>;
    { serialize(m, v) } -> std::same_as<bool>;
};

/// A game whose step takes no lag-compensation targets: `static void step(State&, std::span<const Input>)`.
template <class G>
concept StepsPlain = requires(typename G::State& s, std::span<const typename G::Input> inputs) {
    G::step(s, inputs);
};
/// A game whose step takes the targets rewound for its shooters (nullptr when none is):
/// `static void step(State&, std::span<const Input>, const RewoundTargets<G>*)`.
template <class G>
concept StepsRewound = requires(typename G::State& s, std::span<const typename G::Input> inputs,
                                const RewoundTargets<G>* rewound) {
    G::step(s, inputs, rewound);
};

/// Optional hooks for a State that is not trivially copyable (a world on the heap): `using SavedState`
/// (default-constructible), `save_state(const State&, SavedState&)` and `load_state(const SavedState&,
/// State&)`, which replace the copy of State in every rollback save and load (docs/GUIDE.md, "Heap
/// state"). load_state(save_state(s)) must step exactly like s.
template <class G>
concept HasStateSaveLoad = requires {
    typename G::SavedState;
}
&&std::default_initializable<typename G::SavedState>&& requires(const typename G::State& s,
                                                                typename G::State& into,
                                                                typename G::SavedState& out,
                                                                const typename G::SavedState& in) {
    G::save_state(s, out);
    G::load_state(in, into);
};

/// The base of every sync model (rollback, lockstep, client-server): a pure, deterministic step over flat
/// data (docs/GUIDE.md, "The simulation").
///   static constexpr int kMaxPlayers;        slots 0..kMaxPlayers-1
///   using State;                             checksummed, copyable: trivially copyable (flat, no pointers),
///   or with
///                                            the save/load hooks above (rollback only)
///   using Input;                             trivially copyable, ==, Input{} is the neutral input
///   static void step(State&, std::span<const Input>) (size kMaxPlayers); a client-server game with lag
///   compensation takes a third parameter, const RewoundTargets<G>* (nullptr when no shot is rewound);
///   static std::uint64_t checksum(const State&);
///   ADL: template <class Stream> bool serialize(Stream&, Input&);   quantized, lossless for valid inputs
template <class G>
concept DeterministicGame = requires {
    { G::kMaxPlayers } -> std::convertible_to<int>;
    typename G::State;
    typename G::Input;
}
&&(G::kMaxPlayers > 0) && std::copyable<typename G::State>&& std::default_initializable<typename G::State> &&
    (std::is_trivially_copyable_v<typename G::State> ||
     HasStateSaveLoad<G>)&&std::is_trivially_copyable_v<typename G::Input>&& std::
        default_initializable<typename G::Input>&& std::equality_comparable<typename G::Input> &&
    (StepsPlain<G> || StepsRewound<G>)&&requires(const typename G::State& cs) {
    { G::checksum(cs) } -> std::same_as<std::uint64_t>;
}
&&WireSerializable<typename G::Input>;

/// Optional for rollback desync forensics: the whole State can go through the wire streams.
template <class G>
concept StateSerializable = DeterministicGame<G> && WireSerializable<typename G::State>;

/// Optional for rollback desync forensics: G::describe_diff(a, b, out) appends a field-by-field diff text.
template <class G>
concept DescribesDiff = DeterministicGame<G> && requires(const typename G::State& a, std::string& out) {
    G::describe_diff(a, a, out);
};

/// An authoritative-server game: seats. The client-server sessions copy the State (the client keeps one per
/// predicted tick, the server one per recorded tick), so it must be copyable; a world on the heap (a
/// std::vector of entities) is fine, at the price of its copies. `add_player(State&, slot)` and
/// `remove_player(State&, slot)` (nothing of a removed player stays). Optional (game_hooks.hpp): sanitize,
/// lag compensation.
template <class G>
concept ServerGame = DeterministicGame<G> && std::copyable<typename G::State> &&
    requires(typename G::State& s, int slot) {
    G::add_player(s, slot);
    G::remove_player(s, slot);
};

/// Optional hooks of a ServerGame: `player_away(State&, slot)` when the link of the player in `slot` is lost
/// and the server holds its seat (ServerConfig::seat_grace), `player_back(State&, slot)` when it comes back.
/// Without them an away player stays in the world as it was, driven by a default Input (standing still).
template <class G>
concept HasPlayerAway = requires(typename G::State& s, int slot) {
    G::player_away(s, slot);
};
/// See HasPlayerAway.
template <class G>
concept HasPlayerBack = requires(typename G::State& s, int slot) {
    G::player_back(s, slot);
};

/// Optional hook of a ServerGame: `static Input sanitize(const Input&, std::uint32_t& violations)` clamps a
/// client's input to what a legitimate client can send and counts what it had to change. Without it the
/// decoded input is used as it is (the wire format still bounds every field).
template <class G>
concept HasInputSanitizer = requires(const typename G::Input& in, std::uint32_t& violations) {
    { G::sanitize(in, violations) } -> std::same_as<typename G::Input>;
};

/// Optional hooks of a ServerGame, all or none: lag compensation for hitscan (docs/GUIDE.md, "Lag
/// compensation"). `using Hitbox` (trivially copyable), `capture_hitboxes(State, span<Hitbox> size
/// kMaxPlayers)`, `lerp_hitbox(a, b, t_q16 in [0, 65536])`, `fires(in)`, `view_time(in, tick)`,
/// `set_view_time(in, tick, ViewTime)`, and the step that takes RewoundTargets<G>. Without them shots are
/// judged in the server's present and the client sends no view time.
template <class G>
concept HasLagCompensation = ServerGame<G> && StepsRewound<G> && requires {
    typename G::Hitbox;
} && std::is_trivially_copyable_v<typename G::Hitbox> && std::default_initializable<typename G::Hitbox> &&
    requires(const typename G::State& cs, typename G::Input& in, const typename G::Input& cin,
             std::span<typename G::Hitbox> boxes, const typename G::Hitbox& hb, std::uint32_t t_q16,
             Tick tick, ViewTime view) {
    G::capture_hitboxes(cs, boxes);
    { G::lerp_hitbox(hb, hb, t_q16) } -> std::same_as<typename G::Hitbox>;
    { G::fires(cin) } -> std::convertible_to<bool>;
    { G::view_time(cin, tick) } -> std::same_as<ViewTime>;
    G::set_view_time(in, tick, view);
};

/// Optional hook of a game with lag compensation: `static void stamp_shot(Input&, const State& predicted, int
/// slot)`. The client calls it for every input that fires, with the world it predicted from that input (after
/// the tick's step), before the input is kept and sent: the game may record in the input where the shooter
/// stood, so that its step fires from there when the server's shooter is within a bound the game checks. A
/// shooter whose own prediction was off (pushed by players it could not predict) then hits what its screen
/// showed.
template <class G>
concept HasShotStamp = HasLagCompensation<G> &&
    requires(typename G::Input& in, const typename G::State& s, int slot) {
    G::stamp_shot(in, s, slot);
};

/// A client-server snapshot game (implies ServerGame): entities with stable ids, captured from and restored
/// into a State (docs/GUIDE.md, "Replication").
///   using EntitySnapshot (trivially copyable, ==, on the wire grid); struct EntityRecord { uint32 id; snap;
///   }; capture(State, vector<EntityRecord>&) sorted by id; restore(State&, span<const EntityRecord>);
///   player_entity(slot); ADL: serialize(Stream&, EntitySnapshot&).
/// Optional (game_hooks.hpp): interpolate, serialize_delta, diff_fields and field_name, position_error_q,
/// kMetersPerUnit, render_position_m and with_render_offset, capture_entity, and the snapshot hooks below.
template <class G>
concept ReplicatedGame = ServerGame<G> && requires {
    typename G::EntitySnapshot;
    typename G::EntityRecord;
} && std::is_trivially_copyable_v<typename G::EntitySnapshot> &&
    std::equality_comparable<typename G::EntitySnapshot> && WireSerializable<typename G::EntitySnapshot> &&
    requires(typename G::EntityRecord rec) {
    { rec.id } -> std::convertible_to<std::uint32_t>;
    { rec.snap } -> std::convertible_to<typename G::EntitySnapshot>;
} && requires(typename G::State& s, const typename G::State& cs, std::vector<typename G::EntityRecord>& out,
              std::span<const typename G::EntityRecord> records, int slot) {
    G::capture(cs, out);
    G::restore(s, records);
    { G::player_entity(slot) } -> std::convertible_to<std::uint32_t>;
};

/// Optional hook of a ReplicatedGame: `remote_input(const State&, slot) -> Input`, the input a client's
/// prediction gives the remote player in `slot` for the tick about to be predicted from that state (the
/// client never knows the others' real inputs). A good guess keeps what the player was doing (the arena
/// holds the stick along its velocity), so the local player's contacts with the others come out where the
/// server has them. Without it remote players are predicted with a default Input (standing still).
template <class G>
concept HasRemoteInput = requires(const typename G::State& s, int slot) {
    { G::remote_input(s, slot) } -> std::same_as<typename G::Input>;
};

/// Optional hook of a ReplicatedGame: `capture_entity(const State&, uint32 id) ->
/// std::optional<EntitySnapshot>`, what capture() lists for entity `id` (nullopt when it lists none), without
/// capturing the rest. The client then keeps only its own player's snapshot of each predicted tick, not
/// kHistory whole worlds, and finds its player without capturing the world. Without it the client keeps the
/// worlds and captures them.
template <class G>
concept HasCaptureEntity = requires(const typename G::State& s, std::uint32_t id) {
    { G::capture_entity(s, id) } -> std::same_as<std::optional<typename G::EntitySnapshot>>;
};

/// Optional hook of a ReplicatedGame: `interpolate(a, b, float t)` for t in [0, 1], what remote entities are
/// drawn at between two snapshots. Without it an entity holds the newer snapshot's value
/// (rwd::lerp_linear() helps with linear fields).
template <class G>
concept HasInterpolation = requires(const typename G::EntitySnapshot& a, float t) {
    { G::interpolate(a, a, t) } -> std::same_as<typename G::EntitySnapshot>;
};

/// Optional hooks of a ReplicatedGame, both or none: `diff_fields(a, b)` (bitmask of the fields that differ)
/// and `field_name(bit)`, for the corrections log. Without them a correction reports bit 0, "entity".
template <class G>
concept HasFieldDiff = requires(const typename G::EntitySnapshot& a, int bit) {
    { G::diff_fields(a, a) } -> std::convertible_to<std::uint32_t>;
    { G::field_name(bit) } -> std::convertible_to<std::string_view>;
};

/// Optional hook of a ReplicatedGame: `position_error_q(a, b)`, the distance between two entities in grid
/// units, for the size of a correction. Without it a correction's size is unknown (0).
template <class G>
concept HasPositionError = requires(const typename G::EntitySnapshot& a) {
    { G::position_error_q(a, a) } -> std::convertible_to<std::int64_t>;
};

/// Optional constant of a ReplicatedGame: `static constexpr double kMetersPerUnit`, metres per grid unit
/// (the area of interest's radius, correction sizes). Without it a grid unit is a metre.
template <class G>
concept HasMetersPerUnit = requires {
    { G::kMetersPerUnit } -> std::convertible_to<double>;
};

/// Optional hooks of a ReplicatedGame, both or none: the client's correction smoothing.
/// `render_position_m(e) -> std::array<double, 3>` (metres; 2D games leave z at 0) and
/// `with_render_offset(e, std::array<double, 3> offset_m)` -> e drawn moved by the offset. Without them a
/// corrected player is drawn where the correction put it at once.
template <class G>
concept HasRenderOffset = requires(const typename G::EntitySnapshot& a) {
    { G::render_position_m(a) } -> std::same_as<std::array<double, 3>>;
    { G::with_render_offset(a, std::array<double, 3>{}) } -> std::same_as<typename G::EntitySnapshot>;
};

/// Optional hook of a ReplicatedGame: ADL `serialize_delta(Stream&, EntitySnapshot&, const EntitySnapshot&
/// base)`, an entity coded against a reference both sides hold. Without it a changed entity is sent whole
/// (its serialize()).
template <class G>
concept HasDeltaCodec = sync::HasSerializeDelta<typename G::EntitySnapshot>;

/// Optional hook of a ReplicatedGame: G::predict_entity(snap, ticks) -> snap advanced by `ticks` (0..65535)
/// with no input (deterministic integer math: the server and every client must compute it bit for bit
/// alike). Snapshots code each entity against its acknowledged baseline advanced this way, so an entity that
/// moves as predicted costs one bit however old the baseline is.
template <class G>
concept HasEntityPrediction = requires(const typename G::EntitySnapshot& e, std::int32_t ticks) {
    { G::predict_entity(e, ticks) } -> std::same_as<typename G::EntitySnapshot>;
};

/// Optional hook of a ReplicatedGame: G::remote_view(snap) -> snap as every client but the one that controls
/// it receives it: the game's owner-only fields (what only the owner's prediction needs, nothing the others
/// draw) set to a neutral value, so they cost nothing on the wire. The owner receives the entity whole.
template <class G>
concept HasRemoteView = requires(const typename G::EntitySnapshot& e) {
    { G::remote_view(e) } -> std::same_as<typename G::EntitySnapshot>;
};

/// Optional hook of a ReplicatedGame: G::snapshot_model() -> the starting probabilities of the range coder
/// that codes its entity lists (wire::RangeModel, trained on the game's own traffic with
/// wire::RangeModelTrainer, e.g. through SnapshotConfig::range_trainer). Part of the game's wire format:
/// server and client must return the same table. Without it every model starts at 1/2.
template <class G>
concept HasSnapshotModel = requires {
    { G::snapshot_model() } -> std::same_as<const wire::RangeModel&>;
};

}  // namespace rwd
