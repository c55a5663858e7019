// The serialize streams against the raw bit packer and memcpy on the same entity list: what the checks cost.
//
// 1000 entities of 42 bits (five range-checked fields) and a 64-bit checksum, written and read three ways in
// every iteration, interleaved so that the ratios come from one run on the same machine state:
//   - stream: WriteStream / ReadStream through serialize_int / serialize_bool / serialize_uint64, with every
//     range check the library keeps (a value outside its range is an error on write and on read);
//   - raw: BitWriter / BitReader with the same field widths and no checks (what a hand-written packer does);
//   - memcpy of the same number of bytes.
// Both ways produce byte-identical output (checked once before timing). Counters: ns per entity of each, and
// stream/raw ratios (the goal is <= 1.3 for write and read).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include <rewind/wire/bit_reader.hpp>
#include <rewind/wire/bit_writer.hpp>
#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream.hpp>

namespace {

using Clock = std::chrono::steady_clock;
namespace wire = rwd::wire;

constexpr int kEntities = 1000;
constexpr std::size_t kBytes = (kEntities * 42 + 64 + 7) / 8;

/// An entity of 42 bits on the wire: id 10, x 12, y 12, hp 7, kind 1.
struct Entity {
    std::uint16_t id = 0;  ///< 0..1023
    std::int32_t x = 0;    ///< 0..4095
    std::int32_t y = 0;    ///< 0..4095
    std::uint8_t hp = 0;   ///< 0..100
    bool kind = false;
};

template <class Stream>
bool serialize(Stream& s, Entity& e) {
    return wire::serialize_int(s, e.id, std::uint16_t{0}, std::uint16_t{1023}) &&
           wire::serialize_int(s, e.x, 0, 4095) && wire::serialize_int(s, e.y, 0, 4095) &&
           wire::serialize_int(s, e.hp, std::uint8_t{0}, std::uint8_t{100}) &&
           wire::serialize_bool(s, e.kind);
}

template <class Stream>
bool serialize_list(Stream& s, std::vector<Entity>& list, std::uint64_t& checksum) {
    for (Entity& e : list)
        if (!serialize(s, e)) return false;
    return wire::serialize_uint64(s, checksum);
}

void write_raw(wire::BitWriter& w, const std::vector<Entity>& list, std::uint64_t checksum) {
    for (const Entity& e : list) {
        w.write_bits(e.id, 10);
        w.write_bits(static_cast<std::uint32_t>(e.x), 12);
        w.write_bits(static_cast<std::uint32_t>(e.y), 12);
        w.write_bits(e.hp, 7);
        w.write_bits(e.kind ? 1u : 0u, 1);
    }
    w.write_bits(static_cast<std::uint32_t>(checksum), 32);
    w.write_bits(static_cast<std::uint32_t>(checksum >> 32), 32);
}

bool read_raw(wire::BitReader& r, std::vector<Entity>& list, std::uint64_t& checksum) {
    std::uint32_t v = 0;
    bool ok = true;
    for (Entity& e : list) {
        ok &= r.read_bits(10, v), e.id = static_cast<std::uint16_t>(v);
        ok &= r.read_bits(12, v), e.x = static_cast<std::int32_t>(v);
        ok &= r.read_bits(12, v), e.y = static_cast<std::int32_t>(v);
        ok &= r.read_bits(7, v), e.hp = static_cast<std::uint8_t>(v);
        ok &= r.read_bits(1, v), e.kind = v != 0;
    }
    std::uint32_t lo = 0, hi = 0;
    ok &= r.read_bits(32, lo);
    ok &= r.read_bits(32, hi);
    checksum = std::uint64_t{hi} << 32 | lo;
    return ok;
}

std::vector<Entity> make_entities() {
    std::vector<Entity> list(kEntities);
    std::uint32_t x = 0x9E3779B9u;
    const auto next = [&x] {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        return x;
    };
    for (int i = 0; i < kEntities; ++i) {
        Entity& e = list[static_cast<std::size_t>(i)];
        e.id = static_cast<std::uint16_t>(i);
        e.x = static_cast<std::int32_t>(next() % 4096);
        e.y = static_cast<std::int32_t>(next() % 4096);
        e.hp = static_cast<std::uint8_t>(next() % 101);
        e.kind = (next() & 1) != 0;
    }
    return list;
}

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void report(benchmark::State& state, double stream_s, double raw_s, double copy_s) {
    const double n = static_cast<double>(state.iterations()) * kEntities;
    state.counters["stream_ns_per_entity"] = stream_s / n * 1e9;
    state.counters["raw_ns_per_entity"] = raw_s / n * 1e9;
    state.counters["memcpy_ns_per_entity"] = copy_s / n * 1e9;
    state.counters["stream_over_raw"] = stream_s / raw_s;
    state.counters["stream_over_memcpy"] = stream_s / copy_s;
}

// Copies as many bytes as the list takes, 16 times between two clock reads (one copy lasts about as long as
// reading the clock), and returns the time of one.
double time_copy(std::vector<std::uint8_t>& dst, const std::vector<std::uint8_t>& src) {
    constexpr int kReps = 16;
    const auto t0 = Clock::now();
    for (int i = 0; i < kReps; ++i) {
        std::memcpy(dst.data(), src.data(), kBytes);
        benchmark::DoNotOptimize(dst.data());
        benchmark::ClobberMemory();
    }
    return since(t0) / kReps;
}

void BM_EntityListWrite(benchmark::State& state) {
    std::vector<Entity> list = make_entities();
    std::uint64_t checksum = 0x0123456789ABCDEFull;
    std::vector<std::uint8_t> a(kBytes), b(kBytes), copy(kBytes);
    {
        wire::WriteStream s(a);
        wire::BitWriter w(b);
        write_raw(w, list, checksum);
        w.flush();
        if (!serialize_list(s, list, checksum) || (s.flush(), s.bytes_used() != kBytes) ||
            std::memcmp(a.data(), b.data(), kBytes) != 0)
            state.SkipWithError("the stream and the raw packer disagree");
    }
    double stream_s = 0, raw_s = 0, copy_s = 0;
    for (auto _ : state) {
        auto t0 = Clock::now();
        wire::WriteStream s(a);
        const bool ok = serialize_list(s, list, checksum);
        s.flush();
        benchmark::DoNotOptimize(ok);
        benchmark::ClobberMemory();
        stream_s += since(t0);
        t0 = Clock::now();
        wire::BitWriter w(b);
        write_raw(w, list, checksum);
        w.flush();
        benchmark::DoNotOptimize(b.data());
        benchmark::ClobberMemory();
        raw_s += since(t0);
        copy_s += time_copy(copy, a);
    }
    report(state, stream_s, raw_s, copy_s);
}
BENCHMARK(BM_EntityListWrite);

void BM_EntityListRead(benchmark::State& state) {
    std::vector<Entity> list = make_entities();
    std::uint64_t checksum = 0x0123456789ABCDEFull;
    std::vector<std::uint8_t> bytes(kBytes), copy(kBytes);
    {
        wire::WriteStream s(bytes);
        (void)serialize_list(s, list, checksum);
        s.flush();
    }
    std::vector<Entity> out(kEntities), raw_out(kEntities);
    double stream_s = 0, raw_s = 0, copy_s = 0;
    for (auto _ : state) {
        auto t0 = Clock::now();
        wire::ReadStream s(bytes);
        std::uint64_t c1 = 0;
        const bool ok = serialize_list(s, out, c1);
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
        stream_s += since(t0);
        t0 = Clock::now();
        wire::BitReader r(bytes);
        std::uint64_t c2 = 0;
        const bool raw_ok = read_raw(r, raw_out, c2);
        benchmark::DoNotOptimize(raw_ok);
        benchmark::DoNotOptimize(raw_out.data());
        benchmark::ClobberMemory();
        raw_s += since(t0);
        copy_s += time_copy(copy, bytes);
        if (!ok || !raw_ok || c1 != checksum || c2 != checksum) {
            state.SkipWithError("read failed");
            break;
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        const Entity &p = out[i], &q = raw_out[i];
        if (p.id != q.id || p.x != q.x || p.y != q.y || p.hp != q.hp || p.kind != q.kind) {
            state.SkipWithError("the stream and the raw reader disagree");
            break;
        }
    }
    report(state, stream_s, raw_s, copy_s);
}
BENCHMARK(BM_EntityListRead);

}  // namespace

BENCHMARK_MAIN();
