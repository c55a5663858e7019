/// Swarm: a small rollback game whose world lives on the heap (the players and the bodies they throw are
/// std::vectors that grow and shrink every frame), rolled back through the save/load hooks.
#pragma once

#include <rewind/core/rng.hpp>
#include <rewind/wire/serialize.hpp>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace swarm {

inline constexpr std::string_view kGameId = "swarm";  ///< the game's name in replay files
inline constexpr std::uint32_t kRulesVersion = 1;  ///< bumped whenever step() computes anything differently
inline constexpr std::int32_t kField = 4096;       ///< the square field's side, world units (0..kField)

/// A player's frame: where to walk, where to aim (one of 16 compass directions) and whether to throw.
struct Input {
    std::int8_t walk_x = 0;   ///< -7..7
    std::int8_t walk_y = 0;   ///< -7..7
    std::uint8_t aim = 0;     ///< 0..15: 0 is +x, counter-clockwise in steps of 22.5 degrees
    std::uint8_t throws = 0;  ///< 1: throw a body toward `aim`
    friend bool operator==(const Input&, const Input&) = default;
};

/// Lossless for valid inputs: 4 + 4 + 4 + 1 bits.
template <class Stream>
bool serialize(Stream& s, Input& in) {
    using rwd::wire::serialize_int;
    return serialize_int(s, in.walk_x, std::int8_t{-7}, std::int8_t{7}) &&
           serialize_int(s, in.walk_y, std::int8_t{-7}, std::int8_t{7}) &&
           serialize_int(s, in.aim, std::uint8_t{0}, std::uint8_t{15}) &&
           serialize_int(s, in.throws, std::uint8_t{0}, std::uint8_t{1});
}

/// The aim direction (0..15) closest to the vector (dx, dy); 0 for a zero vector.
std::uint8_t aim_toward(std::int32_t dx, std::int32_t dy);

/// A seated player; kept sorted by slot.
struct Player {
    std::int32_t slot = 0, x = 0, y = 0, score = 0, cooldown = 0;
};

/// A thrown body: flies, bounces off the walls, scores for its owner when it touches another player.
struct Body {
    std::int32_t x = 0, y = 0, vx = 0, vy = 0, owner = 0, ttl = 0;
};

/// The whole world: two heap vectors and a frame counter.
struct State {
    std::vector<Player> players;
    std::vector<Body> bodies;
    std::int32_t frame = 0;
};

/// The rollback contract (rewind/session/game.hpp) with save/load hooks instead of a trivially copyable
/// State.
struct SwarmGame {
    static constexpr int kMaxPlayers = 8;
    using Input = swarm::Input;
    using State = swarm::State;
    /// A saved frame is a copy of both vectors; loading into a warm State reuses its capacity.
    using SavedState = swarm::State;

    static void save_state(const State& s, SavedState& out);
    static void load_state(const SavedState& in, State& s);
    static void step(State& s, std::span<const Input> in);
    static std::uint64_t checksum(const State& s);
    /// Seats `slot` (at a place that depends only on the slot); seating it twice keeps one player.
    static void add_player(State& s, int slot);
};

/// A match of `players` seated players (slots 0..players-1).
State new_match(int players);

/// A seeded brain: wanders between random points and throws at the nearest other player when it can.
class Bot {
public:
    explicit Bot(std::uint64_t seed);
    /// The input for the next frame of `slot`, from the (predicted) state `s`.
    Input think(const State& s, int slot);

private:
    rwd::Rng rng_;
    std::int32_t goal_x_ = kField / 2, goal_y_ = kField / 2, retarget_in_ = 0;
};

}  // namespace swarm
