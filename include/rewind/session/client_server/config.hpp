/// ServerConfig and ClientConfig: every knob of the client-server sessions, with defaults and validate().
#pragma once

#include <rewind/core/log.hpp>
#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/auth/token_gate.hpp>
#include <rewind/session/client_server/snapshot_config.hpp>
#include <rewind/sync/clock_sync.hpp>
#include <rewind/sync/input_buffer_tuner.hpp>
#include <rewind/sync/rewind_limit.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace rwd::client_server {

/// Ticks of hitbox history the server keeps for lag compensation; max_rewind_ms must fit in it.
inline constexpr int kHitboxHistoryTicks = 64;

/// A clock the server may read to measure its own tick time (stats only; the simulation never reads it).
struct StatsClock {
    using Fn = Micros (*)(void* user);
    Fn fn = nullptr;       ///< null: tick time is not measured
    void* user = nullptr;  ///< passed back to fn
};

/// How the server bounds the view time a client's shot claims (lag compensation).
enum class RewindLimitMode : std::uint8_t {
    client_latency,  ///< per client: its measured RTT, interpolation delay, input buffer and jitter margin
    fixed_cap,       ///< one cap for every client: ServerConfig::max_rewind_ms
};

/// How the authoritative server runs.
struct ServerConfig {
    int tick_rate_hz = 60;             ///< simulation ticks per second, 1..1000
    int snapshot_rate_hz = 30;         ///< snapshots per second to each client, 10..60 and <= tick_rate_hz
    int max_clients = 0;               ///< seats offered; 0 = G::kMaxPlayers (never more)
    std::uint32_t game_id = 0;         ///< clients must present the same id
    Micros client_timeout{5'000'000};  ///< a seated client that sends no input for this long is dropped
    Micros hello_timeout{3'000'000};   ///< a connection that sends no hello for this long is dropped
    Micros kick_linger{200'000};       ///< time between sending Disconnect and closing the connection
    /// A seated client whose link is lost (the transport dropped it, or it sent nothing for client_timeout)
    /// keeps its seat this long: its player stays in the world (neutral input, or as the game's player_away
    /// hook decides) and the same client (ConnectRequest::resume with the accept's secret, or a fresh token
    /// of the same account) takes it back with its state, a full snapshot and the reliable messages it
    /// missed. A goodbye or a kick frees the seat at once. 0: every lost link frees it at once. 0..1 hour.
    Micros seat_grace{30'000'000};
    /// Reliable messages kept per seat while a grace is on, for resending on resume: at most this many, and
    /// at most resume_log_bytes of payload (the oldest go first; a resume that needs one that is gone gets a
    /// resync, Back::resync). 1..65536 and 1 KiB..16 MiB.
    std::uint32_t resume_log_messages = 1024;
    std::uint32_t resume_log_bytes = 64 * 1024;
    /// The key resume secrets are derived from (keyed BLAKE2b of the slot and a connection counter). All
    /// zero: the server draws one from the system's generator when it starts. Set it only to re-run a server
    /// exactly (a recording): secrets are numbered from 0 at each start, so a key kept across restarts would
    /// give the same secrets again.
    std::array<std::uint8_t, 32> resume_key{};
    /// How far back a client's shots are judged: its own latency (default) or one fixed cap for everyone.
    RewindLimitMode rewind_limit = RewindLimitMode::client_latency;
    /// client_latency mode: RTT compensated in full up to 250 ms, plus the client's interpolation delay (at
    /// most 150 ms), its input buffer and a jitter margin (tick_rate_hz is copied from above).
    sync::LagCompensationConfig lag_compensation{};
    int max_rewind_ms = 250;  ///< fixed_cap mode: the cap, 0..1000 and within kHitboxHistoryTicks - 2 ticks
    /// Judge a shot against the world its shooter was sent: a player who was not in the snapshot that
    /// client drew at its view time (outside its area of interest, or not yet sent after a respawn moved
    /// that area) neither takes nor blocks the shot (RewoundTargets::seen). false: every player counts.
    bool judge_shots_as_seen = true;
    /// Follow each client's measured input arrival spread (input_buffer_tuning); false: input_buffer_target.
    bool adaptive_input_buffer = true;
    sync::InputBufferTunerConfig input_buffer_tuning{};  ///< adaptive targets: 1..8 ticks, <= 0.2 % late
    int input_buffer_target = 2;  ///< the fixed target (ticks early) without adaptation, 1..16
    int input_buffer_cap = 16;  ///< inputs queued per client beyond which the excess is dropped, 1..32 and at
                                ///< least the largest target + 4
    /// A late input (its tick was played with the client's previous input repeated) that arrives within
    /// this many ticks is applied after all: the server replays the world from that tick, as long as the
    /// replay changes no event already sent. 0: a repeated input stands (no replay), 0..16.
    int late_input_replay_ticks = 8;
    /// Share of one client's ticks whose late input may be replayed (a bucket of 2 x late_input_replay_ticks
    /// tokens refilled at this rate per tick): a client sending late on purpose gains little, (0, 1].
    double max_replayed_share = 0.02;
    std::uint32_t max_malformed = 20;  ///< malformed messages from one client before it is kicked (0: never)
    std::uint32_t max_violations = 0;  ///< sanitize violations before a kick (0: count and flag only)
    /// Input packets one client may have refused in one abuse window (over the rate limit or stamped too far
    /// in the future) before that window counts as abusive; an honest client stays far below it, 1..100000.
    std::uint32_t abusive_packets_per_window = 60;
    Micros abuse_window{1'000'000};  ///< the length of one abuse window, 0.1..60 s
    std::uint32_t max_abusive_windows =
        5;                       ///< consecutive abusive windows before a kick as cheating (0: never)
    int max_tick_catchup = 8;    ///< most ticks one update() runs after a stall, 1..1000
    SnapshotConfig snapshots{};  ///< delta baselines, area of interest, priorities, byte budget
    std::optional<auth::TokenRequirement>
        require_token;         ///< set: only clients with a valid connect token get in
    StatsClock stats_clock{};  ///< optional real clock for time-per-tick stats
    Logger logger{};           ///< where connection events are logged

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// How a client runs.
struct ClientConfig {
    int tick_rate_hz = 60;      ///< must match the server's (checked against ConnectAccept)
    std::uint32_t game_id = 0;  ///< sent in the hello
    std::vector<std::uint8_t>
        connect_token;  ///< sent in the hello (from the game backend), <= auth::kMaxTokenBytes
    /// The keys that came with connect_token (auth::ClientCredentials): with a token, every packet after the
    /// hello is sealed with them, and none may be all zero then.
    auth::SessionKeys session_keys{};
    int max_tick_catchup = 8;        ///< most ticks one update() runs, 1..1000
    Micros smoothing_time{100'000};  ///< visual correction decay time constant
    double snap_distance_m = 2.0;    ///< corrections larger than this snap instead of smoothing, > 0
    /// A provisional snapshot (the server played one of our inputs as a repeat and may still replay the real
    /// one) is not reconciled to while the last one reconciled is fewer than this many ticks older; 0: every
    /// snapshot is reconciled to at once, 0..120.
    int provisional_hold_ticks = 12;
    double interp_delay_snapshots =
        2.0;  ///< interpolation delay in snapshot intervals (plus jitter), adaptive, 1..10
    int max_extrapolation_ticks = 2;  ///< after this much extrapolation, hold
    /// The local prediction drives remote players with the game's remote_input() guess (when it has that
    /// hook); false: with a default Input, standing still (the behaviour before the hook).
    bool predict_remote_inputs = true;
    std::size_t correction_log_size = 1024;  ///< corrections kept for inspection (the count goes on)
    /// One connection attempt waits this long for its transport connection, then as long again for the accept
    /// to its hello (counted from the hello, so an accept in flight is not given up on a slow link).
    Micros connect_timeout{5'000'000};
    /// An attempt that times out or loses its transport connection before the accept is retried, after a
    /// backoff (250 ms, doubling up to 4 s), as long as this much time has passed since the first attempt at
    /// most; a refusal (full, unauthorized, wrong protocol) is never retried. 0: one attempt only. 0..10 min.
    Micros connect_retry_for{20'000'000};
    /// A client that loses its link while syncing or playing, from a server that holds seats
    /// (ConnectAccept::seat_grace_s > 0), reconnects on its own (phase `reconnecting`, the same backoff) and
    /// asks for its seat back, for this long after the loss; past the server's grace it is seated anew, if
    /// there is room. 0: a lost link ends the session. 0..1 hour.
    Micros reconnect_for{60'000'000};
    /// A server silent this long while playing counts as an interrupted connection
    /// (Client::connection_interrupted()): snapshots come 30 times a second, so 1 s is ~30 lost in a row.
    /// 50 ms..10 s.
    Micros interruption_notice{1'000'000};
    int min_rtt_samples = 5;  ///< RTT samples needed before the first tick (a good first lead), 1..32
    Micros sync_ping_interval{50'000};   ///< ping spacing while syncing, before ticking starts
    int initial_extra_lead_ticks = 4;    ///< extra lead on (re)sync, eased away by clock sync, 0..30
    sync::ClockSyncConfig clock_sync{};  ///< clock sync (tick_rate_hz is copied from above;
                                         ///< target_input_offset_ticks is replaced by the server's
                                         ///< input_buffer_target from the accept)
    Logger logger{};                     ///< where connection events are logged

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

}  // namespace rwd::client_server
