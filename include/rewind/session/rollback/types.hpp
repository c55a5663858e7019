/// Rollback vocabulary: frames, player kinds, configs, events, advance results and statistics.
#pragma once

#include <rewind/core/log.hpp>
#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace rwd::rollback {

/// A simulation frame number; frames start at 0 and a match of 2^31 frames (414 days at 60 Hz) never wraps.
using Frame = std::int32_t;
/// "No frame": nothing confirmed, nothing received.
inline constexpr Frame kNullFrame = -1;
/// Most players a rollback session supports (slots 0..7).
inline constexpr int kMaxSessionPlayers = 8;
/// Largest serialized Input, in bytes, that the input packets carry.
inline constexpr std::size_t kMaxInputBytes = 64;
/// Largest prediction window; the input rings hold many times this.
inline constexpr int kMaxPredictionWindow = 32;
/// Frames the save ring keeps beyond the prediction window, so that a player's leave reported up to this many
/// frames earlier than this peer saw it can still be rewritten (every peer waits at its own leave frame plus
/// the window until all agree).
inline constexpr int kLeaveRewriteFrames = 16;
/// Largest input delay in frames.
inline constexpr int kMaxInputDelay = 30;

/// A reading of an optional clock in nanoseconds, used only to time save/load/step for the statistics.
/// The library never reads a clock itself; without one the timing statistics stay zero (tests stay exact).
struct ClockFn {
    using Fn = std::uint64_t (*)(void* user);
    Fn fn = nullptr;       ///< returns nanoseconds from any fixed origin; null = no timing
    void* user = nullptr;  ///< passed back to fn
    /// Nanoseconds, or 0 without a clock.
    [[nodiscard]] std::uint64_t now_ns() const { return fn != nullptr ? fn(user) : 0; }
};

/// Who plays in a slot, from one session's point of view.
enum class PlayerKind : std::uint8_t {
    none,    ///< the slot is empty (always neutral input)
    local,   ///< this session feeds its input with add_local_input()
    remote,  ///< another peer feeds it; reached through a transport PeerId
};

/// The knobs of a P2PSession (see docs/TUNING.md for when to change them).
struct P2PConfig {
    int num_players = 2;  ///< slots 0..num_players-1 take part (2..8)
    int input_delay = 2;  ///< frames between an input and the frame it is used in (adapting: the least)
    /// Size the input delay to the link: from the measured round trip and its deviation to every player, the
    /// delay that lets their inputs arrive within the prediction window (the handshake's round trips choose
    /// it before the first frame; quality reports adjust it during the match: up at once (after two checks
    /// for a small step), down one frame after 0.6 s of room), between input_delay and max_input_delay. Each
    /// peer sizes its own inputs' delay: nothing to agree on, never a desync. set_input_delay() turns it off.
    bool adapt_input_delay = true;
    int max_input_delay = 30;              ///< the most the adaptation chooses, input_delay..30
    int max_prediction = 8;                ///< frames simulated ahead of confirmed input; 0 = lockstep
    int checksum_interval = 30;            ///< confirmed frames whose checksums peers compare (0 = off)
    int sync_roundtrips = 5;               ///< handshake round trips before a peer counts as synchronized
    Micros sync_retry{200'000};            ///< handshake request repeat interval
    Micros disconnect_notice{500'000};     ///< silence before an `interrupted` event
    Micros disconnect_timeout{2'000'000};  ///< silence before the peer is disconnected
    Micros keepalive_interval{100'000};    ///< an idle link sends at least this often
    Micros resend_interval{33'000};        ///< unacked inputs are resent this often while no frame advances
    Micros quality_interval{200'000};      ///< ping / frame-advantage report interval
    Micros frame_duration{16'667};         ///< nominal frame length (60 Hz), for advantage estimates
    double time_sync_gain = 0.01;          ///< speed change per frame of advantage (1 % per frame)
    double time_sync_max_adjust = 0.05;    ///< largest recommended speed change (5 %)
    double time_sync_deadband = 0.5;       ///< frames of advantage ignored as noise
    int stall_frames_ahead = 4;            ///< backstop: skip a frame when this far ahead (0 = never)
    int max_spectators = 4;                ///< spectators that may join (0 = no spectators, no history)
    int spectator_history_frames =
        36'000;  ///< confirmed input frames kept for spectators (10 min at 60 Hz);
                 ///< a spectator further behind than this is dropped (too_far_behind)
    /// Late join and rejoin: a player whose link ended may come back to its slot (and a newcomer take a slot
    /// opened with add_open_slot()) by state transfer from one peer, the sponsor.
    bool rejoin = true;
    int join_margin_frames =
        15;  ///< (0..60) frames between the sponsor's decision and the join frame, beyond a round trip
    /// A joined slot whose first input has held this peer at the prediction window this long is given up.
    Micros join_timeout{3'000'000};
    int join_catch_up_frames = 30;  ///< most frames a joiner fast-forwards in one advance()
    bool drive_transport = true;    ///< call transport.update(now) inside update()
    std::uint32_t session_tag = 0;  ///< must match on all peers (e.g. a match id); handshake checks it
    std::uint64_t seed = 1;         ///< seeds the handshake nonces (pass a real random seed in apps)
    Logger logger{};                ///< where warnings go
    ClockFn clock{};                ///< optional nanosecond clock for save/load/step timings

    /// invalid_config with a description of the first bad value.
    [[nodiscard]] Status validate() const;
};

/// Why a spectator or player link ended (SessionEvent::reason, and the goodbye message on the wire).
enum class LeaveReason : std::uint8_t {
    none,            ///< not a leave (or not known)
    left,            ///< it said goodbye, its transport disconnected or it went silent
    too_far_behind,  ///< a spectator needed inputs older than the host's spectator_history_frames window
};
/// The largest LeaveReason value.
inline constexpr LeaveReason kMaxLeaveReason = LeaveReason::too_far_behind;
/// The readable name of a LeaveReason, e.g. "too_far_behind".
std::string_view leave_reason_name(LeaveReason reason);

/// What happened in a session, popped with poll_event().
struct SessionEvent {
    /// The kind of event.
    enum class Type : std::uint8_t {
        synchronizing,     ///< handshake progress with `player` (count of total round trips)
        synchronized,      ///< `player`'s peer finished the handshake
        running,           ///< every peer is synchronized; frames advance
        interrupted,       ///< `player`'s peer went silent for disconnect_notice
        resumed,           ///< `player`'s peer is heard again
        disconnected,      ///< `player` left; its input is neutral from frame+1 on
        time_sync,         ///< recommended speed changed: `frames_ahead`, `time_scale`
        desync_detected,   ///< confirmed `frame` differs: `local_checksum` vs `remote_checksum` (from
                           ///< `player`)
        spectator_joined,  ///< a spectator (transport `peer`) finished its handshake
        spectator_left,    ///< a spectator (transport `peer`) left or timed out
        input_delay,       ///< the adaptation chose a new input delay for the local inputs: `count` frames
        player_joined,  ///< `player` joins the running match: its inputs count from `frame` (before: neutral)
        joined,         ///< this session joined: the state after `frame` was loaded and checked
        rewritten,      ///< a player's leave was agreed earlier than this peer saw it: confirmed frames from
                        ///< `frame` on were simulated again (read their state and checksums anew)
    };
    Type type = Type::running;
    int player = -1;                                   ///< the player slot concerned, or -1
    transport::PeerId peer = transport::kInvalidPeer;  ///< the transport peer concerned
    Frame frame = kNullFrame;                ///< disconnected: last real input; desync: the frame compared
    int count = 0;                           ///< synchronizing: round trips done
    int total = 0;                           ///< synchronizing: round trips needed
    Micros timeout_in{};                     ///< interrupted: time left before the disconnect
    double frames_ahead = 0.0;               ///< time_sync: how far ahead of the slowest peer
    double time_scale = 1.0;                 ///< time_sync: recommended speed (1.0 = nominal)
    std::uint64_t local_checksum = 0;        ///< desync_detected
    std::uint64_t remote_checksum = 0;       ///< desync_detected
    LeaveReason reason = LeaveReason::none;  ///< disconnected, spectator_left: why
};

/// The readable name of an event type, e.g. "desync_detected".
std::string_view event_name(SessionEvent::Type type);

/// What one advance() did.
enum class AdvanceStatus : std::uint8_t {
    advanced,              ///< one frame was simulated (after any rollback)
    synchronizing,         ///< peers are still handshaking; nothing simulated
    prediction_threshold,  ///< too far ahead of the slowest peer's confirmed input (lockstep: waiting)
    time_sync_stall,       ///< the time-sync backstop skipped this frame
    missing_local_input,   ///< a local player had no add_local_input() for this frame
    finished,              ///< nothing left to do (spectator: no input yet, host gone)
};

/// The readable name of an AdvanceStatus.
std::string_view advance_status_name(AdvanceStatus status);

/// The outcome of advance().
struct AdvanceResult {
    AdvanceStatus status = AdvanceStatus::advanced;
    Frame frame = kNullFrame;  ///< the frame simulated (advanced), else the frame waiting to be simulated
    int rollback_frames = 0;   ///< frames re-simulated by a rollback before this frame (0 = none)
    int frames_advanced = 0;   ///< frames simulated in total (spectators may run several to catch up)
    /// True when a frame was simulated.
    [[nodiscard]] bool advanced() const { return frames_advanced > 0; }
};

/// Histogram buckets for rollback depth: index d counts rollbacks that re-simulated d frames; the last bucket
/// also holds anything deeper.
inline constexpr std::size_t kRollbackHistogramSize = kMaxPredictionWindow + 2;

/// Timing totals measured with the optional clock (all zero without one).
struct TimingStats {
    std::uint64_t save_ns = 0;          ///< total time copying states into the ring
    std::uint64_t load_ns = 0;          ///< total time restoring states for rollbacks
    std::uint64_t step_ns = 0;          ///< total time inside G::step (normal and re-simulated frames)
    std::uint64_t saves = 0;            ///< number of saves
    std::uint64_t loads = 0;            ///< number of loads
    std::uint64_t steps = 0;            ///< number of G::step calls
    std::uint64_t max_rollback_ns = 0;  ///< the most expensive rollback (load + re-simulation + saves)
    std::array<std::uint64_t, kMaxPredictionWindow + 2> rollback_ns{};  ///< total rollback time by depth
};

/// Statistics about one remote peer (player or spectator).
struct PeerStatsRb {
    transport::PeerId peer = transport::kInvalidPeer;
    int player = -1;               ///< first slot the peer plays, -1 for spectators
    bool synchronized = false;     ///< handshake done
    bool connected = true;         ///< not disconnected
    bool interrupted = false;      ///< silent for more than disconnect_notice
    Micros ping{};                 ///< smoothed round-trip time measured by quality reports
    Micros ping_deviation{};       ///< its mean deviation (what the input delay adaptation adds for jitter)
    double frames_behind = 0.0;    ///< how many frames the peer is behind us (negative: ahead)
    double kbps_sent = 0.0;        ///< our send rate to the peer over the last second
    double kbps_received = 0.0;    ///< its send rate to us over the last second
    std::uint64_t bytes_sent = 0;  ///< payload plus transport header bytes
    std::uint64_t bytes_received = 0;
    std::uint64_t packets_sent = 0;
    std::uint64_t packets_received = 0;
    std::uint64_t malformed = 0;             ///< packets dropped as malformed or out of protocol
    Frame last_received_frame = kNullFrame;  ///< its newest contiguous input (spectators: what it acked)
    std::uint64_t rollbacks = 0;             ///< rollbacks this peer's late inputs caused
    std::array<std::uint64_t, kRollbackHistogramSize> rollback_depth{};  ///< depths of those rollbacks
};

/// Whole-session statistics.
struct SessionStats {
    Frame frame = 0;                       ///< the next frame to simulate
    Frame confirmed_frame = kNullFrame;    ///< every player's input known up to here
    std::uint64_t frames_advanced = 0;     ///< frames simulated the first time
    std::uint64_t frames_resimulated = 0;  ///< frames simulated again by rollbacks
    std::uint64_t rollbacks = 0;           ///< number of rollbacks
    std::array<std::uint64_t, kRollbackHistogramSize> rollback_depth{};  ///< rollbacks by depth
    double resimulated_per_second = 0.0;    ///< frames_resimulated over the time since running started
    std::uint64_t stalls_prediction = 0;    ///< advance() calls refused at the prediction threshold
    std::uint64_t stalls_time_sync = 0;     ///< frames skipped by the time-sync backstop
    std::uint64_t time_sync_events = 0;     ///< changes of the recommended speed
    std::uint64_t checksums_compared = 0;   ///< confirmed-frame checksums compared with a peer
    std::uint64_t desyncs = 0;              ///< mismatches found
    std::uint64_t malformed = 0;            ///< packets dropped as malformed, all peers
    std::uint64_t spectator_history = 0;    ///< confirmed input frames kept for spectators (<= the window)
    std::uint64_t spectators_dropped = 0;   ///< spectators dropped for falling behind that window
    double frames_ahead = 0.0;              ///< current advantage over the slowest peer
    double time_scale = 1.0;                ///< current recommended speed
    int input_delay = 0;                    ///< the local inputs' delay now, frames
    int input_delay_min = 0;                ///< the least it was since running started
    int input_delay_max = 0;                ///< the most it was since running started
    std::uint64_t input_delay_changes = 0;  ///< changes the adaptation made
    std::uint64_t joins = 0;                ///< players that joined the running match (as this peer saw it)
    std::uint64_t joins_sponsored = 0;      ///< of them, the ones this peer sent the state to
    std::uint64_t joins_expired = 0;        ///< joins given up: the joiner's first input never came
    std::uint64_t catch_up_frames = 0;      ///< joiner: frames fast-forwarded after loading the state
    TimingStats timing{};                   ///< save/load/step time (with a clock)
};

}  // namespace rwd::rollback
