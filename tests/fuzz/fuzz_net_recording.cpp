/// libFuzzer target: the network recording parser on arbitrary bytes (once as given, once with its file
/// checksum repaired so that mutations reach the records), then an arena client and an arena server re-run
/// from whatever parses: every recorded event reaches their decoders as untrusted network data.
#include "file_fuzzing.hpp"

#include <arena/arena_game.hpp>

#include <rewind/session/client_server/net_replay.hpp>
#include <rewind/transport/net_recording.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

constexpr std::size_t kMaxReplayedRecords = 4000;  // longer recordings are parsed, not re-run

void exercise(const rwd::transport::NetRecordingData& d) {
    if (d.records.size() > kMaxReplayedRecords) return;
    rwd::client_server::ClientConfig cc;
    cc.game_id = 0x4152454Eu;
    const auto r = rwd::client_server::replay_client<arena::ArenaGame>(d, cc);
    if (r.divergence.sends_compared > d.records.size()) std::abort();  // only recorded sends are compared
    rwd::client_server::ServerConfig sc;
    sc.game_id = cc.game_id;
    sc.max_clients = 8;
    const auto s = rwd::client_server::replay_server<arena::ArenaGame>(d, sc, arena::new_match(1));
    if (s.divergence.sends_compared > d.records.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzzing::parse_given_and_repaired(
        std::span<const std::uint8_t>(data, size),
        [](std::span<const std::uint8_t> b) { return rwd::transport::parse_net_recording(b); },
        [](const auto& parsed) { exercise(parsed); });
    return 0;
}
