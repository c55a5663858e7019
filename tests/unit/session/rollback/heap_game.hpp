/// HeapGame: a rollback game whose world lives on the heap (a std::vector of bodies that grows and shrinks),
/// saved and loaded as bytes through the save/load hooks; LossyHeapGame's load forgets the newest body.
#pragma once

#include "toy_game.hpp"

#include <rewind/session/game.hpp>

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace heap {

/// Bodies fired by the players (button 1 every fourth frame), moving until their time runs out.
struct HeapGame {
    static constexpr int kMaxPlayers = 8;
    using Input = toy::Input;
    struct Body {
        std::int32_t x = 0, y = 0, vx = 0, vy = 0, owner = 0, ttl = 0;
    };
    struct State {
        std::vector<Body> bodies;
        std::int32_t frame = 0;
    };
    using SavedState = std::vector<std::uint8_t>;

    static void step(State& s, std::span<const Input> in) {
        for (Body& b : s.bodies) b.x += b.vx, b.y += b.vy, --b.ttl;
        std::erase_if(s.bodies, [](const Body& b) { return b.ttl <= 0; });
        for (std::size_t p = 0; p < in.size(); ++p)
            if ((in[p].buttons & 1) != 0 && s.frame % 4 == 0)
                s.bodies.push_back(Body{static_cast<std::int32_t>(p) * 100, 0, in[p].dx, in[p].dy,
                                        static_cast<std::int32_t>(p), 20 + in[p].dx + 8});
        ++s.frame;
    }
    static std::uint64_t checksum(const State& s) {
        std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(s.frame);
        const auto mix = [&h](std::int64_t v) { h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull; };
        mix(static_cast<std::int64_t>(s.bodies.size()));
        for (const Body& b : s.bodies)
            for (std::int32_t v : {b.x, b.y, b.vx, b.vy, b.owner, b.ttl}) mix(v);
        return h;
    }
    static void save_state(const State& s, SavedState& out) {
        out.resize(sizeof(std::int32_t) + s.bodies.size() * sizeof(Body));
        std::memcpy(out.data(), &s.frame, sizeof(std::int32_t));
        if (!s.bodies.empty())
            std::memcpy(out.data() + sizeof(std::int32_t), s.bodies.data(), s.bodies.size() * sizeof(Body));
    }
    static void load_state(const SavedState& in, State& s) {
        std::memcpy(&s.frame, in.data(), sizeof(std::int32_t));
        s.bodies.resize((in.size() - sizeof(std::int32_t)) / sizeof(Body));
        if (!s.bodies.empty())
            std::memcpy(s.bodies.data(), in.data() + sizeof(std::int32_t), s.bodies.size() * sizeof(Body));
    }
};

/// A broken save/load: loading forgets the newest body (what a shallow or partial save does).
struct LossyHeapGame : HeapGame {
    static void load_state(const SavedState& in, State& s) {
        HeapGame::load_state(in, s);
        if (!s.bodies.empty()) s.bodies.pop_back();
    }
};

}  // namespace heap
