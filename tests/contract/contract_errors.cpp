// Compiled with one of CASE_* defined, each a game missing a hook: the build must fail with the contract's
// message naming that hook and the guide (tests/CMakeLists.txt checks the compiler's output).
#include <rewind/session/client_server/server.hpp>
#include <rewind/session/rollback/sync_test_session.hpp>
#include <rewind/wire/serialize.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace bad {

struct Game {
    static constexpr int kMaxPlayers = 2;
    struct State {
        std::array<std::int32_t, 2> x{};
    };
    struct Input {
        std::int8_t dx = 0;
        friend bool operator==(const Input&, const Input&) = default;
    };
    struct EntitySnapshot {
        std::int32_t x = 0;
        friend bool operator==(const EntitySnapshot&, const EntitySnapshot&) = default;
    };
    struct EntityRecord {
        std::uint32_t id = 0;
        EntitySnapshot snap{};
    };
#if defined(CASE_HALF_LAG_COMPENSATION)
    struct Hitbox {
        std::int32_t x = 0;
    };
#endif
    static void step(State& s, std::span<const Input> in) {
        for (std::size_t i = 0; i < 2; ++i) s.x[i] += in[i].dx;
    }
#if !defined(CASE_NO_CHECKSUM)
    static std::uint64_t checksum(const State& s) { return static_cast<std::uint64_t>(s.x[0] ^ s.x[1]); }
#endif
    static void add_player(State&, int) {}
    static void remove_player(State&, int) {}
    static std::uint32_t player_entity(int slot) { return static_cast<std::uint32_t>(slot); }
#if !defined(CASE_NO_CAPTURE)
    static void capture(const State&, std::vector<EntityRecord>&) {}
#endif
    static void restore(State&, std::span<const EntityRecord>) {}
#if defined(CASE_MISTYPED_SANITIZE)
    static Input sanitize(const Input& in, int& violations) { return (void)violations, in; }
#endif
#if defined(CASE_HALF_DIFF)
    static std::string_view field_name(int) { return "x"; }
#endif
#if defined(CASE_MISTYPED_CAPTURE_ENTITY)
    static EntitySnapshot capture_entity(const State&, std::uint32_t) { return {}; }
#endif
};

template <class Stream>
bool serialize(Stream& s, Game::Input& in) {
    return rwd::wire::serialize_int(s, in.dx, -4, 4);
}
template <class Stream>
bool serialize(Stream& s, Game::EntitySnapshot& e) {
    return rwd::wire::serialize_int(s, e.x, -1000, 1000);
}

}  // namespace bad

#if defined(CASE_NO_CHECKSUM)
template class rwd::rollback::SyncTestSession<bad::Game>;
#else
template class rwd::client_server::Server<bad::Game>;
#endif
