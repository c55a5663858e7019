/// SyncTestSession: finds non-determinism in one process by rolling back every frame and comparing checksums.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/session/game_hooks.hpp>
#include <rewind/session/rollback/desync.hpp>
#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/sync_test_config.hpp>
#include <rewind/session/rollback/types.hpp>

#include <deque>
#include <vector>

namespace rwd::rollback {

/// Each advance() simulates one frame, then loads the state of `check_distance` frames ago and re-simulates
/// to the present with the same inputs, comparing every re-simulated frame's checksum with the first run's.
/// A deterministic game never differs; a game that reads anything outside its State (a global, the clock,
/// uninitialised memory, an unseeded RNG) is caught at the first frame where that changes the result.
template <class G>
class SyncTestSession {
    static_assert(contract::deterministic_game<G>());

public:
    using State = typename G::State;  ///< the game's state
    using Input = typename G::Input;  ///< one player's input

    /// A session, or invalid_config.
    [[nodiscard]] static Result<SyncTestSession> create(const SyncTestConfig& config, const State& initial) {
        if (Status s = config.validate(); !s.ok()) return s.error();
        if (G::kMaxPlayers < config.num_players)
            return Error{Errc::invalid_config, "num_players > G::kMaxPlayers"};
        return SyncTestSession(config, initial);
    }

    /// This frame's input for `slot`.
    [[nodiscard]] Status add_local_input(int slot, const Input& input) {
        if (slot < 0 || slot >= cfg_.num_players) return Error{Errc::invalid_argument, "slot out of range"};
        pending_[static_cast<std::size_t>(slot)] = input;
        return {};
    }

    /// Simulates one frame, then rolls back check_distance frames (once that many exist) and re-simulates.
    /// Returns the frame simulated and the rollback depth.
    AdvanceResult advance() {
        AdvanceResult r;
        r.frame = frame_;
        Record rec;
        rec.frame = frame_;
        hooks::save_state<G>(state_, rec.before);
        for (std::size_t p = 0; p < inputs_.size(); ++p) {
            inputs_[p] = p < pending_.size() ? pending_[p] : Input{};
        }
        rec.inputs = inputs_;
        hooks::step<G>(state_, std::span<const Input>(inputs_.data(), inputs_.size()));
        rec.after = state_;
        rec.checksum = G::checksum(state_);
        history_.push_back(std::move(rec));
        while (history_.size() > static_cast<std::size_t>(cfg_.check_distance)) history_.pop_front();
        ++frame_;
        r.frames_advanced = 1;
        if (static_cast<int>(history_.size()) == cfg_.check_distance) {
            hooks::load_state<G>(history_.front().before, state_);  // load
            for (Record& h : history_) {
                hooks::step<G>(state_, std::span<const Input>(h.inputs.data(), h.inputs.size()));
                const std::uint64_t cs = G::checksum(state_);
                ++compared_;
                if (cs != h.checksum && first_mismatch_ == kNullFrame) report(h, cs);
            }
            r.rollback_frames = cfg_.check_distance;
            resimulated_ += static_cast<std::uint64_t>(cfg_.check_distance);
        }
        return r;
    }

    /// The state at the start of current_frame().
    [[nodiscard]] const State& state() const { return state_; }
    /// The next frame to simulate.
    [[nodiscard]] Frame current_frame() const { return frame_; }
    /// The first frame whose re-simulation differed, or kNullFrame.
    [[nodiscard]] Frame first_mismatch() const { return first_mismatch_; }
    /// The report of the first mismatch (frame, first-run vs re-run checksums and states, diff).
    [[nodiscard]] const DesyncReport& mismatch_report() const { return report_; }
    /// Checksums compared so far.
    [[nodiscard]] std::uint64_t checksums_compared() const { return compared_; }
    /// Frames re-simulated so far.
    [[nodiscard]] std::uint64_t frames_resimulated() const { return resimulated_; }
    /// Pops the oldest event (desync_detected); false when none.
    bool poll_event(SessionEvent& out) {
        if (events_.empty()) return false;
        out = events_.front();
        events_.pop_front();
        return true;
    }

private:
    struct Record {
        Frame frame = kNullFrame;
        hooks::saved_state_t<G> before{};  // the game's save (or a copy) of the state before the frame
        State after{};
        std::uint64_t checksum = 0;
        std::vector<Input> inputs;
    };

    SyncTestSession(const SyncTestConfig& config, const State& initial)
        : cfg_(config),
          state_(initial),
          pending_(static_cast<std::size_t>(config.num_players)),
          inputs_(static_cast<std::size_t>(G::kMaxPlayers)) {}

    void report(const Record& h, std::uint64_t resim_checksum) {
        first_mismatch_ = h.frame;
        report_.frame = h.frame;
        report_.local_checksum = h.checksum;
        report_.remote_checksum = resim_checksum;
        report_.local_state = state_to_bytes<G>(h.after, report_.local_serialized);
        report_.remote_state = state_to_bytes<G>(state_, report_.remote_serialized);
        report_.complete = true;
        if constexpr (DescribesDiff<G>) G::describe_diff(h.after, state_, report_.diff);
        if (report_.diff.empty()) report_.diff = byte_diff(report_.local_state, report_.remote_state);
        SessionEvent e;
        e.type = SessionEvent::Type::desync_detected;
        e.frame = h.frame;
        e.local_checksum = h.checksum;
        e.remote_checksum = resim_checksum;
        events_.push_back(e);
    }

    SyncTestConfig cfg_;
    State state_;
    Frame frame_ = 0;
    std::vector<Input> pending_;
    std::vector<Input> inputs_;
    std::deque<Record> history_;
    Frame first_mismatch_ = kNullFrame;
    DesyncReport report_;
    std::deque<SessionEvent> events_;
    std::uint64_t compared_ = 0;
    std::uint64_t resimulated_ = 0;
};

}  // namespace rwd::rollback
