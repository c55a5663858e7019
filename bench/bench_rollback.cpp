// Rollback cost: a worst-case rollback (load, 8 re-simulated frames, 8 saves) for the toy game and the arena.
#include "../tests/unit/session/rollback/toy_game.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/transport/sim_network.hpp>

#if __has_include(<arena/arena_game.hpp>)
#include <arena/arena_game.hpp>
#define REWIND_BENCH_ARENA 1
#endif

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <vector>

namespace {

using namespace rwd;
using namespace rwd::rollback;

std::uint64_t steady_ns(void*) {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

constexpr double kFrameNs = 16'666'667.0;

toy::Input toy_input(Rng& r) {
    toy::Input in;
    in.dx = static_cast<std::int8_t>(r.range(-8, 7));
    in.dy = static_cast<std::int8_t>(r.range(-8, 7));
    in.buttons = static_cast<std::uint8_t>(r.uniform(16));
    return in;
}
toy::State toy_initial(int) { return toy::State{}; }

#ifdef REWIND_BENCH_ARENA
arena::Input arena_input(Rng& r) {
    arena::Input in;
    in.move_x = static_cast<std::int8_t>(r.range(-127, 127));
    in.move_y = static_cast<std::int8_t>(r.range(-127, 127));
    in.aim = static_cast<std::uint16_t>(r.next_u32());
    in.buttons = static_cast<std::uint8_t>(r.uniform(16));
    return in;
}
arena::State arena_initial(int players) {
    arena::State s{};
    for (int p = 0; p < players; ++p) arena::ArenaGame::add_player(s, p);
    return s;
}
#endif

/// The kernel of one worst-case rollback, exactly as P2PSession does it: restore the oldest saved state, then
/// 8 times save the state into the ring and step it.
template <class G, class MakeInput, class Initial>
void kernel(benchmark::State& st, MakeInput make_input, Initial initial) {
    constexpr int kDepth = 8;
    constexpr int kPlayers = 4;
    std::vector<typename G::State> ring(kDepth + 1, initial(kPlayers));
    typename G::State cur = initial(kPlayers);
    std::vector<typename G::Input> inputs(G::kMaxPlayers);
    Rng r(7);
    for (int f = 0; f < 120; ++f) {  // warm the match up so the state is not trivial
        for (int p = 0; p < kPlayers; ++p) inputs[p] = make_input(r);
        G::step(cur, inputs, nullptr);
    }
    ring[0] = cur;
    for (auto _ : st) {
        cur = ring[0];  // load
        for (int f = 0; f < kDepth; ++f) {
            ring[static_cast<std::size_t>(f + 1)] = cur;  // save
            for (int p = 0; p < kPlayers; ++p) inputs[p] = make_input(r);
            G::step(cur, inputs, nullptr);
        }
        benchmark::DoNotOptimize(cur);
    }
    // Time per iteration = one rollback; as a share of a 60 Hz frame: time / 16.7 ms (goal: under 5 %).
    st.counters["state_bytes"] = static_cast<double>(sizeof(typename G::State));
}

/// Two machines with two local players each over a 150 ms one-way link, window 8 and no input delay: every
/// frame runs at the prediction threshold, so late inputs force rollbacks of exactly 8 frames. The session's
/// own timing (clock callback) reports what those rollbacks cost.
template <class G, class MakeInput, class Initial>
void session(benchmark::State& st, MakeInput make_input, Initial initial) {
    transport::SimNetworkConfig nc;
    nc.default_link.latency = Micros{150'000};
    transport::SimNetwork net(nc);
    transport::Transport* a = net.listen({"a", 1}, 4).value();
    transport::Transport* b = net.listen({"b", 1}, 4).value();
    const transport::PeerId ab = a->connect({"b", 1}).value();
    transport::PeerId ba = 0;
    Micros now{};
    for (int i = 0; i < 2000 && ba == 0; ++i) {
        now += Micros{1000};
        net.advance_to(now);
        transport::TransportEvent e;
        while (a->poll(e)) {
        }
        while (b->poll(e)) {
            if (e.type == transport::TransportEvent::Type::connected) ba = e.peer;
        }
    }
    P2PConfig c;
    c.num_players = 4;
    c.input_delay = 0;
    c.stall_frames_ahead = 0;
    c.clock = ClockFn{&steady_ns, nullptr};
    auto sa = P2PSession<G>::create(*a, c, initial(4)).value();
    c.seed = 2;
    auto sb = P2PSession<G>::create(*b, c, initial(4)).value();
    (void)sa->add_local_player(0), (void)sa->add_local_player(1), (void)sa->add_remote_player(2, ab),
        (void)sa->add_remote_player(3, ab);
    (void)sb->add_remote_player(0, ba), (void)sb->add_remote_player(1, ba), (void)sb->add_local_player(2),
        (void)sb->add_local_player(3);
    Rng r(11);
    std::vector<typename G::Input> held(4);
    for (auto _ : st) {
        for (int ms = 0; ms < 17; ++ms) {
            now += Micros{1000};
            net.advance_to(now);
            if (ms != 16) continue;
            if (r.chance(1, 4)) {
                for (auto& h : held) h = make_input(r);
            }
            (void)sa->add_local_input(0, held[0]), (void)sa->add_local_input(1, held[1]);
            (void)sb->add_local_input(2, held[2]), (void)sb->add_local_input(3, held[3]);
            (void)sa->advance(now);
            (void)sb->advance(now);
        }
    }
    const SessionStats s = sa->stats();
    const double depth8 = static_cast<double>(s.rollback_depth[8]);
    st.counters["rollbacks"] = static_cast<double>(s.rollbacks);
    st.counters["depth8_rollbacks"] = depth8;
    st.counters["depth8_mean_us"] =
        depth8 > 0 ? static_cast<double>(s.timing.rollback_ns[8]) / depth8 / 1000.0 : 0.0;
    st.counters["depth8_frame_%"] =
        depth8 > 0 ? 100.0 * static_cast<double>(s.timing.rollback_ns[8]) / depth8 / kFrameNs : 0.0;
    st.counters["max_rollback_us"] = static_cast<double>(s.timing.max_rollback_ns) / 1000.0;
    st.counters["step_mean_us"] = s.timing.steps > 0 ? static_cast<double>(s.timing.step_ns) /
                                                           static_cast<double>(s.timing.steps) / 1000.0
                                                     : 0.0;
    st.counters["save_mean_ns"] =
        s.timing.saves > 0 ? static_cast<double>(s.timing.save_ns) / static_cast<double>(s.timing.saves)
                           : 0.0;
    st.counters["load_mean_ns"] =
        s.timing.loads > 0 ? static_cast<double>(s.timing.load_ns) / static_cast<double>(s.timing.loads)
                           : 0.0;
}

void BM_RollbackKernel_Toy(benchmark::State& st) { kernel<toy::Game>(st, toy_input, toy_initial); }
void BM_RollbackSession_Toy(benchmark::State& st) { session<toy::Game>(st, toy_input, toy_initial); }
BENCHMARK(BM_RollbackKernel_Toy);
BENCHMARK(BM_RollbackSession_Toy)->Iterations(1200)->Unit(benchmark::kMicrosecond);

#ifdef REWIND_BENCH_ARENA
void BM_RollbackKernel_Arena4(benchmark::State& st) {
    kernel<arena::ArenaGame>(st, arena_input, arena_initial);
}
void BM_RollbackSession_Arena4(benchmark::State& st) {
    session<arena::ArenaGame>(st, arena_input, arena_initial);
}
BENCHMARK(BM_RollbackKernel_Arena4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RollbackSession_Arena4)->Iterations(1200)->Unit(benchmark::kMicrosecond);
#endif

}  // namespace

BENCHMARK_MAIN();
