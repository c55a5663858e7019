/// DotsGame: a client-server game with only the required hooks (no lag compensation, no diagnostics, no
/// render or interpolation hooks, no delta codec), to check that the defaults carry a match.
#pragma once

#include <rewind/session/game.hpp>
#include <rewind/wire/serialize.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace dots {

/// Dots that move by their players' inputs on an integer grid.
struct DotsGame {
    static constexpr int kMaxPlayers = 8;
    struct Dot {
        std::int32_t x = 0, y = 0;
        std::uint8_t present = 0, pad[3]{};
    };
    struct State {
        std::array<Dot, kMaxPlayers> dots{};
    };
    struct Input {
        std::int8_t dx = 0, dy = 0;  // -4..4 grid units per tick
        friend bool operator==(const Input&, const Input&) = default;
    };
    struct EntitySnapshot {
        std::int32_t x = 0, y = 0;
        friend bool operator==(const EntitySnapshot&, const EntitySnapshot&) = default;
    };
    struct EntityRecord {
        std::uint32_t id = 0;
        EntitySnapshot snap{};
    };

    static void step(State& s, std::span<const Input> in) {
        for (std::size_t i = 0; i < s.dots.size(); ++i)
            if (s.dots[i].present) s.dots[i].x += in[i].dx, s.dots[i].y += in[i].dy;
    }
    static std::uint64_t checksum(const State& s) {
        std::uint64_t h = 1469598103934665603ull;
        for (const Dot& d : s.dots)
            for (std::int64_t v : {std::int64_t{d.x}, std::int64_t{d.y}, std::int64_t{d.present}})
                h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
        return h;
    }
    static void add_player(State& s, int slot) { s.dots[static_cast<std::size_t>(slot)] = Dot{0, 0, 1, {}}; }
    static void remove_player(State& s, int slot) { s.dots[static_cast<std::size_t>(slot)] = Dot{}; }
    static std::uint32_t player_entity(int slot) { return static_cast<std::uint32_t>(slot); }
    static void capture(const State& s, std::vector<EntityRecord>& out) {
        out.clear();
        for (std::size_t i = 0; i < s.dots.size(); ++i)
            if (s.dots[i].present)
                out.push_back(EntityRecord{static_cast<std::uint32_t>(i), {s.dots[i].x, s.dots[i].y}});
    }
    static void restore(State& s, std::span<const EntityRecord> records) {
        s = State{};
        for (const EntityRecord& r : records)
            if (r.id < s.dots.size()) s.dots[r.id] = Dot{r.snap.x, r.snap.y, 1, {}};
    }
};

template <class Stream>
bool serialize(Stream& s, DotsGame::Input& in) {
    return rwd::wire::serialize_int(s, in.dx, -4, 4) && rwd::wire::serialize_int(s, in.dy, -4, 4);
}
template <class Stream>
bool serialize(Stream& s, DotsGame::EntitySnapshot& e) {
    return rwd::wire::serialize_int(s, e.x, -1'000'000, 1'000'000) &&
           rwd::wire::serialize_int(s, e.y, -1'000'000, 1'000'000);
}

}  // namespace dots
