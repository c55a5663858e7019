/// Stats of the client-server sessions: per seat on the server, the server as a whole, and the client's
/// overlay.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/messages.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rwd::client_server {

/// What the server knows about one seated client.
struct ServerClientStats {
    bool connected = false;             ///< a client holds this seat
    std::uint32_t peer = 0;             ///< its transport peer id
    double input_buffer_depth = 0.0;    ///< inputs waiting in its jitter buffer (last tick)
    double arrival_offset_ticks = 0.0;  ///< how early its inputs arrive (smoothed; negative = late)
    int input_buffer_target = 0;        ///< ticks early the server asks its inputs to arrive (adaptive)
    double rewind_limit_ms = 0.0;  ///< the oldest view its shots may claim, ms before the tick (last shot)
    std::uint64_t inputs_applied = 0;   ///< ticks with a real input from it
    std::uint64_t inputs_repeated = 0;  ///< ticks where its input was missing and the last one was repeated
    std::uint64_t inputs_late = 0;      ///< inputs that arrived after their tick was simulated
    std::uint64_t inputs_replayed = 0;  ///< ... applied after all by replaying the ticks since
    std::uint64_t inputs_replay_refused =
        0;  ///< ... within the replay window but over the replay budget (the repeat stands)
    std::uint64_t inputs_duplicate = 0;      ///< redundant copies of inputs already held or applied
    std::uint64_t inputs_overflow = 0;       ///< inputs dropped because the queue was full (flood)
    std::uint64_t inputs_rate_limited = 0;   ///< input packets dropped by the rate limit
    std::uint64_t inputs_future = 0;         ///< input packets stamped too far in the future (dropped)
    std::uint64_t violations = 0;            ///< sanitize() violations (out-of-range axes, unknown buttons)
    bool flagged = false;                    ///< violations or floods seen: worth a look
    std::uint64_t shots = 0;                 ///< ticks it fired
    std::uint64_t shots_rewind_clamped = 0;  ///< shots whose view time lag compensation clamped (any reason)
    std::uint64_t shots_beyond_limit = 0;    ///< ... because it was older than the client's rewind limit
    std::uint64_t shots_future_view = 0;     ///< ... because it claimed a view ahead of the server
    std::uint64_t malformed = 0;             ///< messages from it that failed to decode
    std::uint64_t unexpected =
        0;  ///< well-formed messages of a type a server never takes (count toward max_malformed)
    std::uint64_t abusive_windows = 0;  ///< abuse windows in which it passed abusive_packets_per_window
    bool encrypted = false;             ///< its packets are sealed (it connected with a token)
    std::uint64_t packets_rejected =
        0;                         ///< packets on its connection that did not open (forged, replayed,
                                   ///< truncated, stale): dropped before decoding, never counted against it
    std::uint64_t bytes_sent = 0;  ///< payload bytes sent to it
    std::uint64_t bytes_received =
        0;                       ///< payload bytes received from it (sealed packets whole; refused ones not)
    double kbps_sent = 0.0;      ///< transport's measured rate to it, headers included
    double kbps_received = 0.0;  ///< transport's measured rate from it, headers included
    std::uint64_t snapshots_sent = 0;        ///< snapshots sent to it
    std::size_t last_snapshot_bytes = 0;     ///< size of the last snapshot
    std::size_t max_snapshot_bytes = 0;      ///< the largest snapshot so far
    std::uint64_t snapshot_bytes_total = 0;  ///< all snapshot bytes (mean = total / snapshots_sent)
    std::uint64_t snapshot_wire_bytes_total =
        0;                       ///< the same plus 28 B UDP/IP and the transport header per datagram
    double snapshot_kbps = 0.0;  ///< snapshot rate to it with those headers, kbit/s (mean so far)
    std::uint64_t snapshot_entity_bits_total =
        0;  ///< bits of the entity lists (bits per entity = / entities_total)
    std::uint64_t snapshot_entities_total = 0;   ///< relevant entities summed over its snapshots
    std::uint64_t snapshots_with_baseline = 0;   ///< snapshots delta-coded against an acknowledged one
    std::uint64_t entities_left_out_total = 0;   ///< relevant entities the byte budget postponed, summed
    std::uint64_t snapshots_budget_limited = 0;  ///< snapshots in which the byte budget postponed something
    std::uint64_t snapshot_unpredicted_bytes_total =
        0;                                ///< what snapshot_bytes_total would be under the previous codec
                                          ///< (SnapshotConfig::measure_previous_codec)
    std::uint64_t events_sent = 0;        ///< reliable messages sent to it (the library's and the game's)
    std::uint64_t messages_received = 0;  ///< game messages from it accepted (chat included)
    std::array<std::uint64_t, kMessageRefusalCount>
        messages_refused{};             ///< messages from it refused, indexed by MessageRefusal
    bool away = false;                  ///< its link is lost and the seat is held for it (seat_grace)
    std::uint64_t resumes = 0;          ///< times it came back to this seat
    std::uint64_t messages_resent = 0;  ///< reliable messages resent to it on coming back
    std::uint64_t resume_resyncs = 0;   ///< comebacks that could not resend everything it missed
};

/// Upper bounds of ServerStats::tick_time_buckets, in microseconds (a 60 Hz tick lasts 16 667).
inline constexpr std::array<std::int64_t, 10> kTickTimeBucketMicros{100,  250,  500,   1000,  2000,
                                                                    4000, 8000, 16000, 33000, 66000};
/// Number of DisconnectCode values (for per-reason counters).
inline constexpr std::size_t kDisconnectCodeCount = 10;

/// The server as a whole: counters since the start (ServerCore::write_metrics exports them for Prometheus).
struct ServerStats {
    Tick tick{};                       ///< the next tick to simulate
    std::uint64_t ticks = 0;           ///< ticks simulated
    std::uint64_t ticks_dropped = 0;   ///< ticks skipped by the catch-up cap after a stall
    std::uint64_t snapshots_sent = 0;  ///< snapshots to all clients
    std::uint64_t connects = 0;        ///< clients seated
    std::uint64_t disconnects = 0;     ///< clients unseated (any reason)
    std::uint64_t refused = 0;         ///< hellos refused (full, bad protocol, unauthorized)
    std::array<std::uint64_t, auth::kTokenErrorCount>
        token_refusals{};               ///< refused tokens, indexed by auth::TokenError
    std::uint64_t kicked_garbage = 0;   ///< clients kicked for malformed messages
    std::uint64_t kicked_cheating = 0;  ///< clients kicked for violations or sustained input floods
    std::uint64_t timeouts = 0;         ///< clients dropped for silence
    std::uint64_t seats_held = 0;       ///< seats held for a client whose link was lost (seat_grace)
    std::uint64_t resumes = 0;          ///< clients that came back to their held (or still open) seat
    std::uint64_t seats_expired = 0;    ///< held seats freed because the grace ended
    std::uint64_t resumes_refused = 0;  ///< resumes naming a seat with the wrong secret or account
    std::uint64_t messages_resent = 0;  ///< reliable messages resent on resume
    std::uint64_t resume_resyncs = 0;   ///< resumes that could not resend every missed message
    std::uint64_t malformed = 0;        ///< malformed messages from anyone
    std::uint64_t unexpected = 0;       ///< well-formed messages of a type the server does not take
    std::array<std::uint64_t, auth::kOpenErrorCount>
        packets_rejected{};  ///< sealed packets that did not open, indexed by auth::OpenError (none unused)
    std::uint64_t snapshot_overflow = 0;  ///< snapshots cut because they exceeded the transport's size
    std::uint64_t send_failures = 0;      ///< sends the transport refused
    std::uint64_t events = 0;  ///< messages sent by the server (each once, however many receive it)
    std::uint64_t messages_received = 0;  ///< messages from clients accepted (chat included)
    std::array<std::uint64_t, kMessageRefusalCount>
        messages_refused{};             ///< messages from clients refused, indexed by MessageRefusal
    std::uint64_t replays = 0;          ///< late-input replays committed (the world re-simulated)
    std::uint64_t replays_aborted = 0;  ///< replays dropped because they changed an event already sent
    std::uint64_t replayed_ticks = 0;   ///< ticks re-simulated by committed and dropped replays
    Micros last_tick_time{};            ///< time the last tick took (needs ServerConfig::clock)
    Micros max_tick_time{};             ///< the slowest tick so far (needs ServerConfig::clock)
    Micros total_tick_time{};           ///< all ticks together (mean = total / ticks)
    std::array<std::uint64_t, kTickTimeBucketMicros.size() + 1>
        tick_time_buckets{};  ///< ticks by time taken: [i] at or under kTickTimeBucketMicros[i] (and over
                              ///< the bound before), the last over every bound (needs ServerConfig::clock)
    std::array<std::uint64_t, kDisconnectCodeCount>
        kicks{};  ///< connections the server closed, by DisconnectCode (timed_out includes silent hellos)
    std::array<std::uint64_t, kDisconnectCodeCount> refusals{};  ///< hellos refused, by DisconnectCode
    std::uint64_t snapshot_bytes = 0;                            ///< snapshot payload bytes to all clients
    std::uint64_t inputs_late = 0;           ///< inputs that arrived after their tick, from every seat ever
    std::uint64_t inputs_repeated = 0;       ///< ticks a seated client's input was missing and repeated
    std::uint64_t inputs_replayed = 0;       ///< late inputs applied after all by a replay
    std::uint64_t shots = 0;                 ///< ticks on which a client fired
    std::uint64_t shots_beyond_limit = 0;    ///< shots clamped to the client's rewind limit
    std::uint64_t shots_future_view = 0;     ///< shots that claimed a view ahead of the server
    std::uint64_t shots_beyond_history = 0;  ///< shots older than the hitbox history
};

/// One reconciliation that found the prediction wrong.
template <class EntitySnapshot>
struct CorrectionRecord {
    Tick tick{};                     ///< the acknowledged input tick that was compared
    EntitySnapshot predicted{};      ///< what the client had predicted for its player at that tick
    EntitySnapshot authoritative{};  ///< what the server said
    std::uint32_t fields = 0;        ///< G::diff_fields(predicted, authoritative)
    std::int64_t error_q = 0;        ///< G::position_error_q in grid units
    double error_m = 0.0;            ///< the same in metres
    double drawn_offset_m =
        0.0;               ///< how far the drawn player was from the corrected prediction (offset to hide)
    bool snapped = false;  ///< drawn_offset_m > snap_distance_m: the drawn player snapped instead
};

/// The client's debug-overlay figures.
struct ClientStats {
    Micros rtt{};                    ///< median round-trip time (ping/pong)
    Micros jitter{};                 ///< mean deviation of the RTT
    double loss = 0.0;               ///< snapshots lost, from their sequence numbers (recent window)
    Tick tick{};                     ///< the client's current tick
    double time_scale = 1.0;         ///< how fast the client runs to stay on target
    double clock_error_ticks = 0.0;  ///< target tick - client tick (last update)
    double server_tick_drift = 0.0;  ///< estimated server tick - (stamped tick + RTT/2) at the last snapshot
    double lead_ticks = 0.0;         ///< how far the client runs ahead of the server
    std::uint64_t hard_resyncs = 0;  ///< clock jumps after the first sync
    double server_input_offset_ticks = 0.0;     ///< server-reported arrival offset of our inputs (+ = early)
    int server_input_buffer_depth = 0;          ///< server-reported depth of our input queue
    int server_input_buffer_target = 0;         ///< ticks early the server asks our inputs to arrive
    double interp_delay_ticks = 0.0;            ///< current interpolation delay
    double interp_buffer_ticks = 0.0;           ///< newest buffered snapshot tick - render tick
    std::uint64_t interp_starvations = 0;       ///< times the interpolation buffer ran dry
    std::uint64_t extrapolated_frames = 0;      ///< render calls that extrapolated
    std::uint64_t held_frames = 0;              ///< render calls that held (extrapolation cap reached)
    double max_extrapolation_seen_ticks = 0.0;  ///< the furthest any render went past the newest snapshot
    std::uint64_t corrections = 0;              ///< mispredictions found on reconciliation
    std::uint64_t snaps = 0;  ///< times the drawn player snapped (offset to hide > snap_distance_m)
    double corrections_per_second = 0.0;  ///< over the last second
    double last_error_m = 0.0;            ///< prediction error of the last correction
    double max_error_m = 0.0;             ///< the largest prediction error so far
    std::uint64_t reconciliations = 0;    ///< snapshots reconciled against
    std::uint64_t reconciles_deferred =
        0;  ///< provisional snapshots not reconciled against (a server replay may still change them)
    std::uint64_t replayed_ticks = 0;      ///< ticks re-simulated while reconciling
    std::uint64_t snapshots_received = 0;  ///< snapshots accepted
    std::uint64_t snapshots_stale = 0;     ///< snapshots older than one already seen (dropped)
    std::uint64_t malformed = 0;           ///< messages from the server that failed to decode
    std::array<std::uint64_t, auth::kOpenErrorCount>
        packets_rejected{};  ///< packets that did not open (with a token), by auth::OpenError; dropped unread
    std::uint64_t snapshots_unknown_baseline = 0;  ///< snapshots naming a baseline the client no longer holds
    std::uint64_t events_received = 0;  ///< reliable messages received (the library's and the game's)
    std::uint64_t events_out_of_order =
        0;  ///< reliable messages whose sequence was not the next expected (must stay 0)
    std::uint64_t unreliable_messages_received = 0;  ///< unreliable messages received
    std::uint64_t messages_refused = 0;  ///< messages of an unknown type, over their size, or undecodable
    std::uint64_t inputs_sent = 0;       ///< input packets sent
    std::uint64_t bytes_sent = 0;        ///< payload bytes sent
    std::uint64_t bytes_received = 0;    ///< payload bytes received
    double kbps_sent = 0.0;              ///< transport's measured upstream rate, headers included
    double kbps_received = 0.0;          ///< transport's measured downstream rate, headers included
    DisconnectCode disconnect_code = DisconnectCode::none;  ///< why the session ended, once it has
    std::uint64_t connect_attempts = 0;  ///< connection attempts of the last connect() (retries included)
    std::uint64_t reconnects = 0;        ///< links lost while playing that started a reconnection
    std::uint64_t resumes = 0;           ///< reconnections that got the same seat back
    std::uint64_t seats_lost = 0;        ///< reconnections seated anew (the server no longer held the seat)
    std::uint64_t resume_resyncs = 0;   ///< resumes after which reliable messages were missing (Back::resync)
    std::uint64_t messages_resent = 0;  ///< reliable messages of ours resent after a comeback
    std::uint64_t messages_unsent = 0;  ///< ... that could not be (older than the resend log): lost
    Micros reconnect_retry_in{};        ///< reconnecting: time until the next attempt (0: one is under way)
    auth::TokenError token_error =
        auth::TokenError::none;  ///< why the server refused our token (unauthorized)
};

/// Interpolation state of one remote entity, for the overlay.
struct EntityBufferStats {
    std::uint32_t id = 0;  ///< the entity
    double depth_ticks =
        0.0;  ///< newest buffered tick this entity appears in - render tick (negative: behind)
};

/// Per-client snapshot bandwidth in kbit/s: wire bytes (payload + UDP/IP + transport headers) over the time
/// the snapshots span at `snapshot_rate_hz`.
inline double snapshot_kbps(std::uint64_t wire_bytes, std::uint64_t snapshots, int snapshot_rate_hz) {
    if (snapshots == 0 || snapshot_rate_hz <= 0) return 0.0;
    return static_cast<double>(wire_bytes) * 8.0 / 1000.0 * snapshot_rate_hz / static_cast<double>(snapshots);
}

/// Bytes of UDP/IP header counted per datagram in bandwidth figures.
inline constexpr std::size_t kUdpIpHeaderBytes = 28;

}  // namespace rwd::client_server
