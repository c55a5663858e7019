// arena_trace: runs a seeded bot match and prints "tick checksum" per tick, for cross-build determinism
// checks.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "arena/arena_game.hpp"
#include "arena/bot.hpp"

namespace {

struct Options {
    std::uint64_t seed = 1;
    int players = arena::kMaxPlayers;
    int ticks = 3000;
};

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i];
        const std::string value = argv[i + 1];
        char* end = nullptr;
        const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
        if (end == value.c_str() || *end != '\0') return false;
        if (key == "--seed")
            o.seed = v;
        else if (key == "--players" && v >= 1 && v <= static_cast<unsigned long long>(arena::kMaxPlayers))
            o.players = static_cast<int>(v);
        else if (key == "--ticks" && v <= 10'000'000ULL)
            o.ticks = static_cast<int>(v);
        else
            return false;
    }
    return argc % 2 == 1;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!parse(argc, argv, opt)) {
        std::fprintf(stderr, "usage: arena_trace [--seed N] [--players 1..64] [--ticks N]\n");
        return 2;
    }
    using arena::ArenaGame;
    ArenaGame::State state = arena::new_match(opt.seed);
    std::vector<arena::Bot> bots;
    for (int i = 0; i < opt.players; ++i) {
        ArenaGame::add_player(state, i);
        bots.emplace_back(opt.seed * 1000003u + static_cast<std::uint64_t>(i));
    }
    std::vector<ArenaGame::Input> inputs(arena::kMaxPlayers);
    for (int t = 0; t < opt.ticks; ++t) {
        for (int i = 0; i < opt.players; ++i) inputs[i] = bots[i].think(arena::view_of(state, i));
        ArenaGame::step(state, inputs, nullptr);
        std::printf("%u %016llx\n", state.tick, static_cast<unsigned long long>(ArenaGame::checksum(state)));
    }
    // A one-line summary on stderr shows the match was eventful (the trace itself stays on stdout).
    long kills = 0;
    long deaths = 0;
    long projectiles = 0;
    for (const auto& p : state.players) {
        kills += p.score;
        deaths += p.deaths;
        projectiles += p.shots;
    }
    std::fprintf(
        stderr, "arena_trace: seed %llu, %d players, %d ticks: %ld kills, %ld deaths, %ld projectiles\n",
        static_cast<unsigned long long>(opt.seed), opt.players, opt.ticks, kills, deaths, projectiles);
    return 0;
}
