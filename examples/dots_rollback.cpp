// A rollback game in one file: two peers found by address alone (P2PMatch) play three seconds over UDP on
// this machine; run as two processes, each would list "local" at its own slot and the other's "host:port".
#include <rewind/rewind.hpp>

#include <chrono>
#include <cstdio>
#include <thread>

struct Dots {
    static constexpr int kMaxPlayers = 2;
    struct State {
        std::int32_t x[kMaxPlayers]{}, frame = 0;
    };
    struct Input {
        std::int8_t dx = 0;
        friend bool operator==(const Input&, const Input&) = default;
    };
    static void step(State& s, std::span<const Input> in) {
        for (int i = 0; i < kMaxPlayers; ++i) s.x[i] += in[i].dx;
        ++s.frame;
    }
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s); }
};
template <class Stream>
bool serialize(Stream& s, Dots::Input& in) {
    return rwd::wire::serialize_int(s, in.dx, -1, 1);
}

rwd::Micros now() {
    using namespace std::chrono;
    return rwd::Micros{duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count()};
}

int main() {
    using Match = rwd::rollback::P2PMatch<Dots>;
    rwd::rollback::P2PMatchConfig c0;
    c0.bind_host = "127.0.0.1";
    c0.players = {"local", "127.0.0.1:9"};  // slot 0 waits for slot 1: the address only names it
    auto m0 = Match::open(c0, Dots::State{});
    if (!m0.ok()) return 1;
    rwd::rollback::P2PMatchConfig c1 = c0;
    c1.players = {rwd::transport::address_text(m0.value()->local_address()), "local"};
    auto m1 = Match::open(c1, Dots::State{});
    if (!m1.ok()) return 1;
    const auto input = [](int slot, const Dots::State& s) {
        return Dots::Input{std::int8_t(s.frame % 90 < 45 ? 1 - 2 * slot : 0)};
    };
    for (const rwd::Micros end = now() + rwd::Micros{3'000'000}; now() < end;) {
        m0.value()->advance(now(), input);
        m1.value()->advance(now(), input);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!m0.value()->ready() || !m1.value()->ready()) return std::printf("FAIL: the peers never met\n"), 1;
    const auto s0 = m0.value()->session().stats(), s1 = m1.value()->session().stats();
    const bool ok = s0.frame > 60 && s0.checksums_compared > 0 && s0.desyncs + s1.desyncs == 0;
    std::printf("%s: frames %d and %d, rollbacks %d, checksums compared %d, desyncs %d\n", ok ? "ok" : "FAIL",
                s0.frame, s1.frame, int(s0.rollbacks + s1.rollbacks), int(s0.checksums_compared),
                int(s0.desyncs + s1.desyncs));
    return ok ? 0 : 1;
}
