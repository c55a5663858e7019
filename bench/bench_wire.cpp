// Wire benchmarks: bit-packing and range-coding throughput against memcpy of the same bytes, and a typical
// input packet through both.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numbers>
#include <optional>
#include <vector>

#include <rewind/wire/message.hpp>
#include <rewind/wire/range_coder.hpp>
#include <rewind/wire/serialize.hpp>

namespace {

using namespace rwd::wire;
using Clock = std::chrono::steady_clock;

constexpr int kValues = 4096;

std::vector<std::uint32_t> make_values(int bits) {
    std::vector<std::uint32_t> v(kValues);
    std::uint32_t x = 0x9E3779B9u;
    for (auto& e : v) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        e = bits == 32 ? x : x & ((std::uint32_t{1} << bits) - 1);
    }
    return v;
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Seconds one memcpy of `bytes` takes. A single copy of a few hundred bytes lasts about as long as reading
// the clock, so the copy is repeated kCopyReps times between two clock reads and the time divided.
constexpr int kCopyReps = 64;
double time_memcpy(std::vector<std::uint8_t>& dst, const std::vector<std::uint8_t>& src, std::size_t bytes) {
    const auto t0 = Clock::now();
    for (int i = 0; i < kCopyReps; ++i) {
        std::memcpy(dst.data(), src.data(), bytes);
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    return seconds(Clock::now() - t0) / kCopyReps;
}

// Packs kValues fields of `bits` bits, then memcpys the same number of bytes; the benchmark's own time
// is the packing (manual time), and `x_memcpy` = packing time / memcpy time for identical bytes.
void BM_BitPackWrite(benchmark::State& state) {
    const int bits = static_cast<int>(state.range(0));
    const auto values = make_values(bits);
    const std::size_t bytes = (static_cast<std::size_t>(kValues) * bits + 7) / 8;
    std::vector<std::uint8_t> buf(bytes), src(bytes, 0x5A), dst(bytes);
    double pack_s = 0, copy_s = 0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        BitWriter w(buf);
        for (std::uint32_t v : values) w.write_bits(v, bits);
        w.flush();
        benchmark::DoNotOptimize(buf.data());
        benchmark::ClobberMemory();
        const auto t1 = Clock::now();
        pack_s += seconds(t1 - t0);
        copy_s += time_memcpy(dst, src, bytes);
        state.SetIterationTime(seconds(t1 - t0));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["memcpy_bytes_per_second"] =
        benchmark::Counter(static_cast<double>(state.iterations() * bytes) / copy_s);
    state.counters["x_memcpy"] = pack_s / copy_s;
}
BENCHMARK(BM_BitPackWrite)->Arg(1)->Arg(3)->Arg(8)->Arg(13)->Arg(17)->Arg(32)->UseManualTime();

void BM_BitPackRead(benchmark::State& state) {
    const int bits = static_cast<int>(state.range(0));
    const auto values = make_values(bits);
    const std::size_t bytes = (static_cast<std::size_t>(kValues) * bits + 7) / 8;
    std::vector<std::uint8_t> buf(bytes), dst(bytes);
    BitWriter w(buf);
    for (std::uint32_t v : values) w.write_bits(v, bits);
    w.flush();
    double unpack_s = 0, copy_s = 0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        BitReader r(buf);
        std::uint32_t sum = 0;
        for (int i = 0; i < kValues; ++i) {
            std::uint32_t v = 0;
            (void)r.read_bits(bits, v);
            sum += v;
        }
        benchmark::DoNotOptimize(sum);
        const auto t1 = Clock::now();
        unpack_s += seconds(t1 - t0);
        copy_s += time_memcpy(dst, buf, bytes);
        state.SetIterationTime(seconds(t1 - t0));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["memcpy_bytes_per_second"] =
        benchmark::Counter(static_cast<double>(state.iterations() * bytes) / copy_s);
    state.counters["x_memcpy"] = unpack_s / copy_s;
}
BENCHMARK(BM_BitPackRead)->Arg(1)->Arg(3)->Arg(8)->Arg(13)->Arg(17)->Arg(32)->UseManualTime();

// The same kValues fields through the range coder, one stream per iteration (its setup is part of the cost,
// as per packet). bytes_per_second counts the packed size, so the rate sits beside BM_BitPack*'s; the values
// are random, so `ratio` (range-coded size / packed size) is about 1 and the figure is the coder's pure cost.
// The *Uniform variants code the same values as uniform fields (serialize_uniform_bits: no models, up to 16
// bits a coder step), what a codec uses for bits it knows to be random.
template <bool Uniform, class Stream>
bool code_field(Stream& s, std::uint32_t& v, int bits) {
    if constexpr (Uniform) {
        return s.serialize_uniform_bits(v, bits);
    } else {
        return s.serialize_bits(v, bits);
    }
}

template <bool Uniform>
void range_write(benchmark::State& state) {
    const int bits = static_cast<int>(state.range(0));
    auto values = make_values(bits);
    const std::size_t bytes = (static_cast<std::size_t>(kValues) * bits + 7) / 8;
    std::vector<std::uint8_t> buf(bytes + bytes / 8 + 64);
    auto w = std::make_unique<std::optional<RangeWriteStream>>();  // ~88 KiB of models: off the stack
    std::size_t encoded = 0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        RangeWriteStream& s = w->emplace(buf);
        for (std::uint32_t& v : values) code_field<Uniform>(s, v, bits);
        s.flush();
        benchmark::DoNotOptimize(buf.data());
        benchmark::ClobberMemory();
        state.SetIterationTime(seconds(Clock::now() - t0));
        encoded = s.bytes_used();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["ratio"] = static_cast<double>(encoded) / static_cast<double>(bytes);
}
void BM_RangeWrite(benchmark::State& state) { range_write<false>(state); }
void BM_RangeWriteUniform(benchmark::State& state) { range_write<true>(state); }
BENCHMARK(BM_RangeWrite)->Arg(1)->Arg(3)->Arg(8)->Arg(13)->Arg(17)->Arg(32)->UseManualTime();
BENCHMARK(BM_RangeWriteUniform)->Arg(8)->Arg(32)->UseManualTime();

template <bool Uniform>
void range_read(benchmark::State& state) {
    const int bits = static_cast<int>(state.range(0));
    auto values = make_values(bits);
    const std::size_t bytes = (static_cast<std::size_t>(kValues) * bits + 7) / 8;
    std::vector<std::uint8_t> buf(bytes + bytes / 8 + 64);
    auto w = std::make_unique<RangeWriteStream>(buf);
    for (std::uint32_t& v : values) code_field<Uniform>(*w, v, bits);
    w->flush();
    const std::span<const std::uint8_t> encoded = w->data();
    auto r = std::make_unique<std::optional<RangeReadStream>>();
    for (auto _ : state) {
        const auto t0 = Clock::now();
        RangeReadStream& s = r->emplace(encoded);
        std::uint32_t sum = 0;
        for (int i = 0; i < kValues; ++i) {
            std::uint32_t v = 0;
            (void)code_field<Uniform>(s, v, bits);
            sum += v;
        }
        benchmark::DoNotOptimize(sum);
        state.SetIterationTime(seconds(Clock::now() - t0));
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["ratio"] = static_cast<double>(encoded.size()) / static_cast<double>(bytes);
}
void BM_RangeRead(benchmark::State& state) { range_read<false>(state); }
void BM_RangeReadUniform(benchmark::State& state) { range_read<true>(state); }
BENCHMARK(BM_RangeRead)->Arg(1)->Arg(3)->Arg(8)->Arg(13)->Arg(17)->Arg(32)->UseManualTime();
BENCHMARK(BM_RangeReadUniform)->Arg(8)->Arg(32)->UseManualTime();

// A typical client input packet: a tick and the 4 latest inputs (redundancy against loss).
struct InputFrame {
    float move_x = 0, move_y = 0;  // stick axes in [-1, 1]
    float aim = 0;                 // radians
    std::uint32_t buttons = 0;     // 4 button bits
};
struct InputPacket {
    std::uint32_t tick = 0;
    InputFrame inputs[4];
};
template <class Stream>
bool serialize(Stream& s, InputFrame& f) {
    set_context(s, 1);  // the range coder models every frame's fields together; a no-op for the bit packer
    return serialize_quantized(s, f.move_x, -1.0f, 1.0f, 1.0f / 127) &&
           serialize_quantized(s, f.move_y, -1.0f, 1.0f, 1.0f / 127) && serialize_angle(s, f.aim, 12) &&
           serialize_bits(s, f.buttons, 4);
}
template <class Stream>
bool serialize(Stream& s, InputPacket& p) {
    if (!serialize_bits(s, p.tick, 32)) return false;
    for (InputFrame& f : p.inputs) {
        if (!serialize(s, f)) return false;
    }
    return true;
}

InputPacket make_packet() {
    InputPacket p;
    p.tick = 123456;
    for (int i = 0; i < 4; ++i) {
        p.inputs[i] = {0.25f * static_cast<float>(i) - 0.5f, 0.7f,
                       std::numbers::pi_v<float> / static_cast<float>(i + 2),
                       static_cast<std::uint32_t>(i * 5 & 15)};
    }
    return p;
}

void BM_InputPacketMeasure(benchmark::State& state) {
    InputPacket p = make_packet();
    for (auto _ : state) {
        benchmark::DoNotOptimize(p);
        benchmark::DoNotOptimize(measure_bits(p));
    }
    state.counters["bits"] = static_cast<double>(measure_bits(p));
}
BENCHMARK(BM_InputPacketMeasure);

void BM_InputPacketWrite(benchmark::State& state) {
    InputPacket p = make_packet();
    std::uint8_t buf[64];
    for (auto _ : state) {
        benchmark::DoNotOptimize(p);
        auto n = write_message(buf, p);
        benchmark::DoNotOptimize(n);
        benchmark::ClobberMemory();
    }
    state.counters["bytes"] = static_cast<double>(*write_message(buf, p));
}
BENCHMARK(BM_InputPacketWrite);

void BM_InputPacketRead(benchmark::State& state) {
    InputPacket p = make_packet();
    std::uint8_t buf[64];
    const std::size_t n = *write_message(buf, p);
    for (auto _ : state) {
        InputPacket out;
        auto st = read_message(std::span<const std::uint8_t>(buf, n), out);
        benchmark::DoNotOptimize(st);
        benchmark::DoNotOptimize(out);
    }
}
BENCHMARK(BM_InputPacketRead);

// The same packet range-coded: per-packet stream setup included; `bytes` is the real encoded size.
void BM_InputPacketRangeWrite(benchmark::State& state) {
    InputPacket p = make_packet();
    std::uint8_t buf[64];
    auto w = std::make_unique<std::optional<RangeWriteStream>>();
    std::size_t n = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(p);
        RangeWriteStream& s = w->emplace(buf);
        const bool ok = serialize(s, p);
        s.flush();
        benchmark::DoNotOptimize(ok);
        benchmark::ClobberMemory();
        n = s.bytes_used();
    }
    state.counters["bytes"] = static_cast<double>(n);
}
BENCHMARK(BM_InputPacketRangeWrite);

void BM_InputPacketRangeRead(benchmark::State& state) {
    InputPacket p = make_packet();
    std::uint8_t buf[64];
    auto w = std::make_unique<RangeWriteStream>(buf);
    (void)serialize(*w, p);
    w->flush();
    const std::span<const std::uint8_t> encoded = w->data();
    auto r = std::make_unique<std::optional<RangeReadStream>>();
    for (auto _ : state) {
        InputPacket out;
        RangeReadStream& s = r->emplace(encoded);
        const bool ok = serialize(s, out) && s.finish();
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(out);
    }
}
BENCHMARK(BM_InputPacketRangeRead);

}  // namespace

BENCHMARK_MAIN();
