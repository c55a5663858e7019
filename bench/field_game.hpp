/// FieldGame: bench_server's world at a fixed density: up to 64 walkers on a square field of 100 m² per
/// player, so a 16 m area of interest holds about as many of them at 8 players as at 64 (the arena's 64 m map
/// instead fills up as players join). Each walker goes straight at its own heading, bounces off the edges,
/// and takes a quarter turn about once a second (a hash of the tick and its slot), so snapshots carry
/// corrections.
#pragma once

#include <rewind/wire/context.hpp>
#include <rewind/wire/residual.hpp>
#include <rewind/wire/serialize.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace field {

struct FieldGame {
    static constexpr int kMaxPlayers = 64;
    static constexpr double kMetersPerUnit = 0.01;       ///< positions in centimetres
    static constexpr std::int32_t kMaxSide = 100 * 100;  ///< 100 m: 64 players at 100 m² need 80
    static constexpr std::int32_t kSpeed = 10;           ///< cm per tick along an axis (6 m/s at 60 Hz)

    struct Walker {
        std::int32_t x = 0, y = 0, vx = 0, vy = 0;
        std::uint8_t present = 0, pad[3]{};
    };
    struct State {
        std::uint32_t tick = 0;
        std::int32_t side = 0;  ///< the field's side in cm
        std::array<Walker, kMaxPlayers> walkers{};
    };
    struct Input {
        std::int8_t turn = 0;  ///< -1, 0, 1: a quarter turn (the benchmark's clients never turn)
        friend bool operator==(const Input&, const Input&) = default;
    };
    struct EntitySnapshot {
        std::int32_t x = 0, y = 0, vx = 0, vy = 0;
        friend bool operator==(const EntitySnapshot&, const EntitySnapshot&) = default;
    };
    struct EntityRecord {
        std::uint32_t id = 0;
        EntitySnapshot snap{};
    };

    /// An empty field sized for `players` walkers, 100 m² each.
    static State new_field(int players) {
        State s;
        s.side = static_cast<std::int32_t>(std::lround(std::sqrt(100.0 * players) * 100.0));
        return s;
    }
    static void step(State& s, std::span<const Input> in) {
        ++s.tick;
        for (std::size_t i = 0; i < s.walkers.size(); ++i) {
            Walker& w = s.walkers[i];
            if (!w.present) continue;
            int turn = i < in.size() ? in[i].turn : 0;
            if (((s.tick + static_cast<std::uint32_t>(i) * 7919u) * 2654435761u >> 26) == 0)
                turn = 1;  // 1 in 64
            if (turn != 0) w = Walker{w.x, w.y, -w.vy * turn, w.vx * turn, 1, {}};
            bounce(w.x, w.vx, s.side);
            bounce(w.y, w.vy, s.side);
        }
    }
    static std::uint64_t checksum(const State& s) {
        std::uint64_t h = 1469598103934665603ull;
        for (const Walker& w : s.walkers)
            for (std::int64_t v : {std::int64_t{w.x}, std::int64_t{w.y}, std::int64_t{w.vx},
                                   std::int64_t{w.vy}, std::int64_t{w.present}})
                h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
        return (h ^ s.tick) * 1099511628211ull;
    }
    /// Scattered by a hash of the slot, heading one of eight directions.
    static void add_player(State& s, int slot) {
        static constexpr std::int32_t kDx[8] = {10, 7, 0, -7, -10, -7, 0, 7};
        static constexpr std::int32_t kDy[8] = {0, 7, 10, 7, 0, -7, -10, -7};
        const std::uint32_t h = static_cast<std::uint32_t>(slot + 1) * 2654435761u;
        const auto side = static_cast<std::uint32_t>(s.side > 0 ? s.side : 1);
        const auto dir = static_cast<std::size_t>(h >> 29);
        s.walkers[static_cast<std::size_t>(slot)] = Walker{static_cast<std::int32_t>(h % side),
                                                           static_cast<std::int32_t>((h >> 11) % side),
                                                           kDx[dir],
                                                           kDy[dir],
                                                           1,
                                                           {}};
    }
    static void remove_player(State& s, int slot) { s.walkers[static_cast<std::size_t>(slot)] = Walker{}; }
    static std::uint32_t player_entity(int slot) { return static_cast<std::uint32_t>(slot); }
    static void capture(const State& s, std::vector<EntityRecord>& out) {
        out.clear();
        for (std::size_t i = 0; i < s.walkers.size(); ++i) {
            const Walker& w = s.walkers[i];
            if (w.present) out.push_back(EntityRecord{static_cast<std::uint32_t>(i), {w.x, w.y, w.vx, w.vy}});
        }
    }
    static void restore(State& s, std::span<const EntityRecord> records) {
        const std::int32_t side = s.side;
        const std::uint32_t tick = s.tick;
        s = State{};
        s.side = side;
        s.tick = tick;
        for (const EntityRecord& r : records)
            if (r.id < s.walkers.size())
                s.walkers[r.id] = Walker{r.snap.x, r.snap.y, r.snap.vx, r.snap.vy, 1, {}};
    }
    /// Straight on (deltas are coded against this, so a walker between bounces costs almost nothing).
    static EntitySnapshot predict_entity(const EntitySnapshot& e, std::int32_t ticks) {
        return {e.x + e.vx * ticks, e.y + e.vy * ticks, e.vx, e.vy};
    }

private:
    static void bounce(std::int32_t& p, std::int32_t& v, std::int32_t side) {
        p += v;
        if (p < 0 || p > side) {
            v = -v;
            p = p < 0 ? -p : 2 * side - p;
        }
    }
};

template <class Stream>
bool serialize(Stream& s, FieldGame::Input& in) {
    return rwd::wire::serialize_int(s, in.turn, std::int8_t{-1}, std::int8_t{1});
}

template <class Stream>
bool serialize(Stream& s, FieldGame::EntitySnapshot& e) {
    using rwd::wire::serialize_int;
    constexpr std::int32_t v = FieldGame::kSpeed;
    rwd::wire::set_context(s, 2);
    return serialize_int(s, e.x, 0, FieldGame::kMaxSide) && serialize_int(s, e.y, 0, FieldGame::kMaxSide) &&
           serialize_int(s, e.vx, -v, v) && serialize_int(s, e.vy, -v, v);
}

/// Against `base` (the prediction): positions and velocities as residuals, held to the full form's ranges.
template <class Stream>
bool serialize_delta(Stream& s, FieldGame::EntitySnapshot& e, const FieldGame::EntitySnapshot& base) {
    using rwd::wire::serialize_residual;
    if (!(serialize_residual(s, 3, base.x, e.x) && serialize_residual(s, 3, base.y, e.y) &&
          serialize_residual(s, 4, base.vx, e.vx) && serialize_residual(s, 4, base.vy, e.vy)))
        return false;
    if constexpr (Stream::is_reading) {
        constexpr std::int32_t v = FieldGame::kSpeed;
        if (e.x < 0 || e.x > FieldGame::kMaxSide || e.y < 0 || e.y > FieldGame::kMaxSide || e.vx < -v ||
            e.vx > v || e.vy < -v || e.vy > v)
            return s.fail(rwd::Errc::value_out_of_range), false;
    }
    return true;
}

}  // namespace field
