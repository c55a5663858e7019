// rewind-lab --replay-net: the recorded client re-run on a PlaybackTransport, compared datagram by datagram
// and correction by correction.
#include "net_replay_mode.hpp"

#include "client/net_player.hpp"

#include <arena/arena_game.hpp>

#include <rewind/core/recording_file.hpp>
#include <rewind/session/client_server/net_replay.hpp>

namespace lab {

namespace {

namespace cs = rwd::client_server;
namespace tr = rwd::transport;

int fail(std::FILE* out, const std::string& path, std::string_view why) {
    std::fprintf(out, "rewind-lab: --replay-net %s: %.*s\n", path.c_str(), static_cast<int>(why.size()),
                 why.data());
    return 1;
}

}  // namespace

int replay_net(const std::string& path, std::FILE* out) {
    auto bytes = rwd::read_recording_file(path);
    if (!bytes.ok()) return fail(out, path, bytes.error().detail);
    auto data = tr::parse_net_recording(bytes.value());
    if (!data.ok()) return fail(out, path, data.error().detail);
    if (data->header.app != "rewind-client")
        return fail(out, path, "recorded by another program: the lab re-runs rewind-client's recordings");
    auto config = apps::client_config_from_text(data->header.config);
    if (!config.ok()) return fail(out, path, config.error().detail);
    if (config->tick_rate_hz != arena::kTickRate) return fail(out, path, "the arena runs only at 60 Hz");
    const cs::ClientReplay<arena::ArenaGame> r =
        cs::replay_client<arena::ArenaGame>(data.value(), config.value());
    const std::vector<std::uint8_t> log = cs::correction_log_bytes(r.corrections);
    const bool same_log = log == r.recorded_result;
    const bool exact = r.divergence.none() && r.bad_calls == 0 && same_log;
    const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    std::string described = data->header.config;  // untrusted text: only printable ASCII reaches the terminal
    for (char& ch : described)
        if (ch < 0x20 || ch > 0x7E) ch = '?';
    std::fprintf(out, "rewind-lab --replay-net %s (%s, %zu records)\n", path.c_str(), described.c_str(),
                 data->records.size());
    std::fprintf(out, "  program calls re-made: %llu (%llu could not be made)\n", u(r.calls), u(r.bad_calls));
    std::fprintf(out,
                 "  datagrams sent: %llu compared with the recording, %llu differ, %llu extra; %llu recorded "
                 "records not taken\n",
                 u(r.divergence.sends_compared), u(r.divergence.sends_differing), u(r.divergence.sends_extra),
                 u(r.divergence.records_skipped));
    std::fprintf(out, "  corrections: %llu in the re-run (log of %zu), recorded log of %zu: %s\n",
                 u(r.stats.corrections), r.corrections.size(), r.recorded_result.size() / 16,
                 same_log ? "identical (same ticks, same errors)" : "DIFFERENT");
    std::size_t shown = 0;
    for (const auto& c : r.corrections) {
        if (shown++ == 20) {
            std::fprintf(out, "    ... %zu more\n", r.corrections.size() - 20);
            break;
        }
        std::fprintf(out, "    tick %u  error %.3f m (%lld grid units)%s\n", c.tick.value, c.error_m,
                     static_cast<long long>(c.error_q), c.snapped ? "  snapped" : "");
    }
    std::fprintf(out, "replay-net: %s\n", exact ? "EXACT" : "DIVERGED");
    return exact ? 0 : 1;
}

}  // namespace lab
