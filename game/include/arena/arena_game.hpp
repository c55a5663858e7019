/// ArenaGame: the arena's game traits for rewind (deterministic step, server hooks, replication hooks).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <rewind/core/tick.hpp>
#include <rewind/session/client_server/message_outbox.hpp>
#include <rewind/sync/view_time.hpp>
#include <rewind/wire/range_model.hpp>

#include "arena/constants.hpp"
#include "arena/hitbox.hpp"
#include "arena/input.hpp"
#include "arena/messages.hpp"
#include "arena/snapshot.hpp"
#include "arena/state.hpp"
#include "arena/state_serialize.hpp"

namespace arena {

/// The traits struct the library's sessions are instantiated with (DeterministicGame, ServerGame,
/// ReplicatedGame).
struct ArenaGame {
    /// Player slots 0..kMaxPlayers-1.
    static constexpr int kMaxPlayers = arena::kMaxPlayers;
    /// Size of one grid unit in metres.
    static constexpr double kMetersPerUnit = 1.0 / kUnitsPerMeter;

    using State = arena::State;                    ///< the whole match
    using Input = arena::Input;                    ///< one player's input for one tick
    using Hitbox = arena::Hitbox;                  ///< a hit circle for lag compensation
    using EntitySnapshot = arena::EntitySnapshot;  ///< one replicated entity
    /// One entity with its stable id.
    struct EntityRecord {
        std::uint32_t id = 0;   ///< player slot, or projectile_entity_id()
        EntitySnapshot snap{};  ///< its replicated fields
    };

    /// Advances one tick (1/60 s). inputs.size() must be kMaxPlayers (slots without a player are ignored);
    /// `rewound` is nullptr except on a lag-compensating server. Integer-only: bit-identical everywhere.
    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<ArenaGame>* rewound);
    /// Checksum of every byte of the state.
    static std::uint64_t checksum(const State& s);
    /// Appends one line per differing field ("players[3].x: 1000 -> 1010") to `out`.
    static void describe_diff(const State& a, const State& b, std::string& out);

    /// Seats a player in `slot` and spawns it (out-of-range slots are ignored).
    static void add_player(State& s, int slot);
    /// Empties `slot`: the player and its projectiles vanish.
    static void remove_player(State& s, int slot);
    /// The arena's message types: hit markers, the kill feed, score announcements (messages.hpp).
    using Messages = rwd::client_server::MessageList<HitMessage, DeathMessage, ScoreMessage>;
    /// What one step() did, for the server to send reliably, in a fixed order: every damaging hit in the
    /// order step() applied it (a HitMessage to the two players and whoever sees one of them), then every
    /// death in slot order (a DeathMessage to everyone, with the killing blow's shooter and weapon), then
    /// every score change in slot order (a ScoreMessage to everyone). `after` must be the state step() made
    /// from `before`. Nothing on a tick without hits, deaths or score changes.
    static void collect_messages(const State& before, const State& after,
                                 rwd::client_server::MessageOutbox<ArenaGame>& out);

    /// Clamps axes, strips unknown buttons, caps the view delay; counts each change in `violations`.
    static Input sanitize(const Input& in, std::uint32_t& violations);

    /// Every slot's current hit circle (out.size() must be kMaxPlayers).
    static void capture_hitboxes(const State& s, std::span<Hitbox> out);
    /// Linear blend a -> b at t_q16/65536; across a death or respawn, the nearer endpoint.
    static Hitbox lerp_hitbox(const Hitbox& a, const Hitbox& b, std::uint32_t t_q16);
    /// True if the input pulls the rifle (hitscan) trigger.
    static bool fires(const Input& in);
    /// Records in `in` where the player in `slot` stood when its rifle fired in the client's `predicted`
    /// world (after the tick's step; nothing when no round left): step() fires from there when it lies within
    /// kMaxShotOffset of the shooter, with no wall between.
    static void stamp_shot(Input& in, const State& predicted, int slot);
    /// The view time stamped into an input sent for `input_tick`.
    static rwd::ViewTime view_time(const Input& in, rwd::Tick input_tick);
    /// Stamps the view time into an input for `input_tick` (delays beyond kMaxViewDelay are capped).
    static void set_view_time(Input& in, rwd::Tick input_tick, rwd::ViewTime v);

    /// Every entity (players, then projectiles), sorted by id.
    static void capture(const State& s, std::vector<EntityRecord>& out);
    /// The record capture() lists for entity `id`, nullopt if none (the client's own player each tick).
    static std::optional<EntitySnapshot> capture_entity(const State& s, std::uint32_t id);
    /// A state for client prediction from entities (untrusted: ids and values are checked and clamped).
    static void restore(State& s, std::span<const EntityRecord> entities);
    /// Entity id of the player in `slot`.
    static std::uint32_t player_entity(int slot) { return player_entity_id(slot); }
    /// `e` advanced by `ticks` with no input (straight motion at its velocity, timers counting down): the
    /// reference each snapshot entity is coded against, so a player running straight costs one bit.
    static EntitySnapshot predict_entity(const EntitySnapshot& e, std::int32_t ticks);
    /// `e` as every client but its owner receives it: a player's ammo, cooldowns, reload, shot count and
    /// (while alive) generator zeroed, as nothing of them is drawn or predicted for another player.
    static EntitySnapshot remote_view(const EntitySnapshot& e);
    /// What a client's prediction gives the remote player in `slot`: the stick held along its velocity at the
    /// share of top speed it moves at, rounded to the stick's nearest step (so it runs on as it ran, slightly
    /// damped; above top speed, as after a dash, friction slows it as step() does), its aim kept, no
    /// buttons. Neutral for an empty seat or a dead player. Inline: a client's prediction asks it for every
    /// seat on every predicted tick.
    static Input remote_input(const State& s, int slot) {
        Input in{};
        if (slot < 0 || slot >= kMaxPlayers) return in;
        const Player& p = s.players[static_cast<std::size_t>(slot)];
        if (!p.alive()) return in;
        // update_velocity() steers towards stick * kTopSpeed / kAxisMax (truncated towards zero): this stick
        // asks for the player's velocity rounded to the stick's nearest 1/127 step, so a speed between two
        // steps loses up to a unit a tick until it sits on one (a slightly damped run-on; a very slow mover
        // comes to rest), and a diagonal over kAxisMax is normalised by step().
        const auto axis = [](std::int32_t v) {
            const std::int64_t scaled = std::int64_t{v} * kAxisMax;
            const std::int64_t rounded =
                (scaled >= 0 ? scaled + kTopSpeed / 2 : scaled - kTopSpeed / 2) / kTopSpeed;
            return static_cast<std::int8_t>(rounded < -kAxisMax ? -kAxisMax
                                                                : (rounded > kAxisMax ? kAxisMax : rounded));
        };
        in.move_x = axis(p.vx);
        in.move_y = axis(p.vy);
        in.aim = p.aim;
        return in;
    }
    /// The range coder's starting table for the arena's entity lists: trained on the lab's 64-player matches
    /// (game/src/snapshot_model_table.cpp, regenerated by `rewind-lab --train-snapshot-model FILE`).
    static const rwd::wire::RangeModel& snapshot_model();
    /// Blend for rendering, t in [0, 1] (clamped): positions linearly, aim the short way round, the rest from
    /// the nearer end.
    static EntitySnapshot interpolate(const EntitySnapshot& a, const EntitySnapshot& b, float t);
    /// Bitmask of differing field groups (SnapshotField).
    static std::uint32_t diff_fields(const EntitySnapshot& a, const EntitySnapshot& b) {
        return arena::diff_fields(a, b);
    }
    /// Name of a SnapshotField bit.
    static std::string_view field_name(int bit) { return arena::field_name(bit); }
    /// Distance between two entities' positions in grid units.
    static std::int64_t position_error_q(const EntitySnapshot& a, const EntitySnapshot& b);
    /// Render only: the entity's centre in metres (z = 0).
    static std::array<double, 3> render_position_m(const EntitySnapshot& e);
    /// Render only: `e` drawn moved by `offset_m` (x, y in metres, rounded to the grid; z ignored; not
    /// clamped to the arena, so the drawn motion stays continuous). Never fed back into step().
    static EntitySnapshot with_render_offset(const EntitySnapshot& e, std::array<double, 3> offset_m);
};

/// A match of `seed` with slots 0..players-1 seated: what every rollback peer, and a replay of the match
/// (docs/REPLAY.md), starts from.
State new_seated_match(std::uint64_t seed, int players);

}  // namespace arena
