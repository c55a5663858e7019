// --save-replay for a rollback or lockstep pass: records the first peer's session, writes the file, then
// reads it back and plays it against that peer's own hashes.
#pragma once

#include "rb_figures.hpp"

#include <rewind/session/rollback/replay_player.hpp>
#include <rewind/session/rollback/replay_recorder.hpp>

#include <optional>
#include <string>
#include <vector>

namespace lab {

/// The replay of one pass of the lab game L (L::Game, L::kGameId, L::kRulesVersion, L::initial(seed, n)).
template <class L>
class RbReplay {
public:
    using Game = typename L::Game;

    /// Starts recording to `path` ("" = no replay) with the header the initial State is rebuilt from.
    RbReplay(const std::string& path, bool lockstep, std::uint64_t seed, int tick_rate,
             const std::vector<std::string>& players, RbReplayFigures& out)
        : out_(out), tick_rate_(tick_rate), seed_(seed) {
        if (path.empty()) return;
        out_.path = path;
        rwd::rollback::ReplayHeader h;
        h.game_id = std::string(L::kGameId);
        h.game_version = L::kRulesVersion;
        h.model = lockstep ? rwd::rollback::ReplayModel::lockstep : rwd::rollback::ReplayModel::rollback;
        h.seed = seed;
        h.players = players;
        h.checksum_interval = tick_rate;
        auto r = rwd::rollback::ReplayRecorder<Game>::create(std::move(h));
        if (r.ok())
            recorder_.emplace(std::move(r.value()));
        else
            out_.error = std::string(r.error().detail);
    }

    /// Takes the frames the session confirmed since the last call.
    void record(const rwd::rollback::P2PSession<Game>& session) {
        if (!recorder_) return;
        if (auto st = recorder_->record(session); !st.ok()) {
            out_.error = std::string(st.error().detail);
            recorder_.reset();
        }
    }

    /// Writes the file, reads it back, plays it: every frame against `hashes` (the recorded peer's hash after
    /// each frame, where `known`), then 32 seeded seeks against the straight play.
    void finish(const std::vector<std::uint64_t>& hashes, const std::vector<bool>& known) {
        if (!recorder_) return;
        const std::vector<std::uint8_t> bytes = recorder_->bytes();
        out_.frames = recorder_->frames();
        out_.checksums = recorder_->checksums();
        out_.checksums_missed = recorder_->checksums_missed();
        out_.bytes = bytes.size();
        if (auto s = rwd::write_recording_file(out_.path, bytes); !s.ok()) {
            out_.error = std::string(s.error().detail);
            return;
        }
        auto read = rwd::read_recording_file(out_.path);
        auto data = read.ok() ? rwd::rollback::parse_replay(read.value())
                              : rwd::Result<rwd::rollback::ReplayData>(read.error());
        if (!data.ok()) {
            out_.error = std::string(data.error().detail);
            return;
        }
        const rwd::rollback::ReplayHeader h = data->header();
        auto player = rwd::rollback::ReplayPlayer<Game>::create(
            std::move(data.value()), L::initial(h.seed, static_cast<int>(h.players.size())), 2 * tick_rate_);
        if (!player.ok()) {
            out_.error = std::string(player.error().detail);
            return;
        }
        const rwd::rollback::ReplayVerdict v = rwd::rollback::verify_replay(player.value(), 32, seed_, true);
        for (std::size_t f = 0; f < v.hashes.size() && f < known.size() && f < hashes.size(); ++f) {
            if (!known[f]) continue;
            ++out_.frames_compared;
            if (hashes[f] != v.hashes[f]) ++out_.frames_differing;
        }
        out_.played_checksums = v.checksums_verified;
        out_.played_mismatches = v.checksum_mismatches;
        out_.seeks = static_cast<std::uint64_t>(v.seeks);
        out_.seek_mismatches = static_cast<std::uint64_t>(v.seek_mismatches);
        out_.seek_frames_mean = v.seek_frames_mean;
    }

private:
    RbReplayFigures& out_;
    int tick_rate_;
    std::uint64_t seed_;
    std::optional<rwd::rollback::ReplayRecorder<Game>> recorder_;
};

}  // namespace lab
