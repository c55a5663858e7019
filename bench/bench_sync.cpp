// Benchmarks of the sync building blocks: reconciliation replay, input jitter buffer, interpolation sampling.
#include <rewind/sync/input_jitter_buffer.hpp>
#include <rewind/sync/interpolation_buffer.hpp>
#include <rewind/sync/prediction_history.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

namespace {

using rwd::Micros;
using rwd::Tick;
using namespace rwd::sync;

/// A toy world about the size of a small game's State: 16 players of 8 ints.
struct World {
    std::array<std::array<std::int32_t, 8>, 16> players{};
    std::uint32_t tick = 0;
};
struct Move {
    std::int8_t dx = 0, dy = 0;
    std::uint8_t buttons = 0;
};
struct Player {
    std::int32_t x = 0, y = 0;
};

void toy_step(World& w, const Move& m, Tick) {
    for (auto& p : w.players) {
        p[0] += m.dx;
        p[1] += m.dy;
        p[2] = (p[2] * 1103515245 + 12345) & 0x7fffffff;
        for (int k = 3; k < 8; ++k) p[static_cast<std::size_t>(k)] += p[static_cast<std::size_t>(k - 1)] >> 3;
    }
    ++w.tick;
}

EntityDiff<Player> toy_compare(const World& a, const World& b) {
    EntityDiff<Player> d{Player{a.players[0][0], a.players[0][1]}, Player{b.players[0][0], b.players[0][1]}};
    d.fields =
        (a.players[0][0] != b.players[0][0] ? 1u : 0u) | (a.players[0][1] != b.players[0][1] ? 2u : 0u);
    return d;
}

/// Reconciliation after a misprediction: rewind and replay 30 pending ticks.
void BM_ReconcileReplay30(benchmark::State& state) {
    PredictionHistory<World, Move, 128> h;
    h.reset(Tick{0}, World{});
    for (std::uint32_t t = 1; t <= 200; ++t) {
        World w = h.latest_state();
        const Move m{static_cast<std::int8_t>(t % 3 - 1), 1, 0};
        toy_step(w, m, Tick{t});
        h.record(Tick{t}, m, w);
    }
    World server = *h.state_at(Tick{170});
    std::uint32_t ack = 170;
    for (auto _ : state) {
        server.players[0][0] += 1;  // always mispredicted
        // Keep the ring moving so every iteration acknowledges a fresh tick 30 behind the newest (one extra
        // step and copy per iteration, included in the time: pausing the timer would cost more than it
        // measures).
        World w = h.latest_state();
        const std::uint32_t t = h.newest_tick().value + 1;
        toy_step(w, Move{}, Tick{t});
        h.record(Tick{t}, Move{}, w);
        ++ack;
        auto r = h.reconcile(Tick{ack}, server, toy_compare, toy_step);
        benchmark::DoNotOptimize(r);
    }
    state.counters["replayed_per_reconcile"] =
        static_cast<double>(h.stats().replayed_ticks) /
        static_cast<double>(std::max<std::uint64_t>(1, h.stats().corrections));
}
BENCHMARK(BM_ReconcileReplay30);

/// One redundant 4-input packet pushed and one input popped, per tick.
void BM_InputJitterBufferPushPop(benchmark::State& state) {
    InputJitterBufferConfig cfg;
    cfg.packets_per_second = 1e6;
    cfg.burst_packets = 1e6;
    InputJitterBuffer<Move> buf(cfg, Tick{0});
    std::array<Move, 4> packet{};
    std::uint32_t t = 0;
    for (auto _ : state) {
        (void)buf.push(Tick{t + 2}, packet, Micros{static_cast<std::int64_t>(t) * 16667});
        benchmark::DoNotOptimize(buf.pop(Tick{t}));
        ++t;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InputJitterBufferPushPop);

/// One interpolation sample per rendered frame from a 32-snapshot buffer.
void BM_InterpolationSample(benchmark::State& state) {
    struct Snap {
        std::int32_t x = 0, y = 0;
    };
    InterpolationBuffer<Snap> buf;
    for (std::uint32_t k = 0; k < 64; k += 2)
        buf.push(Tick{k}, Snap{static_cast<std::int32_t>(k), 0}, Micros{k * 16667});
    std::int64_t us = 64 * 16667;
    for (auto _ : state) {
        us += 1000;
        if (us > 70 * 16667) us = 64 * 16667;
        auto s = buf.sample_at(FracTick::at(Tick{0}, static_cast<double>(us) / 16667.0), Micros{us});
        benchmark::DoNotOptimize(s);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InterpolationSample);

}  // namespace

BENCHMARK_MAIN();
