// Test-only toy games for the rollback sessions: integer physics, a seeded RNG in the State, and a broken
// twin.
#pragma once

#include <rewind/core/checksum.hpp>
#include <rewind/core/rng.hpp>
#include <rewind/session/game.hpp>
#include <rewind/wire/serialize.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace toy {

/// One player's input: a stick (-8..7 per axis) and 4 buttons.
struct Input {
    std::int8_t dx = 0;
    std::int8_t dy = 0;
    std::uint8_t buttons = 0;
    std::uint8_t reserved = 0;
    friend bool operator==(const Input&, const Input&) = default;
};

template <class Stream>
bool serialize(Stream& s, Input& in) {
    using rwd::wire::serialize_int;
    return serialize_int(s, in.dx, std::int8_t{-8}, std::int8_t{7}) &&
           serialize_int(s, in.dy, std::int8_t{-8}, std::int8_t{7}) &&
           serialize_int(s, in.buttons, std::uint8_t{0}, std::uint8_t{15});
}

/// One player's body: fixed-point position and velocity, and a score.
struct Body {
    std::int32_t x = 0, y = 0, vx = 0, vy = 0, score = 0;
};

/// The whole world: up to 8 bodies, a seeded RNG and the frame count (no padding: checksummed as bytes).
struct State {
    std::array<Body, 8> bodies{};
    rwd::Rng rng{1234, 5};
    std::int32_t frame = 0;
    std::int32_t events = 0;
};

template <class Stream>
bool serialize(Stream& s, State& st) {
    using rwd::wire::serialize_int;
    for (Body& b : st.bodies) {
        for (std::int32_t* v : {&b.x, &b.y, &b.vx, &b.vy, &b.score}) {
            std::uint32_t u = static_cast<std::uint32_t>(*v);
            if (!s.serialize_bits(u, 32)) return false;
            *v = static_cast<std::int32_t>(u);
        }
    }
    // The RNG is opaque: carry its bytes.
    std::array<std::uint8_t, sizeof(rwd::Rng)> raw{};
    if constexpr (!Stream::is_reading) std::memcpy(raw.data(), &st.rng, sizeof raw);
    for (std::uint8_t& byte : raw) {
        std::uint32_t u = byte;
        if (!s.serialize_bits(u, 8)) return false;
        byte = static_cast<std::uint8_t>(u);
    }
    if constexpr (Stream::is_reading) std::memcpy(&st.rng, raw.data(), sizeof raw);
    for (std::int32_t* v : {&st.frame, &st.events}) {
        std::uint32_t u = static_cast<std::uint32_t>(*v);
        if (!s.serialize_bits(u, 32)) return false;
        *v = static_cast<std::int32_t>(u);
    }
    return s.ok();
}

/// Shared step: velocity from the stick, friction, walls, a button scores, and a random event from the RNG.
inline void step_state(State& s, std::span<const Input> inputs) {
    for (std::size_t p = 0; p < s.bodies.size() && p < inputs.size(); ++p) {
        Body& b = s.bodies[p];
        const Input& in = inputs[p];
        b.vx = b.vx * 7 / 8 + in.dx * 16;
        b.vy = b.vy * 7 / 8 + in.dy * 16;
        b.x = std::clamp(b.x + b.vx, -100000, 100000);
        b.y = std::clamp(b.y + b.vy, -100000, 100000);
        if (in.buttons & 1u) b.score += 1 + static_cast<std::int32_t>(s.rng.uniform(3));
    }
    if (s.rng.chance(1, 16)) {
        const std::uint32_t lucky = s.rng.uniform(static_cast<std::uint32_t>(s.bodies.size()));
        s.bodies[lucky].score += 5;
        ++s.events;
    }
    ++s.frame;
}

/// The deterministic toy game.
struct Game {
    static constexpr int kMaxPlayers = 8;
    using State = toy::State;
    using Input = toy::Input;
    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<Game>*) {
        step_state(s, inputs);
    }
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s); }
    static void describe_diff(const State& a, const State& b, std::string& out) {
        for (std::size_t p = 0; p < a.bodies.size(); ++p) {
            const Body& x = a.bodies[p];
            const Body& y = b.bodies[p];
            if (x.x != y.x)
                out += "bodies[" + std::to_string(p) + "].x: " + std::to_string(x.x) +
                       " != " + std::to_string(y.x) + "\n";
            if (x.y != y.y)
                out += "bodies[" + std::to_string(p) + "].y: " + std::to_string(x.y) +
                       " != " + std::to_string(y.y) + "\n";
            if (x.score != y.score) {
                out += "bodies[" + std::to_string(p) + "].score: " + std::to_string(x.score) +
                       " != " + std::to_string(y.score) + "\n";
            }
        }
        if (a.frame != b.frame)
            out += "frame: " + std::to_string(a.frame) + " != " + std::to_string(b.frame) + "\n";
        if (!(a.rng == b.rng)) out += "rng: differs\n";
    }
};

/// A broken twin: its step reads a counter outside the State (like a global or a wall clock), so
/// re-simulating a frame gives a different result. The counter lives in the test (no library globals).
struct BrokenGame {
    static constexpr int kMaxPlayers = 8;
    using State = toy::State;
    using Input = toy::Input;
    static inline std::uint32_t* hidden_counter = nullptr;  // test-owned; set by the test
    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<BrokenGame>*) {
        step_state(s, inputs);
        if (hidden_counter != nullptr && s.frame >= 20 && (++*hidden_counter % 5) == 0) s.bodies[0].x += 1;
    }
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s); }
};

/// A deterministic game that only desyncs when told: `diverge` makes one peer's step differ (for desync
/// tests).
struct SplitGame {
    static constexpr int kMaxPlayers = 8;
    struct State {
        toy::State inner{};
        std::int32_t diverge_at = -1;  // this peer adds 1 to body 0 from this frame on (-1 = never)
        std::int32_t reserved = 0;
    };
    using Input = toy::Input;
    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<SplitGame>*) {
        step_state(s.inner, inputs);
        if (s.diverge_at >= 0 && s.inner.frame == s.diverge_at) s.inner.bodies[0].x += 1;
    }
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s.inner); }
    static void describe_diff(const State& a, const State& b, std::string& out) {
        Game::describe_diff(a.inner, b.inner, out);
    }
};

template <class Stream>
bool serialize(Stream& s, SplitGame::State& st) {
    return serialize(s, st.inner);
}

/// A scripted input for player `p` at frame `f` under `seed`: changes every few frames, like a real pad.
inline Input scripted_input(std::uint64_t seed, int p, std::int32_t f) {
    rwd::Rng r(seed ^ (static_cast<std::uint64_t>(p) << 40), static_cast<std::uint64_t>(f / 6));
    Input in;
    in.dx = static_cast<std::int8_t>(r.range(-8, 7));
    in.dy = static_cast<std::int8_t>(r.range(-8, 7));
    in.buttons = static_cast<std::uint8_t>(r.uniform(16));
    return in;
}

}  // namespace toy
