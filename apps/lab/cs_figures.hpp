// Every figure one client-server lab pass measures, grouped by the checklist item it backs; JSON via
// nlohmann.
#pragma once

#include "stats_util.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lab {

/// Item 1, fixed tick: the server's tick count and how client ticks advance per render frame.
struct TickFigures {
    double expected_server_ticks = 0;             ///< simulated seconds x tick rate
    std::uint64_t server_ticks = 0;               ///< ticks the server simulated
    std::uint64_t server_ticks_dropped = 0;       ///< ticks lost to the catch-up cap
    std::uint64_t server_multi_tick_updates = 0;  ///< server updates (every 1 ms) that ran more than one tick
    std::uint64_t client_frames = 0;              ///< render frames of playing clients
    std::uint64_t frames_without_tick = 0;        ///< frames that ran no tick
    std::uint64_t frames_with_one_tick = 0;       ///< frames that ran exactly one
    std::uint64_t frames_with_jump =
        0;  ///< frames whose client tick moved by more than one or backwards (no resync)
    std::uint64_t frames_with_resync = 0;  ///< frames in which the clock hard-resynced (ticks jump by design)
    double mean_fps = 0;                   ///< measured client frame rate
    double client_tick_rate_min_hz = 0;    ///< slowest client tick rate over the measured half
    double client_tick_rate_max_hz = 0;    ///< fastest client tick rate over the measured half
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TickFigures, expected_server_ticks, server_ticks, server_ticks_dropped,
                                   server_multi_tick_updates, client_frames, frames_without_tick,
                                   frames_with_one_tick, frames_with_jump, frames_with_resync, mean_fps,
                                   client_tick_rate_min_hz, client_tick_rate_max_hz)

/// Item 2, clock sync: the server-reported input arrival offset over the second half of the run.
struct ClockFigures {
    double target_offset_ticks = 0;  ///< what clock sync aims for (mean of the server's per-client targets)
    Dist offset_ticks;               ///< server-side arrival offset samples (every 100 ms, all clients)
    Dist offset_error_ticks;         ///< |offset - that client's target| of those samples
    std::uint64_t hard_resyncs = 0;  ///< clock jumps after the first sync, all clients
    Dist lead_ticks;                 ///< how far clients ran ahead of the server
    Dist rtt_ms;                     ///< clients' RTT estimates
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ClockFigures, target_offset_ticks, offset_ticks, offset_error_ticks,
                                   hard_resyncs, lead_ticks, rtt_ms)

/// A correction this many ticks or fewer after a tick on which the server repeated the player's input (its
/// own input came late or never) counts as following a repeated input.
inline constexpr int kRepeatWindowTicks = 16;

/// Items 3 and 9: reconciliation outcomes of the local player's prediction.
struct PredictionFigures {
    std::uint64_t reconciliations = 0;       ///< snapshots reconciled against
    std::uint64_t replayed_ticks = 0;        ///< ticks re-simulated
    std::uint64_t corrections = 0;           ///< reconciliations whose prediction differed in any field
    std::uint64_t position_corrections = 0;  ///< ... of which the position differed (visible)
    std::uint64_t movement_only = 0;  ///< corrections with only movement fields differing (no damage/death)
    std::uint64_t by_others =
        0;                  ///< corrections another player explains: damage, death, or a body in contact
    std::uint64_t own = 0;  ///< corrections nobody else explains (own input or a forked step)
    std::uint64_t own_visible = 0;  ///< ... of which the position error is at least one pixel
    std::uint64_t own_visible_after_repeat =
        0;  ///< ... of those, corrections within kRepeatWindowTicks after the server repeated its input
    double own_visible_per_player_minute = 0;     ///< own_visible / client_minutes of the pass
    Dist own_error_m;                             ///< position error of those own corrections
    Dist error_m;                                 ///< position error of every correction, metres
    Dist movement_only_error_m;                   ///< position error of movement-only corrections
    Dist reconcile_error_m;                       ///< position error over every reconciliation (0 when right)
    double px_per_m = 32;                         ///< the pixel scale used for "sub-pixel"
    std::map<std::string, std::uint64_t> fields;  ///< corrections per differing field
    // item 9
    double snap_threshold_m = 0;                 ///< corrections needing a view offset above this snap
    std::uint64_t smoothed = 0;                  ///< corrections smoothed
    std::uint64_t snapped = 0;                   ///< corrections snapped
    std::uint64_t snapped_below_threshold = 0;   ///< must be 0
    std::uint64_t smoothed_above_threshold = 0;  ///< must be 0
    double max_drawn_step_m =
        0;  ///< largest frame-to-frame move of the drawn own player beyond the prediction's own motion
    double max_settled_offset_m =
        0;  ///< largest drawn - predicted distance once the offset is < 1 % of snap_distance_m
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PredictionFigures, reconciliations, replayed_ticks, corrections,
                                   position_corrections, movement_only, by_others, own, own_visible,
                                   own_visible_after_repeat, own_visible_per_player_minute, own_error_m,
                                   error_m, movement_only_error_m, reconcile_error_m, px_per_m, fields,
                                   snap_threshold_m, smoothed, snapped, snapped_below_threshold,
                                   smoothed_above_threshold, max_drawn_step_m, max_settled_offset_m)

/// Item 3 under the scenario: how the server's input buffer met the bot clients' inputs (whole pass).
struct InputFigures {
    std::uint64_t ticks_simulated = 0;  ///< client ticks the server simulated: applied + repeated
    std::uint64_t applied = 0;          ///< ... with the client's own input
    std::uint64_t repeated = 0;         ///< ... with its last input repeated (late or lost)
    std::uint64_t late = 0;             ///< inputs whose first copy arrived after their tick was simulated
    double late_share = 0;              ///< late / ticks_simulated: inputs that arrived after their tick
    double repeated_share = 0;          ///< repeated / ticks_simulated
    std::uint64_t replayed = 0;         ///< late inputs the server applied after all by a replay
    std::uint64_t replay_refused = 0;   ///< late inputs within the window refused by the replay budget
    std::uint64_t replays = 0;          ///< server replays committed (whole server)
    std::uint64_t replays_aborted = 0;  ///< ... dropped because they changed an event already sent
    std::uint64_t replayed_ticks = 0;   ///< ticks the server re-simulated for them
    Dist buffer_depth_ticks;            ///< inputs waiting in the buffer, per client every 100 ms (2nd half)
    Dist buffer_target_ticks;           ///< the server's (adaptive) target for each client, same samples
    double added_latency_ms = 0;        ///< mean buffer depth x tick: what the buffer adds to input latency
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(InputFigures, ticks_simulated, applied, repeated, late, late_share,
                                   repeated_share, replayed, replay_refused, replays, replays_aborted,
                                   replayed_ticks, buffer_depth_ticks, buffer_target_ticks, added_latency_ms)

/// End-to-end latency: what each buffer costs the player (2nd half of the pass).
struct LatencyFigures {
    Dist input_to_apply_ms;  ///< client ran a tick with its input -> the server simulated that tick with it
    Dist view_age_ms;        ///< at each render frame: now - when the server simulated the remote state drawn
    double interp_delay_ms = 0;  ///< mean interpolation delay (part of the view age)
    double rtt_ms = 0;           ///< median RTT estimate of the clients
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LatencyFigures, input_to_apply_ms, view_age_ms, interp_delay_ms, rtt_ms)

/// Item 4: the client's prediction path and the server path compared tick by tick (own entity checksum).
struct SharedStepFigures {
    std::uint64_t ticks_compared = 0;       ///< client ticks whose first prediction met the server's tick
    std::uint64_t mismatches = 0;           ///< ... whose own-entity checksum differed
    std::int64_t first_mismatch_tick = -1;  ///< the first differing tick, or -1
    std::uint64_t inputs_repeated = 0;      ///< server-side: ticks with a missing input (explains a mismatch)
    std::uint64_t inputs_late = 0;          ///< server-side: inputs that came too late
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SharedStepFigures, ticks_compared, mismatches, first_mismatch_tick,
                                   inputs_repeated, inputs_late)

/// Item 5: remote-entity interpolation.
struct InterpFigures {
    double client_minutes = 0;              ///< playing time summed over clients
    std::uint64_t frames = 0;               ///< render frames sampled
    std::uint64_t extrapolated_frames = 0;  ///< frames drawn past the newest snapshot
    std::uint64_t held_frames = 0;          ///< frames frozen at the extrapolation cap
    std::uint64_t starvations = 0;          ///< times a buffer ran dry
    double starvations_per_client_minute = 0;
    double extrapolated_share = 0;       ///< extrapolated / frames
    double held_share = 0;               ///< held / frames
    double max_extrapolation_ticks = 0;  ///< furthest past the newest snapshot any client drew
    double extrapolation_cap_ticks = 0;  ///< the configured cap
    Dist delay_ticks;                    ///< interpolation delay samples
    Dist buffer_ticks;                   ///< buffered ticks ahead of the render time
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(InterpFigures, client_minutes, frames, extrapolated_frames, held_frames,
                                   starvations, starvations_per_client_minute, extrapolated_share, held_share,
                                   max_extrapolation_ticks, extrapolation_cap_ticks, delay_ticks,
                                   buffer_ticks)

/// Item 6: the adversarial probe client.
struct AuthorityFigures {
    bool probe_seated = false;               ///< the probe got a seat
    std::uint64_t bad_packets_sent = 0;      ///< input packets with out-of-range fields (axis -128, count 7)
    std::uint64_t malformed_counted = 0;     ///< the server's malformed count for the probe
    std::uint64_t violations = 0;            ///< sanitize() violations counted for the probe
    std::uint64_t flood_packets_sent = 0;    ///< packets claiming several inputs per tick
    std::uint64_t inputs_overflow = 0;       ///< inputs the server dropped from the flood
    std::uint64_t inputs_rate_limited = 0;   ///< packets the server rate-limited
    bool flagged = false;                    ///< the server flagged the probe
    double probe_max_speed = 0;              ///< fastest the probe moved on the server, units/tick
    bool probe_kicked_cheating = false;      ///< the server kicked the probe for a sustained flood
    double top_speed = 0;                    ///< the game's walking top speed, units/tick
    std::uint64_t probe_ticks_observed = 0;  ///< server ticks with the probe alive
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(AuthorityFigures, probe_seated, bad_packets_sent, malformed_counted,
                                   violations, flood_packets_sent, inputs_overflow, inputs_rate_limited,
                                   flagged, probe_max_speed, top_speed, probe_ticks_observed,
                                   probe_kicked_cheating)

/// How old a client's copy of each entity inside its area of interest is when a frame is drawn
/// (Client::newest_snapshot_value_ticks()): behind the newest snapshot it holds (what the byte budget costs:
/// 0 when nothing is left out), and since the snapshot that carried it arrived (which adds the gaps of loss
/// and jitter).
struct StalenessFigures {
    double snapshot_interval_ms = 0;  ///< 1000 / snapshot rate
    Dist behind_newest_ms;  ///< newest snapshot's tick - the copy's tick, in ms, per entity per frame
    Dist since_arrival_ms;  ///< frame time - arrival of the snapshot the copy came in, in ms
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StalenessFigures, snapshot_interval_ms, behind_newest_ms, since_arrival_ms)

/// Item 7: state keeps flowing while reliable events arrive complete and in order.
struct ChannelFigures {
    double loss = 0;                 ///< configured loss per direction (random + bursts)
    Dist snapshot_gap_ms;            ///< time between snapshot arrivals, all clients
    double max_snapshot_gap_ms = 0;  ///< the longest gap any client saw
    std::uint64_t chats_sent = 0;    ///< chat lines sent by clients (each becomes an event to everyone)
    double drain_ms = 0;  ///< events sent in the pass's last drain_ms may still be in flight: not counted
    std::uint64_t events_sent = 0;  ///< reliable events the server sent to clients before the drain window
    std::uint64_t events_received = 0;        ///< ... that clients received once, in sequence, by the end
    std::uint64_t events_out_of_order = 0;    ///< sequence gaps or repeats, client-counted (must be 0)
    std::uint64_t events_content_errors = 0;  ///< chats whose text did not match what was sent
    std::uint64_t deaths_on_server = 0;       ///< deaths the server's game reported before the drain window
    std::uint64_t death_receivers = 0;        ///< clients checked (playing and connected at the end)
    std::uint64_t deaths_expected = 0;        ///< deaths sent to those clients while seated, summed over them
    std::uint64_t deaths_delivered =
        0;                             ///< ... received in the server's order with the same victim and killer
    std::uint64_t deaths_missing = 0;  ///< ... never received
    std::uint64_t deaths_extra = 0;    ///< received deaths beyond what the server reported
    std::uint64_t deaths_wrong = 0;    ///< received in another order, or with another tick, victim or killer
    std::uint64_t deaths_sent = 0;     ///< deaths the server sent before the drain window (send order)
    std::uint64_t deaths_sent_late =
        0;  ///< ... of them after a later tick's death (found by a late-input replay)
    std::uint64_t deaths_unsent = 0;     ///< deaths of the final ticks the server never sent (must be 0)
    std::uint64_t deaths_not_final = 0;  ///< deaths sent that the final ticks do not hold (must be 0)
    /// Deaths sent out of tick order or late other than by a late-input replay within its window (must be 0).
    std::uint64_t deaths_out_of_turn = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ChannelFigures, loss, snapshot_gap_ms, max_snapshot_gap_ms, chats_sent,
                                   drain_ms, events_sent, events_received, events_out_of_order,
                                   events_content_errors, deaths_on_server, death_receivers, deaths_expected,
                                   deaths_delivered, deaths_missing, deaths_extra, deaths_wrong, deaths_sent,
                                   deaths_sent_late, deaths_unsent, deaths_not_final, deaths_out_of_turn)

/// Item 8: lag compensation, shooter's screen versus server.
struct ShotFigures {
    std::uint64_t rifle_shots = 0;             ///< rifle shots the clients predicted
    std::uint64_t on_screen_hits = 0;          ///< ... whose ray met a rendered player
    std::uint64_t registered = 0;              ///< on-screen hits that damaged that player on the server
    std::uint64_t not_registered = 0;          ///< on-screen hits the server did not count
    std::uint64_t target_dead_on_server = 0;   ///< ... of which the target was already dead on the server
    std::uint64_t shooter_dead_on_server = 0;  ///< ... of which the shooter was already dead on the server
    std::uint64_t shooter_silent_on_server =
        0;  ///< ... of which the server's shooter, alive, did not fire that tick
    std::uint64_t within_cap_judged = 0;      ///< judged on-screen hits whose rewind was within the cap
    std::uint64_t within_cap_registered = 0;  ///< ... that registered
    double within_cap_share = 0;              ///< within_cap_registered / within_cap_judged
    std::uint64_t beyond_cap_judged = 0;      ///< judged on-screen hits that needed more rewind than the cap
    std::uint64_t beyond_cap_registered =
        0;  ///< ... that registered all the same (target close to where it was)
    std::uint64_t ambiguous =
        0;  ///< several on-screen hits on one target in one tick, damage too low to tell
    std::uint64_t unresolved = 0;           ///< shots whose tick the server never ran while the lab watched
    double registered_share = 0;            ///< registered / (registered + not_registered)
    Dist rewind_ms;                         ///< input tick - view time of the shots, ms
    std::uint64_t server_shots = 0;         ///< shots the server lag-compensated
    std::uint64_t server_clamped = 0;       ///< ... whose view time the server clamped, any reason (bots)
    std::uint64_t server_beyond_limit = 0;  ///< ... because it was older than the client's rewind limit
    std::uint64_t server_future_view = 0;   ///< ... because it claimed a view ahead of the server
    double beyond_limit_share = 0;          ///< server_beyond_limit / server_shots
    Dist rewind_limit_ms;                   ///< the server's rewind limit per client, every 100 ms (2nd half)
    std::uint64_t probe_stale_shots = 0;    ///< probe shots claiming a view 1 s old
    std::uint64_t probe_clamped = 0;        ///< ... that the server clamped to the cap
    std::uint64_t probe_beyond_limit = 0;   ///< ... counted as older than the probe's rewind limit
    double max_rewind_ms = 0;               ///< the fixed cap (--max-rewind-ms); -1: per client
    double max_compensated_rtt_ms = 0;      ///< RTT compensated in full (--max-compensated-rtt-ms)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ShotFigures, rifle_shots, on_screen_hits, registered, not_registered,
                                   target_dead_on_server, shooter_dead_on_server, shooter_silent_on_server,
                                   within_cap_judged, within_cap_registered, within_cap_share,
                                   beyond_cap_judged, beyond_cap_registered, ambiguous, unresolved,
                                   registered_share, rewind_ms, server_shots, server_clamped,
                                   server_beyond_limit, server_future_view, beyond_limit_share,
                                   rewind_limit_ms, probe_stale_shots, probe_clamped, probe_beyond_limit,
                                   max_rewind_ms, max_compensated_rtt_ms)

/// Bandwidth per client (context for issue 5).
struct BandwidthFigures {
    Dist kbps_down;  ///< per client, transport's measured rate server -> client (samples; its datagrams
                     ///< with their transport header, without the 28 B UDP/IP header)
    Dist kbps_up;    ///< client -> server
    double mean_snapshot_bytes = 0;  ///< payload bytes per snapshot
    std::uint64_t max_snapshot_bytes = 0;
    // Snapshot traffic (bandwidth_grades.hpp): with 28 B UDP/IP and the transport header per datagram.
    Dist snapshot_kbps;                     ///< per client, mean snapshot rate over the pass
    double wire_bytes_per_snapshot = 0;     ///< datagram bytes per snapshot, headers included
    double payload_bytes_per_snapshot = 0;  ///< snapshot message bytes
    double unpredicted_payload_bytes_per_snapshot =
        0;  ///< the same snapshots with entities bit-packed against the plain baseline (the previous codec)
    double bits_per_entity = 0;        ///< entity-list bits per relevant entity
    double relevant_per_snapshot = 0;  ///< entities relevant to a client (area of interest)
    double baseline_share = 0;         ///< snapshots delta-coded against an acknowledged baseline
    double left_out_share = 0;         ///< relevant entities the byte budget postponed
    double budget_limited_share = 0;   ///< snapshots in which the budget postponed something
    double full_wire_bytes_per_snapshot =
        0;                     ///< a full quantized snapshot (every entity, no baseline), same headers
    double ratio_vs_full = 0;  ///< wire bytes per snapshot / full
    std::uint64_t interest_checks = 0;       ///< client snapshots compared with the server's world
    std::uint64_t outside_aoi_seen = 0;      ///< entities beyond the radius + margin in those checks
    std::uint64_t outside_aoi_received = 0;  ///< ... that the client had anyway (must be 0)
    std::uint64_t inside_aoi_seen = 0;       ///< entities within the radius - margin
    std::uint64_t inside_aoi_missing = 0;    ///< ... that the client lacked (budget deferrals)
    double events_per_client_s = 0;          ///< reliable events each client received per second
    double chats_per_client_s = 0;           ///< of them chat lines (every player's goes to every client)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(BandwidthFigures, events_per_client_s, chats_per_client_s, kbps_down,
                                   kbps_up, mean_snapshot_bytes, max_snapshot_bytes, snapshot_kbps,
                                   wire_bytes_per_snapshot, payload_bytes_per_snapshot,
                                   unpredicted_payload_bytes_per_snapshot, bits_per_entity,
                                   relevant_per_snapshot, baseline_share, left_out_share,
                                   budget_limited_share, full_wire_bytes_per_snapshot, ratio_vs_full,
                                   interest_checks, outside_aoi_seen, outside_aoi_received, inside_aoi_seen,
                                   inside_aoi_missing)

/// One sample of the per-client overlay figures, for the charts.
struct SeriesPoint {
    double t = 0;                ///< seconds since the match started
    std::vector<double> rtt_ms;  ///< per client
    std::vector<double> interp_delay_ticks;
    std::vector<double> buffer_ticks;
    std::vector<double> kbps_down;
    std::vector<double> kbps_up;
    std::vector<double> corrections_per_s;
    std::vector<double> input_offset_ticks;  ///< server-side, per client slot
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SeriesPoint, t, rtt_ms, interp_delay_ticks, buffer_ticks, kbps_down,
                                   kbps_up, corrections_per_s, input_offset_ticks)

/// One correction, for the charts.
struct CorrectionPoint {
    double t = 0;        ///< seconds since the match started
    int client = 0;      ///< which client
    double error_m = 0;  ///< position error
    bool snapped = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CorrectionPoint, t, client, error_m, snapped)

/// Everything one pass measured.
/// The world recording of a pass (--save-replay), read back and played.
struct RecordingFigures {
    std::string path;                       ///< where it was written ("" when none was asked for)
    std::string error;                      ///< why it could not be written or read ("" when it was)
    std::uint64_t ticks = 0;                ///< ticks recorded
    std::uint64_t messages = 0;             ///< messages recorded
    std::uint64_t bytes = 0;                ///< file size
    std::uint64_t late_replays = 0;         ///< replayed ticks that came after they were written
    std::uint64_t worlds_compared = 0;      ///< played ticks compared with the server's final world
    std::uint64_t worlds_differing = 0;     ///< of those, different
    std::uint64_t checksums_verified = 0;   ///< ticks checked against their recorded checksum
    std::uint64_t checksum_mismatches = 0;  ///< of those, different
    std::uint64_t seeks = 0;                ///< seeks to seeded ticks
    std::uint64_t seek_mismatches = 0;      ///< of those, landing elsewhere than the straight play
    double seek_ticks_mean = 0;             ///< ticks applied per seek
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RecordingFigures, path, error, ticks, messages, bytes, late_replays,
                                   worlds_compared, worlds_differing, checksums_verified, checksum_mismatches,
                                   seeks, seek_mismatches, seek_ticks_mean)

/// The transport under the pass (--transport): UDP datagrams, or a WebSocket's TCP-like stream per client.
struct TransportFigures {
    std::string transport = "udp";  ///< udp or websocket
    double wire_kbps_down = 0;      ///< server -> client per client, IP headers included, retransmissions too
    double wire_kbps_up = 0;        ///< client -> server per client, likewise
    std::uint64_t replaced_down = 0;  ///< unreliable messages (snapshots) the server replaced by a newer one
    std::uint64_t replaced_up = 0;    ///< unreliable messages (inputs) the clients replaced
    std::uint64_t segments_down = 0;  ///< stream segments server -> clients (websocket)
    std::uint64_t retransmissions_down = 0;  ///< ... sent again after a loss
    std::uint64_t retransmissions_up = 0;    ///< client -> server segments sent again
    std::uint64_t held_back_down =
        0;                        ///< server -> client segments that arrived and waited for an earlier one
    double max_held_back_ms = 0;  ///< the longest such wait, either direction
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TransportFigures, transport, wire_kbps_down, wire_kbps_up, replaced_down,
                                   replaced_up, segments_down, retransmissions_down, retransmissions_up,
                                   held_back_down, max_held_back_ms)

struct PassFigures {
    std::string name;               ///< main, zero_latency, shared_step, loss_10
    double simulated_s = 0;         ///< virtual seconds run
    double wall_s = 0;              ///< real seconds it took
    int players = 0;                ///< bot clients
    int playing = 0;                ///< clients that reached the playing phase
    std::uint64_t disconnects = 0;  ///< clients that were dropped
    TickFigures tick;
    ClockFigures clock;
    PredictionFigures prediction;
    InputFigures inputs;
    LatencyFigures latency;
    SharedStepFigures shared;
    InterpFigures interp;
    AuthorityFigures authority;
    ChannelFigures channel;
    ShotFigures shots;
    BandwidthFigures bandwidth;
    StalenessFigures staleness;
    std::vector<SeriesPoint> series;           ///< overlay samples (main pass only)
    std::vector<CorrectionPoint> corrections;  ///< every correction (main pass only)
    RecordingFigures recording;                ///< the world recording (main pass, --save-replay)
    TransportFigures transport;                ///< what the transport did (main pass and the others)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PassFigures, name, simulated_s, wall_s, players, playing, disconnects,
                                   tick, clock, prediction, inputs, latency, shared, interp, authority,
                                   channel, shots, bandwidth, staleness, series, corrections, recording,
                                   transport)

/// The four passes the client-server model runs.
struct CsFigures {
    PassFigures main;          ///< the scenario as given
    PassFigures zero_latency;  ///< same seed on a perfect link
    PassFigures shared_step;   ///< one scripted player on the scenario's link
    PassFigures loss_10;       ///< the scenario's latency with 10 % loss each way
    PassFigures
        bandwidth_64;  ///< the scenario's links with 64 players (snapshot bandwidth, interest management)
};

}  // namespace lab
