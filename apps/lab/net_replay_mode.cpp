// rewind-lab --replay-net: the recorded client or server re-run on a PlaybackTransport, compared datagram by
// datagram, and by its correction log (client) or its final tick and world (server).
#include "net_replay_mode.hpp"

#include "client/net_recording_config.hpp"

#include <arena/arena_game.hpp>

#include <rewind/core/recording_file.hpp>
#include <rewind/session/client_server/net_replay.hpp>

namespace lab {

namespace {

namespace cs = rwd::client_server;
namespace tr = rwd::transport;

unsigned long long u(std::uint64_t v) { return static_cast<unsigned long long>(v); }

int fail(std::FILE* out, const std::string& path, std::string_view why) {
    std::fprintf(out, "rewind-lab: --replay-net %s: %.*s\n", path.c_str(), static_cast<int>(why.size()),
                 why.data());
    return 1;
}

/// Only printable ASCII of an untrusted text reaches the terminal.
std::string printable(std::string s) {
    for (char& ch : s)
        if (ch < 0x20 || ch > 0x7E) ch = '?';
    return s;
}

void print_head(std::FILE* out, const std::string& path, const tr::NetRecordingData& data,
                std::uint64_t calls, std::uint64_t bad_calls, const tr::PlaybackTransport::Divergence& d) {
    std::fprintf(out, "rewind-lab --replay-net %s (%s, %zu records)\n", path.c_str(),
                 printable(data.header.config).c_str(), data.records.size());
    std::fprintf(out, "  program calls re-made: %llu (%llu could not be made)\n", u(calls), u(bad_calls));
    std::fprintf(out,
                 "  datagrams sent: %llu compared with the recording, %llu differ, %llu extra; %llu recorded "
                 "records not taken\n",
                 u(d.sends_compared), u(d.sends_differing), u(d.sends_extra), u(d.records_skipped));
}

int verdict(std::FILE* out, bool exact) {
    std::fprintf(out, "replay-net: %s\n", exact ? "EXACT" : "DIVERGED");
    return exact ? 0 : 1;
}

/// A rewind-client recording: the arena client re-run; its sends and its whole correction log compared.
int replay_client_recording(const std::string& path, const tr::NetRecordingData& data, std::FILE* out) {
    auto config = apps::client_config_from_text(data.header.config);
    if (!config.ok()) return fail(out, path, config.error().detail);
    if (config->tick_rate_hz != arena::kTickRate) return fail(out, path, "the arena runs only at 60 Hz");
    const cs::ClientReplay<arena::ArenaGame> r = cs::replay_client<arena::ArenaGame>(data, config.value());
    const bool same_log = cs::correction_log_bytes(r.corrections) == r.recorded_result;
    print_head(out, path, data, r.calls, r.bad_calls, r.divergence);
    std::fprintf(out, "  corrections: %llu in the re-run (log of %zu), recorded log of %zu: %s\n",
                 u(r.stats.corrections), r.corrections.size(), r.recorded_result.size() / 16,
                 same_log ? "identical (same ticks, same errors)" : "DIFFERENT");
    std::size_t listed = 0;
    for (const auto& c : r.corrections) {
        if (listed++ == 20) {
            std::fprintf(out, "    ... %zu more\n", r.corrections.size() - 20);
            break;
        }
        std::fprintf(out, "    tick %u  error %.3f m (%lld grid units)%s\n", c.tick.value, c.error_m,
                     static_cast<long long>(c.error_q), c.snapped ? "  snapped" : "");
    }
    return verdict(out, r.divergence.none() && r.bad_calls == 0 && same_log);
}

/// A rewind-server recording: the arena server re-run; its sends, final tick and world checksum compared.
int replay_server_recording(const std::string& path, const tr::NetRecordingData& data, std::FILE* out) {
    auto recorded = apps::server_config_from_text(data.header.config);
    if (!recorded.ok()) return fail(out, path, recorded.error().detail);
    if (recorded->config.tick_rate_hz != arena::kTickRate)
        return fail(out, path, "the arena runs only at 60 Hz");
    const auto r =
        cs::replay_server<arena::ArenaGame>(data, recorded->config, arena::new_match(recorded->seed));
    const bool same = !r.recorded_result.empty() && r.result == r.recorded_result;
    print_head(out, path, data, r.calls, r.bad_calls, r.divergence);
    std::fprintf(out,
                 "  server: %llu ticks, %llu connects, %llu late-input replays; final tick and world %s\n",
                 u(r.stats.ticks), u(r.stats.connects), u(r.stats.replays),
                 same ? "identical to the recording" : "DIFFERENT from the recording");
    return verdict(out, r.divergence.none() && r.bad_calls == 0 && same);
}

}  // namespace

int replay_net(const std::string& path, std::FILE* out) {
    auto bytes = rwd::read_recording_file(path);
    if (!bytes.ok()) return fail(out, path, bytes.error().detail);
    auto data = tr::parse_net_recording(bytes.value());
    if (!data.ok()) return fail(out, path, data.error().detail);
    if (data->header.app == "rewind-client") return replay_client_recording(path, data.value(), out);
    if (data->header.app == "rewind-server") return replay_server_recording(path, data.value(), out);
    return fail(out, path,
                "recorded by another program: the lab re-runs rewind-client's and rewind-server's");
}

}  // namespace lab
