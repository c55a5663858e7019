/// Runs fuzz_server_session's named seeds (server_session_seeds.py) through its driver and checks that each
/// does what it was written to do: a seed whose layout no longer matches the driver's draws fails here, not
/// silently. Usage: server_session_seed_check CORPUS_DIR (run by scripts/run_fuzzers.sh).
#include "server_session_driver.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace cs = rwd::client_server;
using fuzzing::server_session::Driver;
using fuzzing::server_session::Slots;

/// What a seed must leave behind: the ops it is made of, and a few figures of the server it drove.
struct Expect {
    const char* name;
    int ops;               // every op of the program ran, and the input ended with the last one
    int seated;            // seated at the end
    bool some_malformed;   // it sends garbage (the others send none)
    bool some_refused;     // more clients than seats
    bool some_disconnect;  // someone left, was dropped or timed out
    bool real_playing;     // the real client ends in a match
};

// ops: the generator's op count for each program (server_session_seeds.py).
constexpr Expect kSeeds[] = {
    {"seated_play", 10 + 30 * 5, 4, false, false, false, false},
    {"server_full", 14 + 1, 4, false, true, false, false},
    {"flood", 6 + 5 * 2, 2, false, false, false, false},
    {"future_past", 6 + 10 * 3, 2, false, false, false, false},
    {"garbage_then_silence", 8 + 25 * 2 + 2, 0, true, false, true, false},
    {"reconnect_impaired", 6 + 9, 2, false, false, true, false},
    {"real_client", 1 + 10 + 1 + 4 + 20 * 2, 2, false, false, false, true},
};

bool read_file(const std::string& path, std::vector<std::uint8_t>& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    Slots slots;
    int failed = 0;
    for (const Expect& e : kSeeds) {
        std::vector<std::uint8_t> data;
        if (!read_file(std::string(argv[1]) + "/" + e.name, data)) {
            std::printf("seed %s: missing\n", e.name);
            ++failed;
            continue;
        }
        FuzzedDataProvider in(data.data(), data.size());
        Driver d(in, slots);
        d.run();
        const cs::ServerStats& st = d.server().stats();
        const bool real_playing = d.real_phase() == cs::ClientPhase::playing;
        const bool ok = d.ops() == e.ops && in.remaining_bytes() == 0 &&
                        d.server().seated_count() == e.seated && (st.malformed > 0) == e.some_malformed &&
                        (st.refused > 0) == e.some_refused && (st.disconnects > 0) == e.some_disconnect &&
                        real_playing == e.real_playing;
        std::printf(
            "seed %s: %s (ops %d of %d, %zu bytes left, seated %d, malformed %llu, refused %llu, "
            "disconnects %llu, real client playing %d)\n",
            e.name, ok ? "ok" : "FAILED", d.ops(), e.ops, in.remaining_bytes(), d.server().seated_count(),
            static_cast<unsigned long long>(st.malformed), static_cast<unsigned long long>(st.refused),
            static_cast<unsigned long long>(st.disconnects), real_playing ? 1 : 0);
        failed += ok ? 0 : 1;
    }
    return failed == 0 ? 0 : 1;
}
