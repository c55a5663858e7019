// A client-server game in one file: dots that move with their players' input, one server and two clients
// on a simulated link (80 ms each way, 10 ms jitter, 3 % loss), run for five seconds of virtual time.
#include <rewind/rewind.hpp>

#include <cstdio>

namespace cs = rwd::client_server;
using rwd::Micros;

struct Dots {
    static constexpr int kMaxPlayers = 4;
    struct Dot {
        std::int32_t x = 0, y = 0, here = 0;
    };
    struct State {
        Dot dots[kMaxPlayers]{};
    };
    struct Input {
        std::int8_t dx = 0, dy = 0;
        friend bool operator==(const Input&, const Input&) = default;
    };
    struct EntitySnapshot {
        std::int32_t x = 0, y = 0;
        friend bool operator==(const EntitySnapshot&, const EntitySnapshot&) = default;
    };
    struct EntityRecord {
        std::uint32_t id = 0;
        EntitySnapshot snap{};
    };

    static void step(State& s, std::span<const Input> in) {
        for (int i = 0; i < kMaxPlayers; ++i) s.dots[i].x += in[i].dx, s.dots[i].y += in[i].dy;
    }
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s); }
    static void add_player(State& s, int slot) { s.dots[slot] = Dot{0, 0, 1}; }
    static void remove_player(State& s, int slot) { s.dots[slot] = Dot{}; }
    static std::uint32_t player_entity(int slot) { return static_cast<std::uint32_t>(slot); }
    static void capture(const State& s, std::vector<EntityRecord>& out) {
        out.clear();
        for (std::uint32_t i = 0; i < kMaxPlayers; ++i)
            if (s.dots[i].here) out.push_back({i, {s.dots[i].x, s.dots[i].y}});
    }
    static void restore(State& s, std::span<const EntityRecord> records) {
        s = State{};
        for (const EntityRecord& r : records) s.dots[r.id % kMaxPlayers] = Dot{r.snap.x, r.snap.y, 1};
    }
};
template <class Stream>
bool serialize(Stream& s, Dots::Input& in) {
    return rwd::wire::serialize_int(s, in.dx, -3, 3) && rwd::wire::serialize_int(s, in.dy, -3, 3);
}
template <class Stream>
bool serialize(Stream& s, Dots::EntitySnapshot& e) {
    return rwd::wire::serialize_int(s, e.x, -100000, 100000) &&
           rwd::wire::serialize_int(s, e.y, -100000, 100000);
}

int main() {
    rwd::transport::SimNetworkConfig net_config;
    net_config.seed = 1;
    net_config.default_link.latency = Micros{80'000};
    net_config.default_link.jitter = Micros{10'000};
    net_config.default_link.loss = 0.03;
    rwd::transport::SimNetwork net(net_config);
    const rwd::transport::Address server_address{"server", 1};
    cs::Server<Dots> server(*net.listen(server_address, 8).value(), cs::ServerConfig{});
    cs::Client<Dots> a(*net.create_endpoint({"a", 2}).value(), cs::ClientConfig{});
    cs::Client<Dots> b(*net.create_endpoint({"b", 3}).value(), cs::ClientConfig{});
    Micros now{0};
    (void)a.connect(server_address, now);
    (void)b.connect(server_address, now);
    for (int ms = 0; ms < 5000; ++ms) {
        now += Micros{1000};
        a.set_input(Dots::Input{1, 0});                               // a walks right
        b.set_input(ms < 3000 ? Dots::Input{0, -2} : Dots::Input{});  // b walks up, then stops
        server.update(now);
        a.update(now);
        b.update(now);
    }
    const auto& ad = server.state().dots[a.slot()];
    const auto& bd = server.state().dots[b.slot()];
    std::printf("server: a at (%d, %d), b at (%d, %d)\n", ad.x, ad.y, bd.x, bd.y);
    for (const auto& e : a.render_entities(now))
        std::printf("a draws entity %u at (%d, %d)%s\n", e.id, e.snap.x, e.snap.y,
                    e.id == Dots::player_entity(a.slot()) ? " (itself, predicted)" : "");
    const auto own = b.own_entity();
    const bool ok = own && own->x == bd.x && own->y == bd.y && ad.x > 0;
    std::printf("%s: b's prediction %s the server\n", ok ? "ok" : "FAIL",
                ok ? "agrees with" : "differs from");
    return ok ? 0 : 1;
}
