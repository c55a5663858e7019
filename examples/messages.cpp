// Game-defined messages in one file: the server announces rounds (reliable); two clients on a lossy simulated
// link vote for the next map (reliable) and ping the server (unreliable, echoed), for four virtual seconds.
#include <rewind/rewind.hpp>

#include <cstdio>

namespace cs = rwd::client_server;
using rwd::Micros;
using Dir = cs::MessageDirection;
using Delivery = cs::MessageDelivery;

struct RoundStart {  // server -> everyone, reliable; at most 2 bytes
    static constexpr cs::MessageSpec kMessage{"round_start", Dir::to_client, Delivery::reliable, 2};
    int round = 0, map = 0;
};
struct Vote {  // client -> server, reliable; at most 1 byte, 2 a second, 4 in a burst
    static constexpr cs::MessageSpec kMessage{"vote", Dir::to_server, Delivery::reliable, 1, 2, 4};
    int map = 0;
};
struct Ping {  // either way, unreliable: stale once a newer one is out, so never resent
    static constexpr cs::MessageSpec kMessage{"ping", Dir::both, Delivery::unreliable, 4, 20, 20};
    std::uint32_t sent_ms = 0;
};
// Each type's serialize() is found by ADL, like Input's; what a reader refuses never reaches the app.
template <class S>
bool serialize(S& s, RoundStart& m) {
    return rwd::wire::serialize_int(s, m.round, 0, 255) && rwd::wire::serialize_int(s, m.map, 0, 15);
}
template <class S>
bool serialize(S& s, Vote& m) {
    return rwd::wire::serialize_int(s, m.map, 0, 15);
}
template <class S>
bool serialize(S& s, Ping& m) {
    return rwd::wire::serialize_bits(s, m.sent_ms, 32);
}

struct Lobby {  // the smallest client-server game: players are here or not, and nothing moves
    static constexpr int kMaxPlayers = 4;
    using Messages = cs::MessageList<RoundStart, Vote, Ping>;  // ids 8, 9, 10 on the wire
    struct Flag {  // the input (unused) and the entity (here or not)
        std::uint8_t on = 0;
        friend bool operator==(const Flag&, const Flag&) = default;
    };
    using Input = Flag;
    using EntitySnapshot = Flag;
    struct EntityRecord {
        std::uint32_t id = 0;
        Flag snap{};
    };
    using State = std::array<Flag, kMaxPlayers>;  // who is here
    static void step(State&, std::span<const Input>) {}
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s); }
    static void add_player(State& s, int slot) { s[slot].on = 1; }
    static void remove_player(State& s, int slot) { s[slot].on = 0; }
    static std::uint32_t player_entity(int slot) { return static_cast<std::uint32_t>(slot); }
    static void capture(const State& s, std::vector<EntityRecord>& out) {
        out.clear();
        for (std::uint32_t i = 0; i < kMaxPlayers; ++i) out.push_back({i, s[i]});
    }
    static void restore(State& s, std::span<const EntityRecord> records) {
        for (const EntityRecord& r : records) s[r.id % kMaxPlayers] = r.snap;
    }
};
template <class S>
bool serialize(S& s, Lobby::Flag& f) {
    return rwd::wire::serialize_int(s, f.on, 0, 1);
}

int main() {
    rwd::transport::SimNetwork net(
        {.seed = 3, .default_link = {.latency = Micros{60'000}, .jitter = Micros{10'000}, .loss = 0.05}});
    const rwd::transport::Address server_address{"server", 1};
    cs::Server<Lobby> server(*net.listen(server_address, 8).value(), cs::ServerConfig{});
    cs::Client<Lobby> clients[2] = {{*net.create_endpoint({"a", 2}).value(), cs::ClientConfig{}},
                                    {*net.create_endpoint({"b", 3}).value(), cs::ClientConfig{}}};
    Micros now{0};
    for (auto& c : clients) (void)c.connect(server_address, now);
    int round = 0, votes = 0, best = 0, tally[16]{}, rounds[2]{}, spawns[2]{}, echoes[2]{};
    for (int ms = 0; ms < 4000; ++ms) {
        now += Micros{1000};
        server.update(now);
        for (int i = 0; i < 2; ++i) {
            cs::Client<Lobby>& c = clients[i];
            c.update(now);
            if (ms % 100 == 0) (void)c.send(Ping{static_cast<std::uint32_t>(now.count / 1000)});
            for (cs::Message m; c.poll_message(m);) {     // reliable ones in order, exactly once
                if (cs::Spawn spawn; c.read(m, spawn)) {  // the library's own messages come this way too
                    std::printf("slot %d: the player in slot %d is here\n", c.slot(), spawn.slot);
                    ++spawns[i];
                } else if (RoundStart r; c.read(m, r)) {
                    std::printf("slot %d: round %d on map %d, server tick %u\n", c.slot(), r.round, r.map,
                                m.tick.value);
                    if (++rounds[i] == 1) (void)c.send(Vote{2 + 3 * i});
                } else if (Ping ping; c.read(m, ping) && echoes[i]++ == 0) {
                    std::printf("slot %d: first ping echo after %d ms\n", c.slot(),
                                static_cast<int>(now.count / 1000 - ping.sent_ms));
                }
            }
        }
        for (cs::Message m; server.poll_message(m);) {  // already checked against each type's spec
            if (Vote vote; server.read(m, vote)) {
                std::printf("server: slot %d votes for map %d\n", m.from, vote.map);
                if (++tally[vote.map] > tally[best]) best = vote.map;
                ++votes;
            } else if (Ping ping; server.read(m, ping)) {
                (void)server.send(m.from, ping);  // the echo, unreliable like the ping
            }
        }
        if ((round == 0 && server.seated_count() == 2) || (round == 1 && votes == 2))
            (void)server.broadcast(RoundStart{++round, best});
    }
    bool ok = votes == 2 && round == 2;
    for (int i = 0; i < 2; ++i) ok = ok && rounds[i] == 2 && spawns[i] == 2 && echoes[i] > 0;
    std::printf("%s; the server took %llu client messages\n", ok ? "ok: all arrived" : "FAIL: some missing",
                static_cast<unsigned long long>(server.stats().messages_received));
    return ok ? 0 : 1;
}
