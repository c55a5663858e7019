// Snapshot encoding benchmarks: every client's delta snapshot for 64 arena players (interest, priorities,
// budget), with bytes per client per snapshot against full quantized snapshots.
#include <benchmark/benchmark.h>

#include <rewind/session/client_server/messages.hpp>
#include <rewind/session/client_server/packets.hpp>
#include <rewind/sync/snapshot_planner.hpp>
#include <rewind/wire/stream.hpp>

#include "arena/arena_game.hpp"
#include "arena/bot.hpp"

#include <array>
#include <deque>
#include <vector>

namespace {

using arena::ArenaGame;
using Rec = ArenaGame::EntityRecord;
constexpr int kPlayers = 64;
constexpr int kTicksPerSnapshot = 2;  // 60 Hz ticks, 30 Hz snapshots

/// 240 snapshots (8 s) of a 64-bot match warmed up for 10 s.
const std::vector<std::vector<Rec>>& recorded_world() {
    static const std::vector<std::vector<Rec>> worlds = [] {
        ArenaGame::State s = arena::new_match(12345);
        std::vector<arena::Bot> bots;
        for (int i = 0; i < kPlayers; ++i) {
            ArenaGame::add_player(s, i);
            bots.emplace_back(777 + static_cast<std::uint64_t>(i));
        }
        std::vector<std::vector<Rec>> out;
        std::array<arena::Input, arena::kMaxPlayers> in{};
        for (int t = 0; t < 600 + 240 * kTicksPerSnapshot; ++t) {
            for (int i = 0; i < kPlayers; ++i)
                in[static_cast<std::size_t>(i)] =
                    bots[static_cast<std::size_t>(i)].think(arena::view_of(s, i));
            ArenaGame::step(s, in, nullptr);
            if (t >= 600 && (t - 600) % kTicksPerSnapshot == 0) {
                out.emplace_back();
                ArenaGame::capture(s, out.back());
            }
        }
        return out;
    }();
    return worlds;
}

/// Bits of the full quantized entity list (what the sessions sent before delta coding), the same for
/// everyone.
std::size_t full_bits(const std::vector<Rec>& world) {
    auto copy = world;
    rwd::wire::MeasureStream m;
    (void)rwd::client_server::serialize_entities(m, copy);
    return m.bits_used();
}

/// The entity codecs compared: the previous one (bit-packed against the plain baseline), predicted deltas
/// with owner-only fields (bit-packed), and the same range-coded (protocol 6's default).
enum Codec : int { kPlain = 0, kPredicted = 1, kRange = 2 };

/// `world` as every client but an entity's owner receives it (owner-only fields left out).
std::vector<Rec> remote_world(const std::vector<Rec>& world) {
    std::vector<Rec> r = world;
    for (Rec& e : r) e.snap = ArenaGame::remote_view(e.snap);
    return r;
}

/// Every client's snapshot per iteration: set_world, then plan + encode + commit for 64 clients; each client
/// acknowledges the snapshot sent `ack_lag` snapshots earlier. Args: AoI radius (m, 0 = none), budget (bytes
/// of entity section, 0 = none), ack lag (snapshots), codec (Codec).
void BM_EncodeAllClients64(benchmark::State& bs) {
    const auto& worlds = recorded_world();
    const auto codec = static_cast<Codec>(bs.range(3));
    rwd::client_server::RangeSectionScratch range;
    range.model = &ArenaGame::snapshot_model();  // the server's default (SnapshotConfig::trained_model)
    std::vector<Rec> remote;
    rwd::sync::SnapshotPlannerConfig c;
    c.aoi_radius = bs.range(0) * arena::kUnitsPerMeter;
    c.grid.cell_size =
        static_cast<std::int32_t>(c.aoi_radius > 0 ? c.aoi_radius / 2 : 8 * arena::kUnitsPerMeter);
    c.budget_bits = bs.range(1) > 0 ? bs.range(1) * 8 : -1;
    const auto lag = static_cast<std::size_t>(bs.range(2));
    rwd::sync::SnapshotPlanner<Rec> planner(c);
    if (codec != kPlain) planner.set_predictor(&ArenaGame::predict_entity);
    std::vector<rwd::sync::SnapshotClient<Rec>> clients(kPlayers);
    for (auto& cl : clients) cl.reset(c.window);
    rwd::sync::SnapshotPlan<Rec> plan;
    std::vector<std::uint8_t> buffer(4096);
    std::vector<rwd::sync::GridPoint> pos;
    std::deque<rwd::Tick> sent_ticks;
    std::uint16_t seq = 0;
    std::size_t frame = 0;
    double delta_bits = 0, full = 0, entities = 0, snapshots = 0;
    for (auto _ : bs) {
        const auto& world = worlds[frame % worlds.size()];
        const rwd::Tick tick{static_cast<std::uint32_t>(frame * kTicksPerSnapshot)};
        pos.clear();
        for (const Rec& r : world) pos.push_back({r.snap.x, r.snap.y});
        if (codec == kPlain) {
            planner.set_world(std::span<const Rec>(world), std::span<const rwd::sync::GridPoint>(pos));
        } else {
            remote = remote_world(world);
            planner.set_world(std::span<const Rec>(remote), std::span<const rwd::sync::GridPoint>(pos), {},
                              std::span<const Rec>(world));
        }
        planner.set_now(tick);
        for (int i = 0; i < kPlayers; ++i) {
            auto& cl = clients[static_cast<std::size_t>(i)];
            const auto viewer = std::lower_bound(world.begin(), world.end(), ArenaGame::player_entity(i),
                                                 [](const Rec& r, std::uint32_t id) { return r.id < id; }) -
                                world.begin();
            planner.plan(cl, seq, static_cast<int>(viewer), plan);
            rwd::wire::WriteStream w{std::span<std::uint8_t>(buffer)};
            if (!rwd::client_server::write_entity_section(w, plan.baseline_age, plan.baseline, plan.held,
                                                          plan.stale, std::span<const Rec>(plan.reference),
                                                          codec == kRange ? &range : nullptr))
                bs.SkipWithError("encode failed");
            planner.commit(cl, seq, tick, plan);
            if (frame >= 30) {  // after warm-up: steady state
                delta_bits += static_cast<double>(w.bits_used());
                entities += plan.stats.relevant;
                snapshots += 1;
            }
        }
        if (frame >= 30) full += static_cast<double>(full_bits(world)) * kPlayers;
        sent_ticks.push_back(tick);
        if (sent_ticks.size() > lag) {
            for (auto& cl : clients) (void)cl.window.ack(sent_ticks.front());
            sent_ticks.pop_front();
        }
        ++seq;
        ++frame;
    }
    bs.counters["us_per_client"] =
        benchmark::Counter(static_cast<double>(bs.iterations()) * kPlayers,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    if (snapshots > 0) {
        bs.counters["delta_bytes"] = delta_bits / 8 / snapshots;
        bs.counters["full_bytes"] = full / 8 / snapshots;
        bs.counters["ratio"] = delta_bits / full;
        bs.counters["bits_per_entity"] = delta_bits / entities;
        bs.counters["relevant"] = entities / snapshots;
    }
}
BENCHMARK(BM_EncodeAllClients64)
    ->ArgNames({"aoi_m", "budget_B", "ack_lag", "codec"})
    ->Args({0, 0, 1, kPlain})
    ->Args({0, 0, 7, kPlain})
    ->Args({24, 0, 7, kPlain})
    ->Args({16, 0, 7, kPlain})
    ->Args({24, 90, 7, kPlain})
    ->Args({16, 90, 7, kPlain})
    ->Args({16, 0, 7, kPredicted})
    ->Args({16, 0, 7, kRange})
    ->Args({16, 90, 7, kRange})
    ->Unit(benchmark::kMicrosecond);

/// One client's snapshots decoded as a client does (against the baseline it holds, advanced by the
/// prediction), per snapshot: the 16 m area of interest, no budget, acks 7 snapshots late. Arg: codec.
void BM_DecodeOneClient64(benchmark::State& bs) {
    namespace cs = rwd::client_server;
    const auto& worlds = recorded_world();
    const auto codec = static_cast<Codec>(bs.range(0));
    rwd::sync::SnapshotPlannerConfig c;
    c.aoi_radius = 16 * arena::kUnitsPerMeter;
    c.grid.cell_size = 8 * arena::kUnitsPerMeter;
    rwd::sync::SnapshotPlanner<Rec> planner(c);
    if (codec != kPlain) planner.set_predictor(&ArenaGame::predict_entity);
    rwd::sync::SnapshotClient<Rec> server_side;
    server_side.reset(c.window);
    cs::RangeSectionScratch range;
    range.model = &ArenaGame::snapshot_model();  // the server's default (SnapshotConfig::trained_model)
    rwd::sync::SnapshotPlan<Rec> plan;
    struct Sent {
        std::uint16_t seq;
        rwd::Tick tick;
        std::vector<std::uint8_t> bytes;
    };
    std::vector<Sent> sent;
    std::vector<rwd::sync::GridPoint> pos;
    std::vector<Rec> remote;
    for (std::size_t f = 0; f < worlds.size(); ++f) {
        const auto& world = worlds[f];
        const rwd::Tick tick{static_cast<std::uint32_t>(f * kTicksPerSnapshot)};
        pos.clear();
        for (const Rec& r : world) pos.push_back({r.snap.x, r.snap.y});
        remote = codec == kPlain ? world : remote_world(world);
        planner.set_world(std::span<const Rec>(remote), std::span<const rwd::sync::GridPoint>(pos), {},
                          codec == kPlain ? std::span<const Rec>{} : std::span<const Rec>(world));
        planner.set_now(tick);
        planner.plan(server_side, static_cast<std::uint16_t>(f), 0, plan);
        std::vector<std::uint8_t> buf(4096);
        rwd::wire::WriteStream w{std::span<std::uint8_t>(buf)};
        (void)cs::write_entity_section(w, plan.baseline_age, plan.baseline, plan.held, plan.stale,
                                       std::span<const Rec>(plan.reference),
                                       codec == kRange ? &range : nullptr);
        w.flush();
        buf.resize(w.bytes_used());
        planner.commit(server_side, static_cast<std::uint16_t>(f), tick, plan);
        sent.push_back({static_cast<std::uint16_t>(f), tick, std::move(buf)});
        if (f >= 7) (void)server_side.window.ack(sent[f - 7].tick);
    }
    rwd::sync::SnapshotWindow<Rec> held(64);
    std::vector<Rec> reference;
    std::size_t i = 0, decoded = 0;
    for (auto _ : bs) {
        if (i == sent.size()) {
            bs.PauseTiming();
            held.reset();
            i = 0;
            bs.ResumeTiming();
        }
        const Sent& p = sent[i++];
        cs::SnapshotEntities<Rec> m;
        bool missing = false;
        rwd::wire::ReadStream s(p.bytes);
        const auto find = [&](std::uint16_t q) -> const std::vector<Rec>* {
            const auto* e = held.find(q);
            return e ? &e->entities : nullptr;
        };
        const auto predict = [&](std::uint16_t q, std::span<const Rec> base, std::span<const Rec>& ref) {
            const auto* e = held.find(q);
            if (e == nullptr) return false;
            rwd::sync::predict_records(base, rwd::sync::prediction_ticks(std::int64_t{p.tick - e->tick}),
                                       &ArenaGame::predict_entity, reference);
            ref = reference;
            return true;
        };
        if (!cs::read_snapshot_entities(s, p.seq, m, find, missing, predict, &range)) {
            bs.SkipWithError("decode failed");
            break;
        }
        held.push(p.seq, p.tick) = m.entities;
        ++decoded;
    }
    bs.counters["us_per_snapshot"] = benchmark::Counter(
        static_cast<double>(decoded), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DecodeOneClient64)->ArgName("codec")->Arg(kPlain)->Arg(kPredicted)->Arg(kRange);

/// The old way for comparison: one full quantized entity list per snapshot (the same bytes for every client).
void BM_EncodeFull64(benchmark::State& bs) {
    const auto& worlds = recorded_world();
    std::vector<std::uint8_t> buffer(8192);
    std::size_t frame = 0;
    for (auto _ : bs) {
        auto world = worlds[frame++ % worlds.size()];
        rwd::wire::WriteStream w{std::span<std::uint8_t>(buffer)};
        (void)rwd::client_server::serialize_entities(w, world);
        benchmark::DoNotOptimize(w.bits_used());
    }
    bs.counters["full_bytes"] = static_cast<double>(full_bits(worlds.front())) / 8;
}
BENCHMARK(BM_EncodeFull64)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
