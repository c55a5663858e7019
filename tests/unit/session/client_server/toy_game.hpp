/// ToyGame: a tiny ReplicatedGame/ServerGame for the client-server tests (move on a grid, hitscan to the
/// right).
#pragma once

#include <rewind/core/checksum.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/session/client_server/message_outbox.hpp>
#include <rewind/session/game.hpp>
#include <rewind/wire/serialize.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>
#include <vector>

namespace toy {

/// A shooter hit `hits` targets this tick (to everyone, reliable).
struct HitMessage {
    static constexpr rwd::client_server::MessageSpec kMessage{
        "toy_hit", rwd::client_server::MessageDirection::to_client,
        rwd::client_server::MessageDelivery::reliable, 4};
    std::uint8_t shooter = 0;  ///< slot 0..7
    std::uint8_t hits = 0;     ///< targets hit, 1..7
    friend bool operator==(const HitMessage&, const HitMessage&) = default;
};

/// HitMessage fields.
template <class Stream>
bool serialize(Stream& s, HitMessage& m) {
    using rwd::wire::serialize_int;
    return serialize_int(s, m.shooter, std::uint8_t{0}, std::uint8_t{7}) &&
           serialize_int(s, m.hits, std::uint8_t{1}, std::uint8_t{7});
}

/// A shooter's position flash (to everyone, unreliable: stale by the time a resend would land).
struct FlashMessage {
    static constexpr rwd::client_server::MessageSpec kMessage{
        "toy_flash", rwd::client_server::MessageDirection::to_client,
        rwd::client_server::MessageDelivery::unreliable, 4};
    std::uint8_t shooter = 0;  ///< slot 0..7
    std::uint8_t hits = 0;     ///< targets hit, 1..7
    friend bool operator==(const FlashMessage&, const FlashMessage&) = default;
};

/// FlashMessage fields.
template <class Stream>
bool serialize(Stream& s, FlashMessage& m) {
    using rwd::wire::serialize_int;
    return serialize_int(s, m.shooter, std::uint8_t{0}, std::uint8_t{7}) &&
           serialize_int(s, m.hits, std::uint8_t{1}, std::uint8_t{7});
}

/// The toy game's traits.
struct ToyGame {
    static constexpr int kMaxPlayers = 8;
    static constexpr std::int32_t kSpeed = 40;        ///< grid units per tick at full axis
    static constexpr std::int32_t kAxisMax = 100;     ///< axis value meaning 1.0
    static constexpr std::int32_t kBound = 100000;    ///< positions stay in [-kBound, kBound]
    static constexpr std::int32_t kRadius = 100;      ///< hitbox radius
    static constexpr std::int32_t kFireCooldown = 6;  ///< ticks between shots
    static constexpr std::uint8_t kFire = 1;          ///< the only known button
    static constexpr double kMetersPerUnit = 0.001;

    /// One player (all int32, no padding).
    struct Player {
        std::int32_t present = 0, x = 0, y = 0, cooldown = 0, hits_taken = 0, hits_scored = 0, shots = 0;
    };
    /// The whole world.
    struct State {
        std::uint32_t tick = 0;
        std::array<Player, kMaxPlayers> players{};
    };
    /// One player's input for one tick.
    struct Input {
        std::int8_t move_x = 0, move_y = 0;
        std::uint8_t buttons = 0, reserved = 0;
        std::uint32_t view_tick = 0;
        std::uint16_t view_fraction = 0, reserved2 = 0;
        friend bool operator==(const Input&, const Input&) = default;
    };
    /// A hitbox for lag compensation.
    struct Hitbox {
        std::int32_t x = 0, y = 0, r = 0, alive = 0;
    };
    /// One replicated entity (a player).
    struct EntitySnapshot {
        std::int32_t x = 0, y = 0, cooldown = 0;
        friend bool operator==(const EntitySnapshot&, const EntitySnapshot&) = default;
    };
    /// An entity with its stable id.
    struct EntityRecord {
        std::uint32_t id = 0;
        EntitySnapshot snap{};
    };

    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<ToyGame>* rewound) {
        for (int p = 0; p < kMaxPlayers; ++p) {
            Player& pl = s.players[static_cast<std::size_t>(p)];
            if (!pl.present) continue;
            const Input& in = inputs[static_cast<std::size_t>(p)];
            pl.x = std::clamp(pl.x + in.move_x * kSpeed / kAxisMax, -kBound, kBound);
            pl.y = std::clamp(pl.y + in.move_y * kSpeed / kAxisMax, -kBound, kBound);
            if (pl.cooldown > 0) --pl.cooldown;
        }
        // Shots after movement: a hitscan to the right along the shooter's row.
        for (int p = 0; p < kMaxPlayers; ++p) {
            Player& sh = s.players[static_cast<std::size_t>(p)];
            if (!sh.present || !fires(inputs[static_cast<std::size_t>(p)]) || sh.cooldown > 0) continue;
            sh.cooldown = kFireCooldown;
            ++sh.shots;
            for (int t = 0; t < kMaxPlayers; ++t) {
                if (t == p) continue;
                Hitbox hb = box(s.players[static_cast<std::size_t>(t)]);
                if (rewound && rewound->active[static_cast<std::size_t>(p)]) {
                    if (!rewound->seen[static_cast<std::size_t>(p)][static_cast<std::size_t>(t)]) continue;
                    hb = rewound->targets[static_cast<std::size_t>(p)][static_cast<std::size_t>(t)];
                }
                if (hb.alive && hb.x > sh.x && std::abs(hb.y - sh.y) <= hb.r) {
                    ++s.players[static_cast<std::size_t>(t)].hits_taken;
                    ++sh.hits_scored;
                }
            }
        }
        ++s.tick;
    }
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s); }
    /// The toy's message types: one, the hit report.
    using Messages = rwd::client_server::MessageList<HitMessage, FlashMessage>;
    /// Hit reports to everyone: one per shooter that hit something this tick.
    static void collect_messages(const State& a, const State& b,
                                 rwd::client_server::MessageOutbox<ToyGame>& out) {
        for (int p = 0; p < kMaxPlayers; ++p) {
            const auto i = static_cast<std::size_t>(p);
            if (b.players[i].present && b.players[i].hits_scored > a.players[i].hits_scored)
                out.broadcast(HitMessage{
                    static_cast<std::uint8_t>(p),
                    static_cast<std::uint8_t>(b.players[i].hits_scored - a.players[i].hits_scored)});
        }
    }

    static void add_player(State& s, int slot) {
        s.players[static_cast<std::size_t>(slot)] = Player{};
        s.players[static_cast<std::size_t>(slot)].present = 1;
    }
    static void remove_player(State& s, int slot) { s.players[static_cast<std::size_t>(slot)] = Player{}; }
    static Input sanitize(const Input& in, std::uint32_t& violations) {
        Input out = in;
        auto clamp_axis = [&](std::int8_t v) {
            if (v > kAxisMax || v < -kAxisMax) ++violations;
            return static_cast<std::int8_t>(std::clamp<int>(v, -kAxisMax, kAxisMax));
        };
        out.move_x = clamp_axis(in.move_x);
        out.move_y = clamp_axis(in.move_y);
        if (in.buttons & ~kFire) ++violations;
        out.buttons = static_cast<std::uint8_t>(in.buttons & kFire);
        out.reserved = 0;
        out.reserved2 = 0;
        return out;
    }
    static Hitbox box(const Player& p) { return Hitbox{p.x, p.y, kRadius, p.present}; }
    static void capture_hitboxes(const State& s, std::span<Hitbox> out) {
        for (int p = 0; p < kMaxPlayers; ++p)
            out[static_cast<std::size_t>(p)] = box(s.players[static_cast<std::size_t>(p)]);
    }
    static Hitbox lerp_hitbox(const Hitbox& a, const Hitbox& b, std::uint32_t t_q16) {
        auto l = [&](std::int32_t x, std::int32_t y) {
            return static_cast<std::int32_t>(x + ((static_cast<std::int64_t>(y) - x) * t_q16) / 65536);
        };
        return Hitbox{l(a.x, b.x), l(a.y, b.y), b.r, a.alive && b.alive};
    }
    static bool fires(const Input& in) { return (in.buttons & kFire) != 0; }
    static rwd::ViewTime view_time(const Input& in, rwd::Tick) {
        return rwd::ViewTime{rwd::Tick{in.view_tick}, in.view_fraction};
    }
    static void set_view_time(Input& in, rwd::Tick, rwd::ViewTime v) {
        in.view_tick = v.from.value;
        in.view_fraction = v.fraction_q16;
    }

    static void capture(const State& s, std::vector<EntityRecord>& out) {
        out.clear();
        for (int p = 0; p < kMaxPlayers; ++p) {
            const Player& pl = s.players[static_cast<std::size_t>(p)];
            if (pl.present)
                out.push_back(EntityRecord{player_entity(p), EntitySnapshot{pl.x, pl.y, pl.cooldown}});
        }
    }
    static void restore(State& s, std::span<const EntityRecord> entities) {
        s = State{};
        for (const EntityRecord& e : entities) {
            if (e.id < 1 || e.id > static_cast<std::uint32_t>(kMaxPlayers)) continue;
            Player& pl = s.players[e.id - 1];
            pl.present = 1;
            pl.x = e.snap.x;
            pl.y = e.snap.y;
            pl.cooldown = e.snap.cooldown;
        }
    }
    static std::uint32_t player_entity(int slot) { return static_cast<std::uint32_t>(slot) + 1; }
    static EntitySnapshot interpolate(const EntitySnapshot& a, const EntitySnapshot& b, float t) {
        auto l = [&](std::int32_t x, std::int32_t y) {
            return static_cast<std::int32_t>(static_cast<float>(x) + static_cast<float>(y - x) * t);
        };
        return EntitySnapshot{l(a.x, b.x), l(a.y, b.y), b.cooldown};
    }
    static std::uint32_t diff_fields(const EntitySnapshot& a, const EntitySnapshot& b) {
        return (a.x != b.x ? 1u : 0u) | (a.y != b.y ? 2u : 0u) | (a.cooldown != b.cooldown ? 4u : 0u);
    }
    static std::string_view field_name(int bit) {
        switch (bit) {
            case 0:
                return "x";
            case 1:
                return "y";
            case 2:
                return "cooldown";
            default:
                return "?";
        }
    }
    static std::int64_t position_error_q(const EntitySnapshot& a, const EntitySnapshot& b) {
        const std::int64_t dx = std::int64_t{a.x} - b.x, dy = std::int64_t{a.y} - b.y;
        return std::max(std::abs(dx), std::abs(dy));
    }
    /// Render only: position in metres.
    static std::array<double, 3> render_position_m(const EntitySnapshot& e) {
        return {e.x * kMetersPerUnit, e.y * kMetersPerUnit, 0.0};
    }
    /// Render only: moved by an offset in metres, rounded to the grid.
    static EntitySnapshot with_render_offset(const EntitySnapshot& e, std::array<double, 3> offset_m) {
        EntitySnapshot out = e;
        out.x = static_cast<std::int32_t>(std::llround(e.x + offset_m[0] / kMetersPerUnit));
        out.y = static_cast<std::int32_t>(std::llround(e.y + offset_m[1] / kMetersPerUnit));
        return out;
    }
};

/// Quantized input: axes as raw 8-bit values (so out-of-range values reach the server and get clamped there).
template <class Stream>
bool serialize(Stream& s, ToyGame::Input& in) {
    using rwd::wire::serialize_int;
    return serialize_int(s, in.move_x, std::int8_t{-128}, std::int8_t{127}) &&
           serialize_int(s, in.move_y, std::int8_t{-128}, std::int8_t{127}) &&
           serialize_int(s, in.buttons, std::uint8_t{0}, std::uint8_t{255}) &&
           rwd::wire::serialize_bits(s, in.view_tick, 32) &&
           serialize_int(s, in.view_fraction, std::uint16_t{0}, std::uint16_t{0xFFFF});
}

/// A player entity: position and cooldown.
template <class Stream>
bool serialize(Stream& s, ToyGame::EntitySnapshot& e) {
    using rwd::wire::serialize_int;
    return serialize_int(s, e.x, -ToyGame::kBound, ToyGame::kBound) &&
           serialize_int(s, e.y, -ToyGame::kBound, ToyGame::kBound) &&
           serialize_int(s, e.cooldown, 0, ToyGame::kFireCooldown);
}

/// Delta form (issue 5 uses it); the toy simply sends the value in full.
template <class Stream>
bool serialize_delta(Stream& s, ToyGame::EntitySnapshot& e, const ToyGame::EntitySnapshot&) {
    return serialize(s, e);
}

}  // namespace toy
