/// P2PCore::Impl: the state of a rollback peer core and its parts (links, inputs, frames, desync exchange).
#pragma once

#include "session/rollback/input_queue.hpp"
#include "session/rollback/peer_link.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/session/rollback/detail/p2p_core.hpp>

#include <array>
#include <deque>
#include <vector>

namespace rwd::rollback::detail {

class P2PCore::Impl {
public:
    Impl(transport::Transport& transport, const P2PConfig& config, InputCheck check, const InputBits* neutral,
         GameAccess& game);

    // seats and links (p2p_links.cpp)
    Status add_spectator(transport::PeerId peer);
    int num_spectators() const;
    int find_link(transport::PeerId peer) const;
    LinkParams link_params(std::uint8_t local_players) const;
    void start(Micros now);
    void update(Micros now);
    void receive(Micros now);
    void handle_unknown(transport::PeerId peer, const Message& msg, Micros now);
    void handle_message(int link, const Message& msg, Micros now);
    void handle_link_events(int link);
    int first_player(const PeerLink& l) const;
    void apply_disconnect(int slot, Frame last);
    void disconnect_player(int slot);
    void close(Micros now);
    void push_event(const SessionEvent& e) { events_.push_back(e); }

    // input exchange (p2p_inputs.cpp)
    Status add_local_input(int slot, const InputBits& bits);
    void handle_input(int link, const Message& msg, Micros now);
    bool commit_local_inputs();
    void send_all(Micros now, bool force);
    void send_player_inputs(PeerLink& l, Micros now);
    void send_spectator_inputs(PeerLink& l, Micros now);
    void drop_spectator(PeerLink& l, Micros now);
    Frame history_end() const {
        return history_start_ +
               static_cast<Frame>(history_.size() / static_cast<std::size_t>(cfg_.num_players));
    }

    // frames (p2p_frames.cpp)
    AdvanceResult advance(Micros now);
    FrameInput frame_input(int slot, Frame f) const;
    const InputBits& final_bits(int slot, Frame f) const;
    bool confirmed_input(int slot, Frame f, const InputBits*& out) const;
    Frame remote_confirmed() const;
    /// Whether every live player peer reports `slot`'s player gone too: until then its leave frame may still
    /// move earlier, and nothing after it counts as confirmed (every peer waits there, inside its window).
    [[nodiscard]] bool leave_agreed(int slot) const;
    Frame confirmed_frame() const;
    void simulate(Frame f);
    void note_incorrect(int slot, Frame f);
    void resolve_rollback();
    void process_confirmed();
    void update_time_sync();
    // input delay (p2p_delay.cpp)
    /// The delay the links call for now: inputs sent now must reach every player within the window.
    [[nodiscard]] int wanted_input_delay() const;
    /// The largest round-trip deviation to a player, in whole frames: how noisy the advantage estimates are
    /// (the time-sync backstop waits for that much more before it skips a frame).
    [[nodiscard]] int jitter_frames() const;
    /// Follows wanted_input_delay() (at once when it is higher; one frame lower after a quiet spell).
    void adapt_input_delay(Micros now, bool at_start);
    /// Sets the local inputs' delay and records it.
    void set_delay(int frames, bool adapted);
    Frame oldest_needed() const { return frame_ - cfg_.max_prediction - 1; }
    /// The oldest frame whose saved start state the ring still holds: how far back a leave can be rewritten.
    Frame oldest_saved() const { return frame_ - cfg_.max_prediction - 1 - kLeaveRewriteFrames; }
    SessionStats stats() const;
    std::vector<PeerStatsRb> peer_stats() const;

    // late join and rejoin (p2p_join.cpp)
    /// Whether a joiner may take `slot` now: an open slot nobody took, or (with rejoin) a slot whose player
    /// left; and no live link plays it.
    [[nodiscard]] bool slot_open_for_join(int slot) const;
    /// Accepts a handshake from an unknown peer that wants to join in one open slot.
    bool accept_joiner(transport::PeerId peer, const Message& msg, Micros now);
    /// The slots this session plays.
    [[nodiscard]] std::uint8_t local_mask() const;
    /// Applies one slot's status from a peer: joins, gaps and leaves, newest epoch first.
    void apply_status(int slot, const PlayerStatus& st, Micros now);
    /// Moves the start of a joined slot's gap earlier (within the save ring) and re-simulates.
    void lower_gap(int slot, Frame last);
    /// Starts the join of `slot` at frame `join` after the previous player's last frame `gap_last`.
    void begin_join(int slot, Frame join, Frame gap_last);
    /// The status this session sends for `slot`.
    [[nodiscard]] PlayerStatus status_of(int slot) const;
    /// Sponsor: answers a join request (decides the join frame, sends the state).
    void handle_join_request(int link, Micros now);
    /// Joiner: one piece of the state; the last one loads it and starts the session.
    void handle_join_state(int link, const Message& msg, Micros now);
    /// Joiner: loads the received state, takes every slot's status from the sponsor, starts running.
    void finish_join(int link, const Message& msg, Micros now);
    /// Joiner: advance() before its first input is due: simulates towards the peers' frame.
    AdvanceResult catch_up(Micros now);
    /// Joiner: gives up (an event, a log line, goodbye to everyone).
    void fail_join(Micros now, const char* why);
    /// Joiner: asks the sponsor (the first synchronized link) until the state arrives.
    void poll_join(Micros now);
    /// A joined slot whose player never sent its first input within join_timeout is given up.
    void expire_joins(Micros now);
    /// Joiner: how far to fast-forward now (the peers' estimated frame, within the prediction window).
    [[nodiscard]] Frame catch_up_target() const;
    /// Rewrites the timeline after `last` for `slot` (a leave or a gap start moved earlier).
    void rewrite_after(int slot, Frame last);

    // desync exchange (p2p_desync.cpp)
    std::uint32_t status_tag(Frame f) const;
    void compare_checksums();
    void handle_forensics(int link, const Message& msg, Micros now);

    /// Who plays in a slot and, for a remote player, through which link.
    struct Slot {
        PlayerKind kind = PlayerKind::none;
        transport::PeerId peer = transport::kInvalidPeer;
        int link = -1;
    };

    transport::Transport& transport_;
    P2PConfig cfg_;
    InputCheck check_;
    InputBits neutral_{};         // bits of Input{} (sent for neutral frames)
    bool neutral_valid_ = false;  // Input{} decodes back from neutral_
    GameAccess& game_;
    Sender sender_;
    Rng rng_;
    std::uint32_t nonce_ = 0;
    std::array<Slot, kMaxSessionPlayers> slots_{};
    std::vector<InputQueue> queues_;
    std::vector<PeerLink> links_;
    std::vector<LinkEvent> link_events_;
    std::deque<SessionEvent> events_;
    bool started_ = false;
    bool running_ = false;
    bool closed_ = false;
    Micros running_since_{};
    Micros last_now_{};

    Frame frame_ = 0;
    Frame first_incorrect_ = kNullFrame;
    int incorrect_link_ = -1;
    std::array<InputBits, kMaxSessionPlayers> pending_{};
    std::array<bool, kMaxSessionPlayers> has_pending_{};
    std::array<InputBits, kMaxSessionPlayers> last_local_{};
    Frame last_local_frame_ = kNullFrame;
    Frame committed_for_ = kNullFrame;  // the frame whose local input was committed last
    int delay_ = 2;
    bool adapt_delay_ = true;  // cfg_.adapt_input_delay until set_input_delay() is called
    Micros next_delay_check_{};
    int delay_room_checks_ = 0;  // consecutive checks that found room for a shorter delay
    int delay_long_checks_ = 0;  // consecutive checks that called for a longer one

    Frame checked_through_ = kNullFrame;        // frames whose confirmation was processed
    std::deque<ChecksumReport> local_reports_;  // our checksums of confirmed frames (bounded)
    ChecksumReport latest_report_{};
    bool has_report_ = false;
    std::vector<DesyncReport> reports_;
    std::deque<InputBits> history_;  // confirmed inputs for spectators, frame-major, from history_start_
    Frame history_start_ = 0;        // oldest frame in history_ (the window slides past older ones)

    // late join
    std::array<bool, kMaxSessionPlayers> open_{};             // slots a newcomer may take
    std::array<Micros, kMaxSessionPlayers> join_deadline_{};  // joined slot holding us up: given up then
    std::array<bool, kMaxSessionPlayers> join_blocked_{};     // the slot's missing first input holds us up
    std::array<bool, kMaxSessionPlayers> join_waiting_{};     // joined slot without its first input yet
    bool joining_ = false;                                    // this session joins a running match
    int join_slot_ = -1;                                      // the slot it joins in
    int sponsor_link_ = -1;                                   // the link it asked for the state
    Micros next_join_request_{};
    bool join_done_ = false;             // the state arrived and was loaded
    Frame join_frame_ = kNullFrame;      // the frame its inputs start at
    Frame transfer_frame_ = kNullFrame;  // the state being received is after it
    std::vector<std::uint8_t> transfer_bytes_;
    std::uint32_t transfer_received_ = 0;

    double frames_ahead_ = 0.0;
    double time_scale_ = 1.0;
    double reported_scale_ = 1.0;
    Frame last_stall_frame_ = kNullFrame;
    SessionStats stats_{};
};

}  // namespace rwd::rollback::detail
