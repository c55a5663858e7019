// Benchmarks of the sync building blocks: input jitter buffer, interpolation sampling (the client's
// reconciliation replay is measured on the real Client in bench_server.cpp).
#include <rewind/sync/input_jitter_buffer.hpp>
#include <rewind/sync/interpolation_buffer.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

namespace {

using rwd::Micros;
using rwd::Tick;
using namespace rwd::sync;

/// A small input, the size of a typical game's.
struct Move {
    std::int8_t dx = 0, dy = 0;
    std::uint8_t buttons = 0;
};

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
