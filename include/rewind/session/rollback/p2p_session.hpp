/// P2PSession: GGPO-style peer-to-peer rollback over a Transport; lockstep when max_prediction is 0.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/rng.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/rollback/desync.hpp>
#include <rewind/session/rollback/detail/input_queue.hpp>
#include <rewind/session/rollback/detail/peer_link.hpp>
#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/protocol.hpp>
#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <deque>
#include <memory>
#include <vector>

namespace rwd::rollback {

/// A rollback session for 1..8 players, any mix of local and remote (one transport PeerId per remote machine;
/// several slots may share it). Each frame the app calls add_local_input() for every local player, then
/// advance(now). Missing remote input is predicted; when the real input differs the session loads the saved
/// state of the first wrong frame and re-simulates to the present. The app renders state(), fires one-shot
/// effects only for is_confirmed() frames, follows time_scale() to stay in step, and reads poll_event().
template <DeterministicGame G>
class P2PSession {
public:
    using State = typename G::State;  ///< the game's state
    using Input = typename G::Input;  ///< one player's input for one frame

    /// A session, or invalid_config when `config` does not validate or G::kMaxPlayers < num_players.
    [[nodiscard]] static Result<std::unique_ptr<P2PSession>> create(transport::Transport& transport,
                                                                    const P2PConfig& config,
                                                                    const State& initial);
    /// A session; `config` must validate (use create() to check).
    P2PSession(transport::Transport& transport, const P2PConfig& config, const State& initial);

    /// Seats a local player in `slot` (before the first update()).
    [[nodiscard]] Status add_local_player(int slot);
    /// Seats a remote player in `slot`, reached through the transport's `peer` (before the first update()).
    [[nodiscard]] Status add_remote_player(int slot, transport::PeerId peer);
    /// Registers a spectator ahead of time (spectators may also just join by handshaking, up to
    /// max_spectators).
    [[nodiscard]] Status add_spectator(transport::PeerId peer);

    /// This frame's input for local `slot`; used by the next advance() (a later call replaces it).
    [[nodiscard]] Status add_local_input(int slot, const Input& input);
    /// Network only: receives, acknowledges, resends, times out, rolls back if a late input demands it.
    void update(Micros now);
    /// update(now), then simulates one frame if every peer is synchronized, all local inputs are given and
    /// the session is within max_prediction frames of the slowest peer. See AdvanceResult for what happened.
    AdvanceResult advance(Micros now);
    /// Says goodbye to every peer and spectator; the session stops sending.
    void close(Micros now);
    /// Drops a remote player on purpose (e.g. kicked); its input is neutral from its last confirmed frame on.
    void disconnect_player(int slot);

    /// Changes the local input delay mid-match. Longer: the gap repeats the last input; shorter: frames whose
    /// input repeats the previous one are merged away. No frame freezes and no distinct input is lost.
    [[nodiscard]] Status set_input_delay(int frames);
    /// The current input delay target.
    [[nodiscard]] int input_delay() const { return delay_; }
    /// The delay the newest local input really got (converges to input_delay() after a change).
    [[nodiscard]] int effective_input_delay() const { return last_local_frame_ - (frame_ - 1); }

    /// The state at the start of current_frame() (after every rollback so far).
    [[nodiscard]] const State& state() const { return state_; }
    /// The next frame to simulate; frames before it have been simulated.
    [[nodiscard]] Frame current_frame() const { return frame_; }
    /// The newest simulated frame whose inputs are all final (kNullFrame if none).
    [[nodiscard]] Frame confirmed_frame() const;
    /// Whether `frame` is simulated with final inputs: fire sounds and particles of it now, exactly once.
    [[nodiscard]] bool is_confirmed(Frame frame) const { return frame >= 0 && frame <= confirmed_frame(); }
    /// Whether every peer finished the handshake and frames advance.
    [[nodiscard]] bool running() const { return running_; }
    /// Frames ahead of the slowest peer (averaged; negative when behind).
    [[nodiscard]] double frames_ahead() const { return frames_ahead_; }
    /// Recommended speed: run the frame clock at this multiple of nominal (e.g. 0.98 when ahead).
    [[nodiscard]] double time_scale() const { return time_scale_; }
    /// Pops the oldest event; false when none.
    bool poll_event(SessionEvent& out);

    /// The checksum of the state after `frame` if it is still in the save ring (or current); false otherwise.
    bool frame_checksum(Frame frame, std::uint64_t& out) const;
    /// The final input of `slot` at `frame` if still stored; false otherwise.
    bool confirmed_input(int slot, Frame frame, Input& out) const;
    /// Who plays in `slot`.
    [[nodiscard]] PlayerKind player_kind(int slot) const;

    /// Session-wide statistics.
    [[nodiscard]] SessionStats stats() const;
    /// Statistics per remote peer and spectator.
    [[nodiscard]] std::vector<PeerStatsRb> peer_stats() const;
    /// Desync reports, newest last; `complete` once the remote state arrived.
    [[nodiscard]] const std::vector<DesyncReport>& desync_reports() const { return reports_; }
    /// The session's config.
    [[nodiscard]] const P2PConfig& config() const { return cfg_; }
    /// Spectators currently connected.
    [[nodiscard]] int num_spectators() const;

private:
    struct Slot {
        PlayerKind kind = PlayerKind::none;
        transport::PeerId peer = transport::kInvalidPeer;
        int link = -1;
    };
    struct Saved {
        Frame frame = kNullFrame;
        State state;
    };

    // network (detail/p2p_network.hpp)
    void start(Micros now);
    void receive(Micros now);
    int find_link(transport::PeerId peer) const;
    void handle_message(int link, const Message& msg, Micros now);
    void handle_unknown(transport::PeerId peer, const Message& msg, Micros now);
    void handle_input(int link, const Message& msg, Micros now);
    void handle_link_events(int link, Micros now);
    void apply_disconnect(int slot, Frame last);
    void send_all(Micros now, bool force);
    void send_player_inputs(detail::PeerLink& l, Micros now);
    void send_spectator_inputs(detail::PeerLink& l, Micros now);
    void handle_forensics(int link, const Message& msg, Micros now);
    void push_event(SessionEvent e) { events_.push_back(e); }
    void drop_spectator(detail::PeerLink& l, Micros now);
    Frame history_end() const {
        return history_start_ +
               static_cast<Frame>(history_.size() / static_cast<std::size_t>(cfg_.num_players));
    }
    // simulation (detail/p2p_simulation.hpp)
    Input input_for(int slot, Frame f) const;
    Frame remote_confirmed() const;
    void simulate(Frame f);
    void resolve_rollback();
    bool commit_local_inputs();
    void process_confirmed();
    void compare_checksums();
    void update_time_sync();
    std::uint32_t status_tag(Frame f) const;
    Frame oldest_needed() const { return frame_ - cfg_.max_prediction - 1; }
    void note_incorrect(int slot, Frame f);

    transport::Transport& transport_;
    P2PConfig cfg_;
    detail::Sender sender_;
    Rng rng_;
    std::uint32_t nonce_ = 0;
    std::array<Slot, kMaxSessionPlayers> slots_{};
    std::vector<detail::InputQueue<Input>> queues_;
    std::vector<detail::PeerLink> links_;
    std::vector<detail::LinkEvent> link_events_;
    std::deque<SessionEvent> events_;
    bool started_ = false;
    bool running_ = false;
    bool closed_ = false;
    Micros running_since_{};
    Micros last_now_{};

    State state_;
    Frame frame_ = 0;
    std::vector<Saved> ring_;
    Frame first_incorrect_ = kNullFrame;
    int incorrect_link_ = -1;
    std::array<Input, kMaxSessionPlayers> pending_{};
    std::array<bool, kMaxSessionPlayers> has_pending_{};
    std::array<Input, kMaxSessionPlayers> last_local_{};
    Frame last_local_frame_ = kNullFrame;
    Frame committed_for_ = kNullFrame;  // the frame whose local input was committed last
    int delay_ = 2;
    std::vector<Input> game_inputs_;  // scratch: one input per game slot for G::step

    Frame checked_through_ = kNullFrame;        // frames whose confirmation was processed
    std::deque<ChecksumReport> local_reports_;  // our checksums of confirmed frames (bounded)
    ChecksumReport latest_report_{};
    bool has_report_ = false;
    std::deque<Saved> snapshots_;  // states of checksummed frames, for forensics (bounded)
    std::vector<DesyncReport> reports_;
    std::deque<Input> history_;  // confirmed inputs for spectators, frame-major, from history_start_
    Frame history_start_ = 0;    // oldest frame in history_ (the window slides past older ones)

    double frames_ahead_ = 0.0;
    double time_scale_ = 1.0;
    double reported_scale_ = 1.0;
    Frame last_stall_frame_ = kNullFrame;
    SessionStats stats_{};
};

}  // namespace rwd::rollback

#include <rewind/session/rollback/detail/p2p_desync.hpp>
#include <rewind/session/rollback/detail/p2p_network.hpp>
#include <rewind/session/rollback/detail/p2p_simulation.hpp>
