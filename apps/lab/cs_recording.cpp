// The client-server world recording of a lab pass: written by the server, read back and checked tick by tick.
#include "cs_recording.hpp"

#include <rewind/core/recording_file.hpp>
#include <rewind/session/client_server/world_player.hpp>

#include <algorithm>
#include <cstdio>

namespace lab {

namespace cs = rwd::client_server;

CsRecording::CsRecording(const std::string& path, int tick_rate, int replay_window) : path_(path) {
    if (path.empty()) return;
    auto r = cs::WorldRecorder<arena::ArenaGame>::create(
        cs::WorldRecordingHeader{std::string(arena::kGameId), arena::kRulesVersion, tick_rate}, tick_rate,
        replay_window);
    if (r.ok())
        recorder_ = std::move(r.value());
    else
        error_ = std::string(r.error().detail);
}

void CsRecording::observe(rwd::Tick tick, const arena::State& after) {
    if (recorder_) arena::ArenaGame::capture(after, worlds_[tick.value]);
}

void CsRecording::finish(std::uint64_t seed, RecordingFigures& out) {
    out.path = path_;
    out.error = error_;
    if (!recorder_) return;
    out.late_replays = recorder_->late_replays();
    out.ticks = recorder_->ticks();
    out.messages = recorder_->messages();
    const std::vector<std::uint8_t> bytes = recorder_->bytes();
    out.bytes = bytes.size();
    if (recorder_->errors() > 0) out.error = "the recorder refused an entity or a message";
    if (auto s = rwd::write_recording_file(path_, bytes); !s.ok()) {
        out.error = std::string(s.error().detail);
        return;
    }
    auto read = rwd::read_recording_file(path_);
    auto data = read.ok() ? cs::parse_world_recording(read.value())
                          : rwd::Result<cs::WorldRecordingData>(read.error());
    if (!data.ok()) {
        out.error = std::string(data.error().detail);
        return;
    }
    auto player = cs::WorldPlayer<arena::ArenaGame>::create(std::move(data.value()));
    if (!player.ok()) {
        out.error = std::string(player.error().detail);
        return;
    }
    cs::WorldPlayer<arena::ArenaGame>& w = player.value();
    do {
        const auto it = worlds_.find(w.tick().value);
        ++out.worlds_compared;
        const auto& got = w.entities();
        bool same = it != worlds_.end() && it->second.size() == got.size();
        for (std::size_t i = 0; same && i < got.size(); ++i)
            same = got[i].id == it->second[i].id && got[i].snap == it->second[i].snap;
        if (!same) ++out.worlds_differing;
    } while (w.step());
    if (out.worlds_compared != worlds_.size()) ++out.worlds_differing;  // a tick the file lacks
    const cs::WorldVerdict v = cs::verify_world(w, 32, seed);
    out.checksums_verified = v.checksums_verified;
    out.checksum_mismatches = v.checksum_mismatches;
    out.seeks = static_cast<std::uint64_t>(v.seeks);
    out.seek_mismatches = static_cast<std::uint64_t>(v.seek_mismatches);
    out.seek_ticks_mean = v.seek_ticks_mean;
}

void add_recording_item(const RecordingFigures& r, Verdict& verdict) {
    const auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    const bool pass = r.error.empty() && r.ticks > 0 && r.late_replays == 0 && r.worlds_compared == r.ticks &&
                      r.worlds_differing == 0 && r.checksums_verified == r.ticks &&
                      r.checksum_mismatches == 0 && r.seeks > 0 && r.seek_mismatches == 0;
    char figure[160], measured[512];
    std::snprintf(figure, sizeof figure, "%llu/%llu worlds, %llu/%llu seeks equal",
                  u(r.worlds_compared - r.worlds_differing), u(r.ticks), u(r.seeks - r.seek_mismatches),
                  u(r.seeks));
    std::snprintf(
        measured, sizeof measured,
        "%s: %llu ticks and %llu messages in %llu bytes; played back: %llu/%llu ticks equal the "
        "server's final world, %llu/%llu checksums; %llu/%llu seeks equal a straight play (%.0f ticks "
        "applied per seek); %llu replayed ticks came too late",
        r.path.c_str(), u(r.ticks), u(r.messages), u(r.bytes), u(r.worlds_compared - r.worlds_differing),
        u(r.worlds_compared), u(r.checksums_verified - std::min(r.checksum_mismatches, r.checksums_verified)),
        u(r.ticks), u(r.seeks - r.seek_mismatches), u(r.seeks), r.seek_ticks_mean, u(r.late_replays));
    verdict.add(
        "Replay file", r.error.empty() ? std::string(figure) : "error: " + r.error,
        r.error.empty() ? std::string(measured) : std::string(measured) + ", error: " + r.error,
        "the main pass's world recording read back shows the server's final world at every tick (late-input "
        "replays included) and seeks land on the straight play's world",
        pass);
}

}  // namespace lab
