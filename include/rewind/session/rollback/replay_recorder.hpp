/// ReplayRecorder: writes a rollback or lockstep match's confirmed inputs and checksums as a replay file.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/session/rollback/replay.hpp>

#include <span>
#include <string>
#include <vector>

namespace rwd::rollback {

/// Records a match for G. Either hand it every frame's inputs (add_frame) or call record(session) after each
/// P2PSession::advance(): it appends the frames the session confirmed since the last call, with the session's
/// own checksum of every frame at the header's checksum interval (frames interval-1, 2*interval-1, ...).
template <class G>
class ReplayRecorder {
public:
    using Input = typename G::Input;  ///< one player's input

    /// A recorder, or invalid_argument when the header does not validate or has more slots than G seats.
    [[nodiscard]] static Result<ReplayRecorder> create(ReplayHeader header) {
        if (header.players.size() > static_cast<std::size_t>(G::kMaxPlayers))
            return Error{Errc::invalid_argument, "replay has more players than the game seats"};
        auto w = ReplayWriter::create(std::move(header));
        if (!w.ok()) return w.error();
        return ReplayRecorder(std::move(w.value()));
    }

    /// Appends the next frame's inputs, one per slot.
    [[nodiscard]] Status add_frame(std::span<const Input> inputs) {
        if (inputs.size() != header().players.size())
            return Error{Errc::invalid_argument, "add_frame needs one input per replay slot"};
        bits_.resize(inputs.size());
        for (std::size_t p = 0; p < inputs.size(); ++p) {
            if (!input_to_bits<G>(inputs[p], bits_[p]))
                return Error{Errc::invalid_argument, "input does not serialize"};
        }
        return writer_.add_frame(bits_);
    }
    /// Records the checksum of the state after `frame` (a frame already added, after the previous one).
    [[nodiscard]] Status add_checksum(Frame frame, std::uint64_t checksum) {
        return writer_.add_checksum(frame, checksum);
    }

    /// Appends every frame `session` has confirmed since the last call. out_of_space when the session no
    /// longer holds the inputs of a frame not yet recorded (they are kept 256 frames: call this after every
    /// advance()).
    [[nodiscard]] Status record(const P2PSession<G>& session) {
        const std::size_t n = header().players.size();
        inputs_.resize(n);
        const Frame interval = header().checksum_interval;
        for (Frame f = writer_.frames(); f <= session.confirmed_frame(); ++f) {
            for (std::size_t p = 0; p < n; ++p) {
                if (!session.confirmed_input(static_cast<int>(p), f, inputs_[p]))
                    return Error{Errc::out_of_space, "the session no longer holds a frame the replay needs"};
            }
            if (Status s = add_frame(inputs_); !s.ok()) return s;
            if ((f + 1) % interval != 0) continue;
            std::uint64_t cs = 0;
            if (session.frame_checksum(f, cs)) {
                if (Status s = writer_.add_checksum(f, cs); !s.ok()) return s;
            } else {
                ++checksums_missed_;
            }
        }
        return {};
    }

    /// Frames recorded so far.
    [[nodiscard]] Frame frames() const { return writer_.frames(); }
    /// Checksums recorded so far.
    [[nodiscard]] std::uint64_t checksums() const { return writer_.data().checksums().size(); }
    /// Checksum frames record() could not take because the session no longer held that state.
    [[nodiscard]] std::uint64_t checksums_missed() const { return checksums_missed_; }
    /// The header.
    [[nodiscard]] const ReplayHeader& header() const { return writer_.header(); }
    /// The replay file's bytes.
    [[nodiscard]] std::vector<std::uint8_t> bytes() const { return writer_.bytes(); }
    /// Writes the replay file to `path`.
    [[nodiscard]] Status save(const std::string& path) const {
        return rwd::write_recording_file(path, bytes());
    }

private:
    explicit ReplayRecorder(ReplayWriter writer) : writer_(std::move(writer)) {}
    ReplayWriter writer_;
    std::vector<InputBits> bits_;  // scratch
    std::vector<Input> inputs_;    // scratch
    std::uint64_t checksums_missed_ = 0;
};

}  // namespace rwd::rollback
