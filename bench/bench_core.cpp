// Benchmarks for core: checksum64 throughput against a memcpy baseline, Rng draws, SequenceBuffer
// insert/find.
#include <rewind/core/checksum.hpp>
#include <rewind/core/rng.hpp>
#include <rewind/core/sequence_buffer.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

namespace {

std::vector<std::byte> make_data(std::size_t n) {
    rwd::Rng rng(1);
    std::vector<std::byte> v(n);
    for (auto& b : v) b = static_cast<std::byte>(rng.next_u32());
    return v;
}

void BM_Checksum64(benchmark::State& state) {
    const auto data = make_data(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        benchmark::DoNotOptimize(rwd::checksum64(data));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Checksum64)->Arg(4096)->Arg(65536);

// The baseline for the README: copying the same bytes once.
void BM_MemcpyBaseline(benchmark::State& state) {
    const auto data = make_data(static_cast<std::size_t>(state.range(0)));
    std::vector<std::byte> out(data.size());
    for (auto _ : state) {
        std::memcpy(out.data(), data.data(), data.size());
        benchmark::ClobberMemory();
        benchmark::DoNotOptimize(out.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_MemcpyBaseline)->Arg(4096)->Arg(65536);

void BM_HasherChunks(benchmark::State& state) {
    const auto data = make_data(65536);
    const auto chunk = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        rwd::Hasher h;
        for (std::size_t off = 0; off < data.size(); off += chunk) h.add(std::span(data).subspan(off, chunk));
        benchmark::DoNotOptimize(h.digest());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 65536);
}
BENCHMARK(BM_HasherChunks)->Arg(64)->Arg(4096);

void BM_RngNextU32(benchmark::State& state) {
    rwd::Rng rng(42, 54);
    for (auto _ : state) {
        benchmark::DoNotOptimize(rng.next_u32());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_RngNextU32);

void BM_RngUniform(benchmark::State& state) {
    rwd::Rng rng(42, 54);
    for (auto _ : state) {
        benchmark::DoNotOptimize(rng.uniform(1000));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_RngUniform);

struct PacketInfo {
    std::uint64_t sent_us = 0;
    std::uint32_t bytes = 0;
    bool acked = false;
};

void BM_SequenceBufferInsert(benchmark::State& state) {
    rwd::SequenceBuffer<PacketInfo, 256> buf;
    std::uint16_t seq = 0;
    for (auto _ : state) {
        PacketInfo* p = buf.insert(seq++);
        benchmark::DoNotOptimize(p);
        p->bytes = 100;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_SequenceBufferInsert);

void BM_SequenceBufferFind(benchmark::State& state) {
    rwd::SequenceBuffer<PacketInfo, 256> buf;
    for (std::uint32_t s = 0; s < 1000; ++s) buf.insert(static_cast<std::uint16_t>(s));
    std::uint16_t q = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            buf.find(static_cast<std::uint16_t>(1000 - (q++ & 511))));  // half hit, half miss
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_SequenceBufferFind);

}  // namespace

BENCHMARK_MAIN();
