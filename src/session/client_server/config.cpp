/// validate() of the client-server session configs.
#include <rewind/session/client_server/config.hpp>
#include <rewind/sync/hitbox_history.hpp>

namespace rwd::client_server {

Status ServerConfig::validate() const {
    if (tick_rate_hz < 1 || tick_rate_hz > 1000)
        return Error{Errc::invalid_config, "tick_rate_hz must be 1..1000"};
    if (snapshot_rate_hz < 10 || snapshot_rate_hz > 60)
        return Error{Errc::invalid_config, "snapshot_rate_hz must be 10..60"};
    if (snapshot_rate_hz > tick_rate_hz)
        return Error{Errc::invalid_config, "snapshot_rate_hz must not exceed tick_rate_hz"};
    if (max_clients < 0) return Error{Errc::invalid_config, "max_clients must be >= 0"};
    if (client_timeout.count <= 0) return Error{Errc::invalid_config, "client_timeout must be positive"};
    if (hello_timeout.count <= 0) return Error{Errc::invalid_config, "hello_timeout must be positive"};
    if (kick_linger.count < 0) return Error{Errc::invalid_config, "kick_linger must be >= 0"};
    if (seat_grace.count < 0 || seat_grace.count > 3'600'000'000)
        return Error{Errc::invalid_config, "seat_grace must be 0..1 hour"};
    if (resume_log_messages < 1 || resume_log_messages > 65536)
        return Error{Errc::invalid_config, "resume_log_messages must be 1..65536"};
    if (resume_log_bytes < 1024 || resume_log_bytes > (16u << 20))
        return Error{Errc::invalid_config, "resume_log_bytes must be 1 KiB..16 MiB"};
    if (max_rewind_ms < 0 || max_rewind_ms > 1000)
        return Error{Errc::invalid_config, "max_rewind_ms must be 0..1000"};
    if (input_buffer_target < 1 || input_buffer_target > 16)
        return Error{Errc::invalid_config, "input_buffer_target must be 1..16"};
    if (late_input_replay_ticks < 0 || late_input_replay_ticks > 16)
        return Error{Errc::invalid_config, "late_input_replay_ticks must be 0..16"};
    if (!(max_replayed_share > 0.0 && max_replayed_share <= 1.0))
        return Error{Errc::invalid_config, "max_replayed_share must be in (0, 1]"};
    if (input_buffer_cap < 1 || input_buffer_cap > 32)
        return Error{Errc::invalid_config, "input_buffer_cap must be 1..32"};
    if (adaptive_input_buffer) {
        if (Status st = input_buffer_tuning.validate(); !st.ok()) return st;
        if (input_buffer_tuning.max_ticks > 16)
            return Error{Errc::invalid_config,
                         "input_buffer_tuning.max_ticks must be <= 16 (the wire carries 0..16)"};
        if (input_buffer_cap < input_buffer_tuning.max_ticks + 4)
            return Error{Errc::invalid_config,
                         "input_buffer_cap must be at least input_buffer_tuning.max_ticks + 4"};
    } else if (input_buffer_cap < input_buffer_target + 4) {
        return Error{Errc::invalid_config, "input_buffer_cap must be at least input_buffer_target + 4"};
    }
    // A client's latency-based limit is also bounded by the hitbox history (kHitboxHistoryTicks: 1.07 s at 60
    // Hz, 0.53 s at 120 Hz); a shot beyond it is clamped and counted as beyond_history.
    if (rewind_limit == RewindLimitMode::client_latency) {
        sync::LagCompensationConfig lc = lag_compensation;
        lc.tick_rate_hz = tick_rate_hz;
        if (Status st = lc.validate(); !st.ok()) return st;
    }
    if (max_tick_catchup < 1 || max_tick_catchup > 1000)
        return Error{Errc::invalid_config, "max_tick_catchup must be 1..1000"};
    // The rewind cap must fit the server's hitbox history (kHitboxHistoryTicks at tick_rate_hz, less the two
    // ticks the interpolation pair at the cap needs): 1033 ms at 60 Hz, 516 ms at 120 Hz.
    const sync::HitboxHistoryConfig history{tick_rate_hz, Micros{std::int64_t{max_rewind_ms} * 1000}};
    if (!history.validate(kHitboxHistoryTicks).ok())
        return Error{Errc::invalid_config,
                     "max_rewind_ms exceeds the hitbox history (kHitboxHistoryTicks - 2 ticks)"};
    if (abusive_packets_per_window < 1 || abusive_packets_per_window > 100000)
        return Error{Errc::invalid_config, "abusive_packets_per_window must be 1..100000"};
    if (abuse_window < Micros{100'000} || abuse_window > Micros{60'000'000})
        return Error{Errc::invalid_config, "abuse_window must be 0.1..60 s"};
    if (require_token)
        if (Status s = require_token->validate(); !s.ok()) return s;
    return snapshots.validate();
}

Status ClientConfig::validate() const {
    if (tick_rate_hz < 1 || tick_rate_hz > 1000)
        return Error{Errc::invalid_config, "tick_rate_hz must be 1..1000"};
    if (max_tick_catchup < 1 || max_tick_catchup > 1000)
        return Error{Errc::invalid_config, "max_tick_catchup must be 1..1000"};
    if (smoothing_time.count <= 0) return Error{Errc::invalid_config, "smoothing_time must be positive"};
    if (!(snap_distance_m > 0.0)) return Error{Errc::invalid_config, "snap_distance_m must be > 0"};
    if (provisional_hold_ticks < 0 || provisional_hold_ticks > 120)
        return Error{Errc::invalid_config, "provisional_hold_ticks must be 0..120"};
    // Less than one snapshot interval of delay leaves nothing to interpolate toward between two snapshots.
    if (!(interp_delay_snapshots >= 1.0 && interp_delay_snapshots <= 10.0))
        return Error{Errc::invalid_config, "interp_delay_snapshots must be 1..10"};
    if (max_extrapolation_ticks < 0 || max_extrapolation_ticks > 10)
        return Error{Errc::invalid_config, "max_extrapolation_ticks must be 0..10"};
    if (correction_log_size == 0) return Error{Errc::invalid_config, "correction_log_size must be >= 1"};
    if (min_rtt_samples < 1 || min_rtt_samples > 32)
        return Error{Errc::invalid_config, "min_rtt_samples must be 1..32"};
    if (initial_extra_lead_ticks < 0 || initial_extra_lead_ticks > 30)
        return Error{Errc::invalid_config, "initial_extra_lead_ticks must be 0..30"};
    if (sync_ping_interval.count <= 0)
        return Error{Errc::invalid_config, "sync_ping_interval must be positive"};
    if (connect_timeout.count <= 0) return Error{Errc::invalid_config, "connect_timeout must be positive"};
    if (connect_retry_for.count < 0 || connect_retry_for.count > 600'000'000)
        return Error{Errc::invalid_config, "connect_retry_for must be 0..10 min"};
    if (reconnect_for.count < 0 || reconnect_for.count > 3'600'000'000)
        return Error{Errc::invalid_config, "reconnect_for must be 0..1 hour"};
    if (interruption_notice.count < 50'000 || interruption_notice.count > 10'000'000)
        return Error{Errc::invalid_config, "interruption_notice must be 50 ms..10 s"};
    if (connect_token.size() > auth::kMaxTokenBytes)
        return Error{Errc::invalid_config, "connect_token is longer than auth::kMaxTokenBytes"};
    if (!connect_token.empty() && !session_keys.usable())
        return Error{
            Errc::invalid_config,
            "a connect_token needs its session_keys (auth::ClientCredentials): neither zero nor equal"};
    sync::ClockSyncConfig c = clock_sync;
    c.tick_rate_hz = tick_rate_hz;
    return c.validate();
}

}  // namespace rwd::client_server
