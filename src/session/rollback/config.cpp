/// Rollback config validation (P2P, spectator, sync test) and the readable names of events and advance
/// results.
#include <rewind/session/rollback/spectator_config.hpp>
#include <rewind/session/rollback/sync_test_config.hpp>
#include <rewind/session/rollback/types.hpp>

namespace rwd::rollback {

Status P2PConfig::validate() const {
    if (num_players < 1 || num_players > kMaxSessionPlayers) {
        return Error{Errc::invalid_config, "num_players must be 1..8"};
    }
    if (input_delay < 0 || input_delay > kMaxInputDelay)
        return Error{Errc::invalid_config, "input_delay must be 0..30"};
    if (max_input_delay < input_delay || max_input_delay > kMaxInputDelay)
        return Error{Errc::invalid_config, "max_input_delay must be input_delay..30"};
    if (max_prediction < 0 || max_prediction > kMaxPredictionWindow) {
        return Error{Errc::invalid_config, "max_prediction must be 0..32"};
    }
    if (checksum_interval < 0) return Error{Errc::invalid_config, "checksum_interval must be >= 0"};
    if (sync_roundtrips < 1 || sync_roundtrips > 100)
        return Error{Errc::invalid_config, "sync_roundtrips must be 1..100"};
    if (sync_retry <= Micros{0} || keepalive_interval <= Micros{0} || resend_interval <= Micros{0} ||
        quality_interval <= Micros{0} || frame_duration <= Micros{0}) {
        return Error{Errc::invalid_config, "intervals must be positive"};
    }
    if (disconnect_notice <= Micros{0} || disconnect_timeout < disconnect_notice) {
        return Error{Errc::invalid_config, "need 0 < disconnect_notice <= disconnect_timeout"};
    }
    if (!(time_sync_gain >= 0.0) || !(time_sync_max_adjust >= 0.0 && time_sync_max_adjust < 0.5) ||
        !(time_sync_deadband >= 0.0)) {
        return Error{Errc::invalid_config, "time sync gain/deadband must be >= 0, max_adjust in [0, 0.5)"};
    }
    if (stall_frames_ahead < 0) return Error{Errc::invalid_config, "stall_frames_ahead must be >= 0"};
    if (max_spectators < 0 || max_spectators > 64)
        return Error{Errc::invalid_config, "max_spectators must be 0..64"};
    // The window must outlast the prediction window: a late disconnect can rewrite that many confirmed
    // frames.
    if (spectator_history_frames < max_prediction + 2 || spectator_history_frames > 100'000'000) {
        return Error{Errc::invalid_config, "spectator_history_frames must be max_prediction+2 .. 100000000"};
    }
    // The peers' input rings (256 frames) must hold the joiner's first needed frame until its ack arrives.
    if (join_margin_frames < 0 || join_margin_frames > 60)
        return Error{Errc::invalid_config, "join_margin_frames must be 0..60"};
    if (join_timeout <= Micros{0}) return Error{Errc::invalid_config, "join_timeout must be positive"};
    if (join_catch_up_frames < 1 || join_catch_up_frames > 1000)
        return Error{Errc::invalid_config, "join_catch_up_frames must be 1..1000"};
    return {};
}

std::string_view event_name(SessionEvent::Type type) {
    using T = SessionEvent::Type;
    switch (type) {
        case T::synchronizing:
            return "synchronizing";
        case T::synchronized:
            return "synchronized";
        case T::running:
            return "running";
        case T::interrupted:
            return "interrupted";
        case T::resumed:
            return "resumed";
        case T::disconnected:
            return "disconnected";
        case T::time_sync:
            return "time_sync";
        case T::desync_detected:
            return "desync_detected";
        case T::spectator_joined:
            return "spectator_joined";
        case T::spectator_left:
            return "spectator_left";
        case T::input_delay:
            return "input_delay";
        case T::player_joined:
            return "player_joined";
        case T::joined:
            return "joined";
        case T::rewritten:
            return "rewritten";
    }
    return "unknown";
}

std::string_view leave_reason_name(LeaveReason reason) {
    switch (reason) {
        case LeaveReason::none:
            return "none";
        case LeaveReason::left:
            return "left";
        case LeaveReason::too_far_behind:
            return "too_far_behind";
    }
    return "unknown";
}

std::string_view advance_status_name(AdvanceStatus status) {
    switch (status) {
        case AdvanceStatus::advanced:
            return "advanced";
        case AdvanceStatus::synchronizing:
            return "synchronizing";
        case AdvanceStatus::prediction_threshold:
            return "prediction_threshold";
        case AdvanceStatus::time_sync_stall:
            return "time_sync_stall";
        case AdvanceStatus::missing_local_input:
            return "missing_local_input";
        case AdvanceStatus::finished:
            return "finished";
    }
    return "unknown";
}

Status SpectatorConfig::validate() const {
    if (num_players < 1 || num_players > kMaxSessionPlayers)
        return Error{Errc::invalid_config, "num_players 1..8"};
    if (catchup_threshold < 0 || max_catchup_frames < 1 || max_catchup_frames > 1000) {
        return Error{Errc::invalid_config, "catchup_threshold >= 0, max_catchup_frames 1..1000"};
    }
    if (sync_roundtrips < 1 || disconnect_notice <= Micros{0} || disconnect_timeout < disconnect_notice ||
        sync_retry <= Micros{0} || keepalive_interval <= Micros{0} || ack_interval <= Micros{0} ||
        quality_interval <= Micros{0}) {
        return Error{Errc::invalid_config, "bad handshake or timeout values"};
    }
    return {};
}

Status SyncTestConfig::validate() const {
    if (num_players < 1 || num_players > kMaxSessionPlayers)
        return Error{Errc::invalid_config, "num_players 1..8"};
    if (check_distance < 1 || check_distance > kMaxPredictionWindow) {
        return Error{Errc::invalid_config, "check_distance must be 1..32"};
    }
    return {};
}

}  // namespace rwd::rollback
