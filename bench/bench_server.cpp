/// Benchmarks of the client-server sessions on the arena: a 64-client server tick with every client's
/// snapshot (plain or sealed), the same tick on a world that grows with the players (field_game.hpp), one
/// packet sealed and opened, its Prometheus page, a client tick whose reconciliation replays 30 ticks, and a
/// client's rendered frame.
#include <arena/arena_game.hpp>

#include "field_game.hpp"

#include <rewind/core/metrics_text.hpp>
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/auth/secure_channel.hpp>
#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/session/client_server/world_recorder.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <deque>
#include <memory>
#include <type_traits>
#include <vector>

namespace {

namespace cs = rwd::client_server;
namespace tr = rwd::transport;
using arena::ArenaGame;
using rwd::Micros;
using rwd::Tick;

/// A Transport that delivers what the benchmark queues and records what the session sends (no network).
class FakeTransport final : public tr::Transport {
public:
    std::deque<tr::TransportEvent> inbox;
    std::vector<std::vector<std::uint8_t>> sent;
    std::size_t bytes = 0;

    rwd::Result<tr::PeerId> connect(const tr::Address&) override {
        inbox.push_back(tr::TransportEvent{tr::TransportEvent::Type::connected, 1, {}, {}, {}});
        return tr::PeerId{1};
    }
    void disconnect(tr::PeerId, tr::DisconnectReason) override {}
    rwd::Status send(tr::PeerId, tr::Delivery, std::span<const std::uint8_t> data) override {
        bytes += data.size();
        if (keep) sent.emplace_back(data.begin(), data.end());
        return {};
    }
    void update(Micros) override {}
    bool poll(tr::TransportEvent& out) override {
        if (inbox.empty()) return false;
        out = std::move(inbox.front());
        inbox.pop_front();
        return true;
    }
    tr::PeerStats stats(tr::PeerId) const override { return {}; }
    // ENet's unfragmented limit at its default 1200-byte MTU: the server writes each snapshot into a buffer
    // of this size, as it does on the real transport.
    std::size_t max_message_size() const override { return 1172; }
    std::size_t header_bytes() const override { return 0; }

    /// Queues `msg` from `peer`, sealed with `channel` when one is given (a client of a token server).
    template <class Msg>
    void deliver(tr::PeerId peer, Msg msg, tr::Delivery d = tr::Delivery::unreliable,
                 rwd::auth::SecureChannel* channel = nullptr) {
        tr::TransportEvent ev{tr::TransportEvent::Type::message, peer, d, {}, {}};
        (void)cs::encode_message(msg, ev.data);
        if (channel) {
            std::vector<std::uint8_t> plain = std::move(ev.data);
            (void)channel->seal(rwd::auth::lane_of(d), plain, ev.data);
        }
        inbox.push_back(std::move(ev));
    }
    bool keep = false;
};

constexpr Micros kTick{16'667};

/// Fixed bytes from `base` (benchmarks need no randomness).
template <std::size_t N>
std::array<std::uint8_t, N> fixed_bytes(std::uint8_t base) {
    std::array<std::uint8_t, N> a{};
    for (std::size_t i = 0; i < N; ++i) a[i] = static_cast<std::uint8_t>(base + i);
    return a;
}

/// A token server's requirement, and the hello and client channel of client `p` under it.
struct Tokens {
    rwd::auth::KeyPair backend = rwd::auth::generate_keypair(fixed_bytes<32>(7));
    rwd::auth::SealingKey sealing = rwd::auth::derive_sealing_key(fixed_bytes<32>(7));
    Micros wall{1'700'000'000'000'000};

    rwd::auth::TokenRequirement requirement() const {
        rwd::auth::TokenRequirement r;
        r.public_key = backend.public_key;
        r.sealing_key = sealing;
        r.server_address = "bench:1";
        r.clock_offset = wall;
        r.process_salt = fixed_bytes<rwd::auth::kConnectionSaltBytes>(77);
        return r;
    }
    /// The hello of client `p` (at session time 1 s), and its keys in `keys`.
    cs::ConnectRequest hello(tr::PeerId p, rwd::auth::SessionKeys& keys) const {
        rwd::auth::TokenFields f;
        f.client_id = p;
        f.server_address = "bench:1";
        f.issued_at = wall;
        f.expires_at = wall + Micros{3'600'000'000};
        f.nonce = fixed_bytes<rwd::auth::kTokenNonceBytes>(static_cast<std::uint8_t>(p));
        f.keys.client_to_server = fixed_bytes<32>(static_cast<std::uint8_t>(p));
        f.keys.server_to_client = fixed_bytes<32>(static_cast<std::uint8_t>(p + 100));
        keys = f.keys;
        cs::ConnectRequest req;
        req.token = rwd::auth::mint_token(f, backend.secret_key, sealing).value();
        return req;
    }
};

/// The arena's tick: its 64 m map for any player count (crowded at 64), every client running and firing,
/// turning its aim; every client is sent the whole world (no area of interest), as by default.
struct ArenaTick {
    using Game = ArenaGame;
    static arena::State world(int) { return arena::new_match(1); }
    static void configure(cs::ServerConfig&) {}
    static void input(ArenaGame::Input& in, Tick next, tr::PeerId p, bool first) {
        in.move_x = 60;
        in.buttons = arena::kFire;
        if (first) in.aim = static_cast<std::uint16_t>(next.value * 97u + p * 1024u);
    }
};

/// The same tick at a fixed density: FieldGame's 100 m² per player, and a 16 m area of interest (the lab's),
/// so each client is sent about as many entities at 8 players as at 64.
struct FieldTick {
    using Game = field::FieldGame;
    static Game::State world(int players) { return Game::new_field(players); }
    static void configure(cs::ServerConfig& sc) { sc.snapshots.aoi_radius_m = 16.0; }
    static void input(Game::Input&, Tick, tr::PeerId, bool) {}
};

/// One server tick of T's world (ArenaTick, FieldTick) with N (second argument) seated clients, each sending
/// its input, and every due snapshot built (first argument: snapshot rate; third: 1 = range-coded entity
/// lists, the default, 0 = bit-packed, the previous codec; fourth: 1 = every client acknowledges the snapshot
/// sent 6 ticks (100 ms) before, as on a 100 ms link, so snapshots are deltas; 0 = nobody acknowledges: every
/// snapshot is full, the worst case, as while everyone joins or on a link that loses everything; fifth: 1 =
/// the clients connected with tokens, so every input is opened and every snapshot and event sealed, as in
/// production; sixth: 1 = a WorldRecorder records every tick, as rewind-server --record does; seventh: 1 =
/// seats are held for lost links (the default seat_grace: every reliable message is also kept in its seat's
/// resend log), 0 = no grace).
template <class T>
void server_tick(benchmark::State& st) {
    using G = typename T::Game;
    const bool acks = st.range(3) != 0;
    const bool sealed = st.range(4) != 0;
    std::deque<Tick> sent_ticks;  // snapshot ticks, oldest first
    const auto clients = static_cast<tr::PeerId>(st.range(1));
    FakeTransport t;
    cs::ServerConfig sc;
    sc.snapshot_rate_hz = static_cast<int>(st.range(0));
    T::configure(sc);
    sc.snapshots.range_coded = st.range(2) != 0;
    if (st.range(6) == 0) sc.seat_grace = rwd::Micros{0};
    const Tokens tokens;
    if (sealed) sc.require_token = tokens.requirement();
    cs::Server<G> server(t, sc, T::world(static_cast<int>(clients)));
    std::unique_ptr<cs::WorldRecorder<ArenaGame>> recorder;
    if constexpr (std::is_same_v<G, ArenaGame>) {
        recorder =
            cs::WorldRecorder<ArenaGame>::create({"arena", 1, 60}, 60, sc.late_input_replay_ticks).value();
        if (st.range(5) != 0) server.set_recorder(recorder.get());
    }
    Micros now{1'000'000};
    std::vector<std::unique_ptr<rwd::auth::SecureChannel>> channels(clients + 1);
    for (tr::PeerId p = 1; p <= clients; ++p) {
        t.inbox.push_back(tr::TransportEvent{tr::TransportEvent::Type::connected, p, {}, {}, {}});
        rwd::auth::SessionKeys keys;
        t.deliver(p, sealed ? tokens.hello(p, keys) : cs::ConnectRequest{}, tr::Delivery::reliable_ordered);
        // The server seats them in this order: the p-th keyed connection's salt (what its accept carries).
        if (sealed)
            channels[p] = std::make_unique<rwd::auth::SecureChannel>(
                rwd::auth::connection_keys(keys,
                                           rwd::auth::connection_salt(tokens.requirement().process_salt, p)),
                rwd::auth::SecureChannel::Side::client);
    }
    server.update(now);
    cs::InputPacket<typename G::Input> pkt;
    pkt.count = 4;
    for (auto& in : pkt.inputs) T::input(in, Tick{0}, 0, false);
    std::uint64_t snapshots = 0, snapshot_bytes = 0;
    for (auto _ : st) {
        // The clients' packets are made (and sealed) off the clock: the figure is the server's work alone.
        st.PauseTiming();
        const Tick next = server.tick();
        while (acks && sent_ticks.size() > 1 && sent_ticks[1].value + 6 <= next.value) sent_ticks.pop_front();
        pkt.has_ack = acks && !sent_ticks.empty() && sent_ticks.front().value + 6 <= next.value;
        if (pkt.has_ack) pkt.ack_snapshot_tick = sent_ticks.front();
        for (tr::PeerId p = 1; p <= clients; ++p) {
            pkt.newest_tick = next + 2;
            T::input(pkt.inputs[0], next, p, true);
            t.deliver(p, pkt, tr::Delivery::unreliable, channels[p].get());
        }
        st.ResumeTiming();
        now += kTick;
        const auto before = server.stats().snapshots_sent;
        server.update(now);
        if (server.stats().snapshots_sent != before) sent_ticks.push_back(Tick{server.tick().value - 1});
        snapshots += server.stats().snapshots_sent - before;
    }
    for (int s = 0; s < static_cast<int>(clients); ++s)
        snapshot_bytes += server.client_stats(s).snapshot_bytes_total;
    st.counters["seated"] = server.seated_count();
    std::uint64_t rejected = 0;
    for (auto r : server.stats().packets_rejected) rejected += r;
    st.counters["rejected"] = static_cast<double>(rejected);  // must stay 0
    st.counters["snapshots/tick"] =
        benchmark::Counter(static_cast<double>(snapshots) / static_cast<double>(st.iterations()));
    std::uint64_t deltas = 0;
    for (int s = 0; s < static_cast<int>(clients); ++s)
        deltas += server.client_stats(s).snapshots_with_baseline;
    st.counters["delta_share"] = static_cast<double>(deltas) / static_cast<double>(std::max<std::uint64_t>(
                                                                   1, server.stats().snapshots_sent));
    std::uint64_t relevant = 0;
    for (int s = 0; s < static_cast<int>(clients); ++s)
        relevant += server.client_stats(s).snapshot_entities_total;
    st.counters["entities/snapshot"] =
        static_cast<double>(relevant) /
        static_cast<double>(std::max<std::uint64_t>(1, server.stats().snapshots_sent));
    st.counters["snapshot_B"] =
        static_cast<double>(snapshot_bytes) /
        static_cast<double>(std::max<std::uint64_t>(1, server.stats().snapshots_sent));
    if (recorder && st.range(5) != 0)
        st.counters["recorded_B/tick"] = benchmark::Counter(static_cast<double>(recorder->size_bytes()) /
                                                            static_cast<double>(st.iterations()));
    if constexpr (std::is_same_v<G, ArenaGame>) server.set_recorder(nullptr);
}

void BM_ServerTickClients(benchmark::State& st) { server_tick<ArenaTick>(st); }
void BM_ServerTickField(benchmark::State& st) { server_tick<FieldTick>(st); }
BENCHMARK(BM_ServerTickClients)
    ->ArgsProduct({{30}, {8, 16, 32, 64}, {1, 0}, {1}, {0}, {0}, {1}})
    ->Args({30, 64, 1, 1, 0, 0, 0})
    ->Args({60, 64, 1, 1, 0, 0, 1})
    ->Args({30, 64, 1, 0, 0, 0, 1})
    ->Args({30, 64, 0, 0, 0, 0, 1})
    ->Args({30, 8, 1, 1, 1, 0, 1})
    ->Args({30, 64, 1, 1, 1, 0, 1})
    ->Args({30, 64, 1, 0, 1, 0, 1})
    ->Args({30, 8, 1, 1, 0, 1, 1})
    ->Args({30, 64, 1, 1, 0, 1, 1})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ServerTickField)
    ->ArgsProduct({{30}, {8, 16, 32, 64}, {1, 0}, {1}, {0}, {0}, {1}})
    ->Unit(benchmark::kMicrosecond);

/// Sealing then opening one packet of N bytes (ChaCha20-Poly1305 and the replay window): what encryption adds
/// per packet, on each side.
void BM_SealAndOpenPacket(benchmark::State& st) {
    const auto keys = rwd::auth::SessionKeys{fixed_bytes<32>(1), fixed_bytes<32>(2)};
    rwd::auth::SecureChannel client(keys, rwd::auth::SecureChannel::Side::client);
    rwd::auth::SecureChannel server(keys, rwd::auth::SecureChannel::Side::server);
    std::vector<std::uint8_t> plain(static_cast<std::size_t>(st.range(0)), 0x5A), sealed, opened;
    for (auto _ : st) {
        (void)client.seal(rwd::auth::Lane::unreliable, plain, sealed);
        if (server.open(rwd::auth::Lane::unreliable, sealed, opened) != rwd::auth::OpenError::none)
            st.SkipWithError("a genuine packet did not open");
        benchmark::DoNotOptimize(opened.data());
    }
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * st.range(0));
}
BENCHMARK(BM_SealAndOpenPacket)->Arg(40)->Arg(200)->Arg(1172)->Unit(benchmark::kNanosecond);

/// The Prometheus page of a server with 64 seated clients that have played a second (what one scrape costs
/// the server loop).
void BM_ServerMetricsPage64Clients(benchmark::State& st) {
    FakeTransport t;
    cs::Server<ArenaGame> server(t, cs::ServerConfig{}, arena::new_match(1));
    Micros now{1'000'000};
    for (tr::PeerId p = 1; p <= 64; ++p) {
        t.inbox.push_back(tr::TransportEvent{tr::TransportEvent::Type::connected, p, {}, {}, {}});
        t.deliver(p, cs::ConnectRequest{}, tr::Delivery::reliable_ordered);
    }
    for (int i = 0; i < 60; ++i) server.update(now += kTick);
    std::size_t bytes = 0;
    for (auto _ : st) {
        rwd::MetricsText page;
        server.write_metrics(page);
        bytes = page.text().size();
        benchmark::DoNotOptimize(page.text().data());
    }
    st.counters["seated"] = server.seated_count();
    st.counters["page_B"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ServerMetricsPage64Clients)->Unit(benchmark::kMicrosecond);

/// A client of a 64-player arena fed by hand: every snapshot acknowledges the tick 30 ticks back and echoes
/// the newest ping (a round trip of one frame).
struct FedClient {
    FakeTransport t;
    cs::Client<ArenaGame> client{t, cs::ClientConfig{}};
    Micros now{1'000'000};
    cs::SnapshotPacket<ArenaGame::EntityRecord> snap;
    Tick server_tick{1000};

    FedClient() {
        t.keep = true;
        (void)client.connect({"server", 1}, now);
        t.deliver(1, cs::ConnectAccept{0, Tick{1000}, 60, 30}, tr::Delivery::reliable_ordered);
        arena::State world = arena::new_match(2);
        for (int s = 0; s < 64; ++s) ArenaGame::add_player(world, s);
        ArenaGame::capture(world, snap.entities);
        for (int i = 0; i < 300 && client.phase() != cs::ClientPhase::playing; ++i) {
            feed();
            now += kTick;
            client.update(now);
        }
        for (int i = 0; i < 40; ++i) {
            now += kTick;
            client.update(now);
        }
        arena::Input in;
        in.move_x = 100;
        client.set_input(in);
    }
    void feed() {
        for (const auto& bytes : t.sent) {
            cs::InputPacket<ArenaGame::Input> in;
            if (cs::decode_message(bytes, in).ok()) snap.pong_time = in.ping_time;
        }
        t.sent.clear();
        snap.server_tick = server_tick;
        snap.has_input = client.phase() == cs::ClientPhase::playing;
        snap.last_input_tick = client.tick() - 31;
        snap.pong_hold_us = 0;
        t.deliver(1, snap);
        ++server_tick;
    }
};

/// One client tick (predict + send) plus one snapshot decode and a reconciliation replaying 30 ticks of a
/// 64-player arena.
void BM_ClientReconcile30Ticks(benchmark::State& st) {
    FedClient f;
    auto& client = f.client;
    const auto replayed_before = client.stats().replayed_ticks;
    const auto rec_before = client.stats().reconciliations;
    for (auto _ : st) {
        f.feed();
        f.now += kTick;
        client.update(f.now);
    }
    const auto recs = client.stats().reconciliations - rec_before;
    st.counters["replayed/snapshot"] = static_cast<double>(client.stats().replayed_ticks - replayed_before) /
                                       static_cast<double>(std::max<std::uint64_t>(1, recs));
    st.counters["playing"] = client.phase() == cs::ClientPhase::playing ? 1 : 0;
}
BENCHMARK(BM_ClientReconcile30Ticks)->Unit(benchmark::kMicrosecond);

/// One rendered frame between ticks of a 64-player arena (as the client app draws it): the render list and
/// the drawn own player, with no new tick or snapshot since the last frame.
void BM_ClientRenderFrame(benchmark::State& st) {
    FedClient f;
    auto& client = f.client;
    Micros frame = f.now;
    for (auto _ : st) {
        frame += Micros{1};  // a new frame time, still before the next tick
        benchmark::DoNotOptimize(client.render_entities(frame).size());
        benchmark::DoNotOptimize(client.smoothed_own_entity());
    }
    st.counters["playing"] = client.phase() == cs::ClientPhase::playing ? 1 : 0;
}
BENCHMARK(BM_ClientRenderFrame)->Unit(benchmark::kMicrosecond);

/// The replay alone: 30 arena steps of a 64-player world (the floor under the reconciliation above).
void BM_Arena30Steps(benchmark::State& st) {
    arena::State world = arena::new_match(3);
    for (int s = 0; s < 64; ++s) ArenaGame::add_player(world, s);
    std::array<ArenaGame::Input, ArenaGame::kMaxPlayers> inputs{};
    inputs[0].move_x = 100;
    for (auto _ : st) {
        arena::State s = world;
        for (int i = 0; i < 30; ++i) ArenaGame::step(s, inputs, nullptr);
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK(BM_Arena30Steps)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
