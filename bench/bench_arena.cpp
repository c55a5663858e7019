// Arena benchmarks: step() with 8 and 64 bot-driven players, saving/restoring the State, checksum, capture,
// bots.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "arena/arena_game.hpp"
#include "arena/bot.hpp"

namespace {

using arena::ArenaGame;
using Inputs = std::array<arena::Input, arena::kMaxPlayers>;

// A bot match warmed up for 10 s, plus the next 1000 ticks of its bots' inputs to replay.
struct Fixture {
    ArenaGame::State state;
    std::vector<Inputs> inputs;
};

Fixture make_match(int players) {
    Fixture f{arena::new_match(12345), {}};
    std::vector<arena::Bot> bots;
    for (int i = 0; i < players; ++i) {
        ArenaGame::add_player(f.state, i);
        bots.emplace_back(777 + static_cast<std::uint64_t>(i));
    }
    auto tick = [&](bool keep) {
        Inputs in{};
        for (int i = 0; i < players; ++i) in[i] = bots[i].think(arena::view_of(f.state, i));
        ArenaGame::step(f.state, in, nullptr);
        if (keep) f.inputs.push_back(in);
    };
    for (int t = 0; t < 600; ++t) tick(false);
    const ArenaGame::State start = f.state;
    for (int t = 0; t < 1000; ++t) tick(true);
    f.state = start;
    return f;
}

// One step() of a live match; the recorded bot inputs replay in a loop.
void BM_Step(benchmark::State& bs) {
    Fixture f = make_match(static_cast<int>(bs.range(0)));
    std::size_t i = 0;
    for (auto _ : bs) {
        ArenaGame::step(f.state, f.inputs[i], nullptr);
        benchmark::DoNotOptimize(f.state);
        i = (i + 1) % f.inputs.size();
    }
}
BENCHMARK(BM_Step)->Arg(8)->Arg(64)->Unit(benchmark::kMicrosecond);

// Worst case for combat: 64 players all holding both triggers every tick (lag-compensated rifle on the
// server).
void BM_StepAllFiringRewound(benchmark::State& bs) {
    Fixture f = make_match(64);
    auto rewound = std::make_unique<rwd::RewoundTargets<ArenaGame>>();
    std::array<arena::Hitbox, arena::kMaxPlayers> boxes{};
    ArenaGame::capture_hitboxes(f.state, boxes);
    for (int s = 0; s < arena::kMaxPlayers; ++s) {
        rewound->active[s] = true;
        rewound->targets[s] = boxes;
        rewound->seen[s].fill(true);  // as HitboxHistory::fill leaves it: every target tested
    }
    for (Inputs& in : f.inputs) {
        for (arena::Input& i : in) i.buttons |= arena::kFire | arena::kAltFire;
    }
    std::size_t i = 0;
    for (auto _ : bs) {
        ArenaGame::step(f.state, f.inputs[i], rewound.get());
        benchmark::DoNotOptimize(f.state);
        i = (i + 1) % f.inputs.size();
    }
}
BENCHMARK(BM_StepAllFiringRewound)->Unit(benchmark::kMicrosecond);

// Saving a State for rollback (a copy) and restoring it.
void BM_SaveRestoreState(benchmark::State& bs) {
    Fixture f = make_match(64);
    ArenaGame::State saved;
    for (auto _ : bs) {
        saved = f.state;
        benchmark::ClobberMemory();
        f.state = saved;
        benchmark::ClobberMemory();
    }
    bs.SetBytesProcessed(static_cast<std::int64_t>(bs.iterations()) * 2 *
                         static_cast<std::int64_t>(sizeof(ArenaGame::State)));
    bs.counters["state_bytes"] = static_cast<double>(sizeof(ArenaGame::State));
}
BENCHMARK(BM_SaveRestoreState);

void BM_Checksum(benchmark::State& bs) {
    Fixture f = make_match(64);
    for (auto _ : bs) benchmark::DoNotOptimize(ArenaGame::checksum(f.state));
    bs.SetBytesProcessed(static_cast<std::int64_t>(bs.iterations()) *
                         static_cast<std::int64_t>(sizeof(ArenaGame::State)));
}
BENCHMARK(BM_Checksum);

// Building the entity list a server snapshots every tick.
void BM_Capture(benchmark::State& bs) {
    Fixture f = make_match(64);
    std::vector<ArenaGame::EntityRecord> out;
    out.reserve(512);
    for (auto _ : bs) {
        ArenaGame::capture(f.state, out);
        benchmark::DoNotOptimize(out.data());
    }
}
BENCHMARK(BM_Capture);

// 64 bot brains deciding one tick (line-of-sight tests dominate).
void BM_Bots64(benchmark::State& bs) {
    Fixture f = make_match(64);
    std::vector<arena::Bot> bots;
    for (int i = 0; i < 64; ++i) bots.emplace_back(static_cast<std::uint64_t>(i));
    for (auto _ : bs) {
        for (int i = 0; i < 64; ++i) benchmark::DoNotOptimize(bots[i].think(arena::view_of(f.state, i)));
    }
}
BENCHMARK(BM_Bots64)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
