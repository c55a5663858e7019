/// P2PSession: GGPO-style peer-to-peer rollback over a Transport; lockstep when max_prediction is 0.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/session/game_hooks.hpp>
#include <rewind/session/rollback/desync.hpp>
#include <rewind/session/rollback/detail/p2p_core.hpp>
#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/protocol.hpp>
#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace rwd::rollback {

/// A rollback session for 1..8 players, any mix of local and remote (one transport PeerId per remote machine;
/// several slots may share it). Each frame the app calls add_local_input() for every local player, then
/// advance(now). Missing remote input is predicted; when the real input differs the session loads the saved
/// state of the first wrong frame and re-simulates to the present. The app renders state(), fires one-shot
/// effects only for is_confirmed() frames, follows time_scale() to stay in step, and reads poll_event().
///
/// This template is the game's side only: the State, its save ring, the simulation and the translation
/// between Input and the bits the compiled core (detail::P2PCore) exchanges with the peers.
template <class G>
class P2PSession : private detail::GameAccess {
    static_assert(contract::deterministic_game<G>());

public:
    using State = typename G::State;  ///< the game's state
    using Input = typename G::Input;  ///< one player's input for one frame

    /// A session, or invalid_config when `config` does not validate or G::kMaxPlayers < num_players.
    [[nodiscard]] static Result<std::unique_ptr<P2PSession>> create(transport::Transport& transport,
                                                                    const P2PConfig& config,
                                                                    const State& initial) {
        if (Status s = config.validate(); !s.ok()) return s.error();
        if (G::kMaxPlayers < config.num_players)
            return Error{Errc::invalid_config, "num_players > G::kMaxPlayers"};
        return std::make_unique<P2PSession>(transport, config, initial);
    }
    /// A session; `config` must validate (use create() to check).
    P2PSession(transport::Transport& transport, const P2PConfig& config, const State& initial)
        : state_(initial),
          ring_(static_cast<std::size_t>(config.max_prediction) + 1 + kLeaveRewriteFrames),
          game_inputs_(static_cast<std::size_t>(G::kMaxPlayers), Input{}),
          clock_(config.clock),
          num_players_(config.num_players),
          neutral_ok_(canonical(Input{}, neutral_)),
          core_(transport, config, &check_bits, neutral_ok_ ? &neutral_ : nullptr, *this) {}
    /// The core keeps a reference to this session: it stays where it was made.
    P2PSession(const P2PSession&) = delete;
    P2PSession& operator=(const P2PSession&) = delete;
    ~P2PSession() = default;

    /// Seats a local player in `slot` (before the first update()).
    [[nodiscard]] Status add_local_player(int slot) { return core_.add_local_player(slot); }
    /// Seats a remote player in `slot`, reached through the transport's `peer` (before the first update()).
    [[nodiscard]] Status add_remote_player(int slot, transport::PeerId peer) {
        return core_.add_remote_player(slot, peer);
    }
    /// Registers a spectator ahead of time (spectators may also just join by handshaking, up to
    /// max_spectators).
    [[nodiscard]] Status add_spectator(transport::PeerId peer) { return core_.add_spectator(peer); }
    /// Leaves `slot` empty (neutral input) but lets a newcomer take it during the match (before the first
    /// update()). A slot whose player left may be taken back while P2PConfig::rejoin is on.
    [[nodiscard]] Status add_open_slot(int slot) { return core_.add_open_slot(slot); }
    /// Makes this session join a running match in local `slot` (instead of add_local_player; before the first
    /// update()): add_remote_player() names every other machine of the match, the first to finish the
    /// handshake sends the match's state and the frame this player's inputs start at; the session loads it,
    /// fast-forwards to the others and plays on (running() from then on). Needs serialize(Stream&, State&).
    [[nodiscard]] Status join_as(int slot) {
        if constexpr (!StateSerializable<G>) {
            (void)slot;
            return Error{Errc::invalid_argument, "joining needs serialize(Stream&, State&)"};
        } else {
            return core_.join_as(slot);
        }
    }

    /// This frame's input for local `slot`; used by the next advance() (a later call replaces it). The
    /// session simulates the input as the peers decode it from the wire.
    [[nodiscard]] Status add_local_input(int slot, const Input& input) {
        if (core_.player_kind(slot) != PlayerKind::local)
            return Error{Errc::invalid_argument, "not a local player"};
        InputBits bits;
        Input decoded{};
        if (!encode(input, bits) || !bits_to_input<G>(bits, decoded))
            return Error{Errc::invalid_argument, "input does not serialize"};
        return core_.add_local_input(slot, bits);
    }
    /// Network only: receives, acknowledges, resends, times out, rolls back if a late input demands it.
    void update(Micros now) { core_.update(now); }
    /// update(now), then simulates one frame if every peer is synchronized, all local inputs are given and
    /// the session is within max_prediction frames of the slowest peer. See AdvanceResult for what happened.
    AdvanceResult advance(Micros now) { return core_.advance(now); }
    /// Says goodbye to every peer and spectator; the session stops sending.
    void close(Micros now) { core_.close(now); }
    /// Drops a remote player on purpose (e.g. kicked); its input is neutral from its last confirmed frame on.
    void disconnect_player(int slot) { core_.disconnect_player(slot); }

    /// Changes the local input delay mid-match, and stops P2PConfig::adapt_input_delay from changing it.
    /// Longer: the gap repeats the last input; shorter: frames whose input repeats the previous one are
    /// merged away. No frame freezes and no distinct input is lost.
    [[nodiscard]] Status set_input_delay(int frames) { return core_.set_input_delay(frames); }
    /// The current input delay target (chosen by the adaptation, or set).
    [[nodiscard]] int input_delay() const { return core_.input_delay(); }
    /// The delay the newest local input really got (converges to input_delay() after a change).
    [[nodiscard]] int effective_input_delay() const { return core_.effective_input_delay(); }
    /// The frame the newest local input is used in, once committed (by advance()); the frames between it and
    /// the one before repeat the previous input. kNullFrame before the first.
    [[nodiscard]] Frame last_local_input_frame() const { return core_.last_local_input_frame(); }

    /// The state at the start of current_frame() (after every rollback so far).
    [[nodiscard]] const State& state() const { return state_; }
    /// The next frame to simulate; frames before it have been simulated.
    [[nodiscard]] Frame current_frame() const { return core_.current_frame(); }
    /// The newest simulated frame whose inputs are all final (kNullFrame if none).
    [[nodiscard]] Frame confirmed_frame() const { return core_.confirmed_frame(); }
    /// Whether `frame` is simulated with final inputs: fire sounds and particles of it now, exactly once.
    [[nodiscard]] bool is_confirmed(Frame frame) const { return frame >= 0 && frame <= confirmed_frame(); }
    /// Whether every peer finished the handshake and frames advance.
    [[nodiscard]] bool running() const { return core_.running(); }
    /// Frames ahead of the slowest peer (averaged; negative when behind).
    [[nodiscard]] double frames_ahead() const { return core_.frames_ahead(); }
    /// Recommended speed: run the frame clock at this multiple of nominal (e.g. 0.98 when ahead).
    [[nodiscard]] double time_scale() const { return core_.time_scale(); }
    /// Pops the oldest event; false when none.
    bool poll_event(SessionEvent& out) { return core_.poll_event(out); }

    /// The checksum of the state after `frame` if it is still in the save ring (or current); false otherwise.
    bool frame_checksum(Frame frame, std::uint64_t& out) const {
        const Frame next = core_.current_frame();
        if (frame < 0 || frame >= next) return false;
        if (frame + 1 == next) {
            out = G::checksum(state_);
            return true;
        }
        const Saved& s = saved(frame + 1);
        if (s.frame != frame + 1) return false;
        if constexpr (HasStateSaveLoad<G>) {
            hooks::load_state<G>(s.state, scratch_);  // the game's own save: checksum what it loads as
            out = G::checksum(scratch_);
        } else {
            out = G::checksum(s.state);
        }
        return true;
    }
    /// The final input of `slot` at `frame` if still stored; false otherwise.
    bool confirmed_input(int slot, Frame frame, Input& out) const {
        const InputBits* bits = nullptr;
        if (!core_.confirmed_input(slot, frame, bits)) return false;
        out = bits != nullptr ? decode(*bits) : Input{};
        return true;
    }
    /// Who plays in `slot`.
    [[nodiscard]] PlayerKind player_kind(int slot) const { return core_.player_kind(slot); }

    /// Session-wide statistics.
    [[nodiscard]] SessionStats stats() const { return core_.stats(); }
    /// Statistics per remote peer and spectator.
    [[nodiscard]] std::vector<PeerStatsRb> peer_stats() const { return core_.peer_stats(); }
    /// Desync reports, newest last; `complete` once the remote state arrived.
    [[nodiscard]] const std::vector<DesyncReport>& desync_reports() const { return core_.desync_reports(); }
    /// The session's config.
    [[nodiscard]] const P2PConfig& config() const { return core_.config(); }
    /// Spectators currently connected.
    [[nodiscard]] int num_spectators() const { return core_.num_spectators(); }

private:
    struct Saved {
        Frame frame = kNullFrame;
        hooks::saved_state_t<G> state{};  // a copy of the State, or the game's own save
    };
    struct Kept {  // a state kept whole for forensics
        Frame frame = kNullFrame;
        State state{};
    };
    /// States kept for forensics: a desync is reported within a few checksum intervals.
    static constexpr std::size_t kMaxSnapshots = 8;

    /// The one place an Input becomes bits.
    static bool encode(const Input& in, InputBits& out) { return input_to_bits<G>(in, out); }
    /// The one place bits become an Input (bits the core holds were all checked: neutral on a broken game).
    static Input decode(const InputBits& bits) {
        Input in{};
        return bits_to_input<G>(bits, in) ? in : Input{};
    }
    /// Whether `in` has bits that decode back to exactly `in` (written to `out`).
    static bool canonical(const Input& in, InputBits& out) {
        Input back{};
        return encode(in, out) && bits_to_input<G>(out, back) && back == in;
    }
    /// The core's check of untrusted bits from the network.
    static bool check_bits(const InputBits& bits) {
        Input in{};
        return bits_to_input<G>(bits, in);
    }
    /// decode() with a one-entry memo per slot (inputs mostly repeat from frame to frame).
    const Input& decode_cached(int slot, const InputBits& bits) {
        const auto i = static_cast<std::size_t>(slot);
        if (!memo_valid_[i] || !(memo_bits_[i] == bits)) {
            memo_input_[i] = decode(bits);
            memo_bits_[i] = bits;
            memo_valid_[i] = true;
        }
        return memo_input_[i];
    }
    const Saved& saved(Frame f) const { return ring_[static_cast<std::size_t>(f) % ring_.size()]; }

    /// The input `slot` simulates `f` with, recorded in the core as the bits it stands for.
    Input input_at(int slot, Frame f) {
        const detail::FrameInput src = core_.frame_input(slot, f);
        Input in = src.bits != nullptr ? decode_cached(slot, *src.bits) : Input{};
        const InputBits* used = src.bits != nullptr ? src.bits : core_.neutral_bits();
        if constexpr (HasInputPredictor<G>) {
            if (src.predicted) {
                in = G::predict_input(in, src.frames_since);
                // A guess without canonical bits can never equal a confirmed input: record it as unknown.
                used = canonical(in, predicted_bits_) ? &predicted_bits_ : nullptr;
            }
        }
        core_.set_used(slot, f, used);
        return in;
    }

    // detail::GameAccess: what the core asks of the game.
    detail::SimTiming simulate(Frame f) override {
        const std::uint64_t t0 = clock_.now_ns();
        Saved& s = ring_[static_cast<std::size_t>(f) % ring_.size()];
        s.frame = f;
        hooks::save_state<G>(state_, s.state);
        const std::uint64_t t1 = clock_.now_ns();
        for (int p = 0; p < G::kMaxPlayers; ++p)
            game_inputs_[static_cast<std::size_t>(p)] = p < num_players_ ? input_at(p, f) : Input{};
        hooks::step<G>(state_, std::span<const Input>(game_inputs_.data(), game_inputs_.size()));
        const std::uint64_t t2 = clock_.now_ns();
        return detail::SimTiming{t1 - t0, t2 - t1};
    }
    bool load(Frame f) override {
        const Saved& s = saved(f);
        if (s.frame != f) return false;
        hooks::load_state<G>(s.state, state_);
        return true;
    }
    bool checksum_after(Frame f, std::uint64_t& out) const override { return frame_checksum(f, out); }
    void keep_snapshot(Frame f) override {
        if (snapshots_.size() == kMaxSnapshots) snapshots_.erase(snapshots_.begin());
        Kept k{f, {}};
        if (f + 1 == core_.current_frame())
            k.state = state_;
        else
            hooks::load_state<G>(saved(f + 1).state, k.state);
        snapshots_.push_back(std::move(k));
    }
    void forget_snapshots_after(Frame f) override {
        while (!snapshots_.empty() && snapshots_.back().frame > f) snapshots_.pop_back();
    }
    const Kept* snapshot(Frame f) const {
        for (const Kept& s : snapshots_) {
            if (s.frame == f) return &s;
        }
        return nullptr;
    }
    bool snapshot_bytes(Frame f, detail::StateBytes& out) const override {
        const Kept* s = snapshot(f);
        if (s == nullptr) return false;
        out.bytes = state_to_bytes<G>(s->state, out.serialized);
        out.checksum = G::checksum(s->state);
        return true;
    }
    bool saved_bytes(Frame f, detail::StateBytes& out) const override {
        if constexpr (StateSerializable<G>) {
            const Frame next = core_.current_frame();
            if (f < 0 || f > next) return false;
            const State* s = &state_;
            if (f != next) {
                const Saved& sv = saved(f);
                if (sv.frame != f) return false;
                hooks::load_state<G>(sv.state, scratch_);
                s = &scratch_;
            }
            out.bytes = state_to_bytes<G>(*s, out.serialized);
            out.checksum = G::checksum(*s);
            return out.serialized;
        } else {
            (void)f;
            (void)out;
            return false;
        }
    }
    bool load_bytes(std::span<const std::uint8_t> bytes, std::uint64_t& checksum) override {
        State s{};
        if (!state_from_bytes<G>(bytes, s)) return false;
        state_ = std::move(s);
        checksum = G::checksum(state_);
        return true;
    }
    void describe_diff(const DesyncReport& report, std::string& diff) const override {
        if constexpr (DescribesDiff<G>) {
            const Kept* local = snapshot(report.frame);
            State remote{};
            if (local != nullptr && report.remote_serialized &&
                state_from_bytes<G>(report.remote_state, remote))
                G::describe_diff(local->state, remote, diff);
        } else {
            (void)report;
            (void)diff;
        }
    }

    State state_;
    std::vector<Saved> ring_;         // the state at the start of each of the last max_prediction+1+16 frames
    std::vector<Kept> snapshots_;     // states after the newest checksummed frames, for forensics
    mutable State scratch_{};         // a saved state loaded to be checksummed (save/load hooks only)
    std::vector<Input> game_inputs_;  // scratch: one input per game slot for G::step
    ClockFn clock_;
    int num_players_;
    std::array<InputBits, kMaxSessionPlayers> memo_bits_{};
    std::array<Input, kMaxSessionPlayers> memo_input_{};
    std::array<bool, kMaxSessionPlayers> memo_valid_{};
    InputBits predicted_bits_{};
    InputBits neutral_{};
    bool neutral_ok_;
    detail::P2PCore core_;  // last: it holds a reference to this session's GameAccess side
};

}  // namespace rwd::rollback
