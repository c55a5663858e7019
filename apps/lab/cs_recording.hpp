// --save-replay for the client-server model: a world recording of the main pass's server, read back and
// played against the worlds the server ended each tick with.
#pragma once

#include "cs_figures.hpp"
#include "grade.hpp"

#include <arena/arena_game.hpp>

#include <rewind/session/client_server/world_recorder.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lab {

/// Records the server of one pass and checks the file it wrote.
class CsRecording {
public:
    /// Starts a recording to `path` (keyframe every second, `replay_window` ticks of late-input replays).
    CsRecording(const std::string& path, int tick_rate, int replay_window);
    /// The recorder to hand to Server::set_recorder (nullptr when none was asked for or it failed).
    [[nodiscard]] rwd::client_server::WorldRecorder<arena::ArenaGame>* recorder() { return recorder_.get(); }
    /// The server's world after `tick` (again for a replayed tick): what playback must show.
    void observe(rwd::Tick tick, const arena::State& after);
    /// Writes the file, reads it back, plays every tick against the observed worlds, seeks; fills `out`.
    void finish(std::uint64_t seed, RecordingFigures& out);

private:
    std::string path_;
    std::string error_;
    std::unique_ptr<rwd::client_server::WorldRecorder<arena::ArenaGame>> recorder_;
    std::map<std::uint32_t, std::vector<arena::ArenaGame::EntityRecord>> worlds_;  // by tick
};

/// The graded "Replay file" item of a recording.
void add_recording_item(const RecordingFigures& recording, Verdict& verdict);

}  // namespace lab
