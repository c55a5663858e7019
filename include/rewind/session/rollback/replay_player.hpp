/// ReplayPlayer: plays a rollback or lockstep replay bit-exactly, verifies its checksums, steps and seeks.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/rng.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/session/game_hooks.hpp>
#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/replay.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace rwd::rollback {

/// Plays a parsed replay from the initial State the game builds from its header (seed, players). Every step()
/// simulates one frame with the recorded inputs and compares the checksum where the replay has one. seek()
/// starts from the nearest saved state at or before the target (one is kept every keyframe_interval frames
/// as playback first passes it), so seeking back never replays from the start.
template <class G>
class ReplayPlayer {
    static_assert(contract::deterministic_game<G>());

public:
    using State = typename G::State;  ///< the game's state
    using Input = typename G::Input;  ///< one player's input

    /// A player at frame 0. invalid_argument when the replay has more slots than G seats or
    /// keyframe_interval < 1; malformed when a recorded input does not decode as G's Input.
    [[nodiscard]] static Result<ReplayPlayer> create(ReplayData data, const State& initial,
                                                     int keyframe_interval = 120) {
        if (data.header().players.size() > static_cast<std::size_t>(G::kMaxPlayers))
            return Error{Errc::invalid_argument, "the replay has more players than the game seats"};
        if (keyframe_interval < 1) return Error{Errc::invalid_argument, "keyframe_interval must be >= 1"};
        std::vector<std::vector<Input>> decoded(data.header().players.size());
        for (std::size_t p = 0; p < decoded.size(); ++p) {
            for (const auto& c : data.changes(static_cast<int>(p))) {
                Input in{};
                if (!bits_to_input<G>(c.bits, in))
                    return Error{Errc::malformed, "a replay input does not decode as this game's Input"};
                decoded[p].push_back(in);
            }
        }
        // At most kMaxKeyframes saved states, however long the replay: a longer one saves them further apart.
        const Frame spread = (data.frames() + kMaxKeyframes - 1) / kMaxKeyframes;
        const int interval = std::max(keyframe_interval, static_cast<int>(spread));
        return ReplayPlayer(std::move(data), std::move(decoded), initial, interval);
    }
    /// Most states a player keeps for seeking.
    static constexpr Frame kMaxKeyframes = 4096;

    /// The next frame to simulate: frames 0..frame()-1 have been simulated.
    [[nodiscard]] Frame frame() const { return frame_; }
    /// Frames in the replay.
    [[nodiscard]] Frame frames() const { return data_.frames(); }
    /// Whether every frame has been simulated.
    [[nodiscard]] bool at_end() const { return frame_ >= data_.frames(); }
    /// The state at the start of frame().
    [[nodiscard]] const State& state() const { return state_; }
    /// The replay's header.
    [[nodiscard]] const ReplayHeader& header() const { return data_.header(); }
    /// The inputs of frame `f` (one per game slot; slots the match did not have are Input{}).
    [[nodiscard]] std::span<const Input> inputs(Frame f) {
        fill_inputs(f);
        return inputs_;
    }

    /// Simulates frame(), comparing its checksum if the replay has one; false (nothing done) at the end.
    bool step() {
        if (at_end()) return false;
        fill_inputs(frame_);
        hooks::step<G>(state_, std::span<const Input>(inputs_.data(), inputs_.size()));
        verify(frame_);
        ++frame_;
        ++simulated_;
        if (frame_ % keyframe_interval_ == 0 &&
            frame_ / keyframe_interval_ == static_cast<Frame>(keys_.size())) {
            keys_.emplace_back();
            hooks::save_state<G>(state_, keys_.back());
        }
        return true;
    }
    /// Moves to the start of frame `target` (clamped to 0..frames()) from the nearest saved state.
    void seek(Frame target) {
        target = std::clamp<Frame>(target, 0, data_.frames());
        const auto k =
            std::min<std::size_t>(static_cast<std::size_t>(target / keyframe_interval_), keys_.size() - 1);
        const Frame from = static_cast<Frame>(k) * keyframe_interval_;
        if (frame_ > target || frame_ < from) {
            hooks::load_state<G>(keys_[k], state_);
            frame_ = from;
        }
        while (frame_ < target) step();
    }
    /// Plays to the end from where it is; desync at the first checksum that differs.
    [[nodiscard]] Status play_to_end() {
        while (step()) {
        }
        if (mismatches_ != 0)
            return Error{Errc::desync, "the replay's state differs from its recorded checksums"};
        return {};
    }

    /// Checksum frames compared so far (each counted once, however often it is replayed).
    [[nodiscard]] std::uint64_t checksums_verified() const { return verified_; }
    /// Comparisons that differed (a frame replayed after a seek is compared again).
    [[nodiscard]] std::uint64_t checksum_mismatches() const { return mismatches_; }
    /// The first frame whose checksum differed, kNullFrame if none.
    [[nodiscard]] Frame first_mismatch() const { return first_mismatch_; }
    /// Frames simulated since the player was made, by step() and seek() (the cost of seeking).
    [[nodiscard]] std::uint64_t frames_simulated() const { return simulated_; }
    /// The checksum of the state after frame() - 1 as the game computes it.
    [[nodiscard]] std::uint64_t checksum() const { return G::checksum(state_); }

private:
    ReplayPlayer(ReplayData data, std::vector<std::vector<Input>> decoded, const State& initial, int interval)
        : data_(std::move(data)),
          decoded_(std::move(decoded)),
          state_(initial),
          inputs_(static_cast<std::size_t>(G::kMaxPlayers), Input{}),
          keyframe_interval_(interval) {
        keys_.emplace_back();
        hooks::save_state<G>(state_, keys_.back());
    }

    void fill_inputs(Frame f) {
        for (std::size_t p = 0; p < decoded_.size(); ++p) {
            const std::size_t n = data_.changes_until(static_cast<int>(p), f);
            inputs_[p] = n == 0 ? Input{} : decoded_[p][n - 1];
        }
    }
    void verify(Frame f) {
        const auto& cs = data_.checksums();
        const auto it = std::lower_bound(cs.begin(), cs.end(), f,
                                         [](const ReplayChecksum& c, Frame v) { return c.frame < v; });
        if (it == cs.end() || it->frame != f) return;
        const bool first_time = f > verified_through_;
        if (first_time) {
            verified_through_ = f;
            ++verified_;
        }
        // A frame replayed after a seek is compared again: a seek that lands elsewhere than a straight play
        // counts as a mismatch too.
        if (G::checksum(state_) != it->checksum && mismatches_++ == 0) first_mismatch_ = f;
    }

    ReplayData data_;
    std::vector<std::vector<Input>> decoded_;  // by slot: the Input of each change in data_
    State state_;
    std::vector<Input> inputs_;                  // scratch: one per game slot
    std::vector<hooks::saved_state_t<G>> keys_;  // the state at the start of frame k * keyframe_interval_
    Frame keyframe_interval_;
    Frame frame_ = 0;
    Frame verified_through_ = kNullFrame;
    std::uint64_t simulated_ = 0;
    std::uint64_t verified_ = 0;
    std::uint64_t mismatches_ = 0;
    Frame first_mismatch_ = kNullFrame;
};

/// What verify_replay() found.
struct ReplayVerdict {
    Frame frames = 0;                       ///< frames played
    std::uint64_t checksums_verified = 0;   ///< checksum frames compared
    std::uint64_t checksum_mismatches = 0;  ///< comparisons that differed
    Frame first_mismatch = kNullFrame;      ///< the first frame whose checksum differed
    int seeks = 0;                          ///< seeks to seeded frames
    int seek_mismatches = 0;                ///< seeks that landed elsewhere than the straight play
    double seek_frames_mean = 0;            ///< frames simulated per seek
    std::uint64_t final_checksum = 0;       ///< the game's checksum after the last frame
    std::vector<std::uint64_t> hashes;      ///< after each frame of the straight play (when asked for)
    /// The file replays exactly: every checksum equal and every seek on the straight play.
    [[nodiscard]] bool exact() const { return checksum_mismatches == 0 && seek_mismatches == 0; }
};

/// Checks a replay: plays `player` from frame 0 to the end (comparing every checksum; with `keep_hashes` also
/// keeping the hash after each frame), then seeks to `seeks` frames drawn from `seed` and compares each with
/// the straight play.
template <class G>
ReplayVerdict verify_replay(ReplayPlayer<G>& player, int seeks, std::uint64_t seed,
                            bool keep_hashes = false) {
    ReplayVerdict v;
    v.frames = player.frames();
    Rng rng(seed, 0x5EE4);
    std::vector<std::pair<Frame, std::uint64_t>> targets;  // seek targets, and the straight play's hash there
    for (int i = 0; i < seeks && v.frames > 0; ++i)
        targets.emplace_back(static_cast<Frame>(rng.uniform(static_cast<std::uint32_t>(v.frames))) + 1, 0);
    player.seek(0);
    while (player.step()) {
        const std::uint64_t h = player.checksum();
        if (keep_hashes) v.hashes.push_back(h);
        for (auto& [t, hash] : targets)
            if (t == player.frame()) hash = h;
        v.final_checksum = h;
    }
    const std::uint64_t before = player.frames_simulated();
    for (const auto& [target, hash] : targets) {
        player.seek(target);
        ++v.seeks;
        if (player.frame() != target || player.checksum() != hash) ++v.seek_mismatches;
    }
    if (v.seeks > 0)
        v.seek_frames_mean =
            static_cast<double>(player.frames_simulated() - before) / static_cast<double>(v.seeks);
    v.checksums_verified = player.checksums_verified();
    v.checksum_mismatches = player.checksum_mismatches();
    v.first_mismatch = player.first_mismatch();
    return v;
}

}  // namespace rwd::rollback
