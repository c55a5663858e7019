// JSON for the rollback/lockstep figures (--json).
#include "rb_figures.hpp"

namespace lab {

void to_json(nlohmann::json& j, const RbPeerFigures& p) {
    j = {{"index", p.index},
         {"final_frame", p.final_frame},
         {"confirmed_frame", p.confirmed_frame},
         {"frames_advanced", p.frames_advanced},
         {"frames_resimulated", p.frames_resimulated},
         {"rollbacks", p.rollbacks},
         {"rollback_depth", p.rollback_depth},
         {"max_depth", p.max_depth},
         {"resimulated_per_s", p.resimulated_per_s},
         {"resim_us_per_frame", p.resim_us_per_frame},
         {"step_us", p.step_us},
         {"save_us", p.save_us},
         {"load_us", p.load_us},
         {"max_rollback_us", p.max_rollback_us},
         {"stalls_prediction", p.stalls_prediction},
         {"stalls_time_sync", p.stalls_time_sync},
         {"time_sync_events", p.time_sync_events},
         {"time_scale_min", p.time_scale_min},
         {"time_scale_max", p.time_scale_max},
         {"frames_ahead", p.frames_ahead},
         {"checksums_compared", p.checksums_compared},
         {"desyncs", p.desyncs},
         {"malformed", p.malformed},
         {"kbps_sent", p.kbps_sent},
         {"kbps_received", p.kbps_received},
         {"ping_ms", p.ping_ms},
         {"disconnects", p.disconnects},
         {"input_delay_start", p.input_delay_start},
         {"input_delay_min", p.input_delay_min},
         {"input_delay_max", p.input_delay_max},
         {"input_delay_final", p.input_delay_final},
         {"input_delay_changes", p.input_delay_changes},
         {"advanced_share", p.advanced_share}};
}

void to_json(nlohmann::json& j, const RbDeterminism& d) {
    j = {{"frames", d.frames},
         {"pair_comparisons", d.pair_comparisons},
         {"pair_mismatches", d.pair_mismatches},
         {"first_pair_mismatch", d.first_pair_mismatch},
         {"replay_comparisons", d.replay_comparisons},
         {"replay_mismatches", d.replay_mismatches},
         {"first_replay_mismatch", d.first_replay_mismatch},
         {"input_comparisons", d.input_comparisons},
         {"input_mismatches", d.input_mismatches},
         {"missing_checksums", d.missing_checksums},
         {"desync_events", d.desync_events}};
}

void to_json(nlohmann::json& j, const RbReplayFigures& r) {
    j = {{"path", r.path},
         {"error", r.error},
         {"frames", r.frames},
         {"checksums", r.checksums},
         {"checksums_missed", r.checksums_missed},
         {"bytes", r.bytes},
         {"played_checksums", r.played_checksums},
         {"played_mismatches", r.played_mismatches},
         {"frames_compared", r.frames_compared},
         {"frames_differing", r.frames_differing},
         {"seeks", r.seeks},
         {"seek_mismatches", r.seek_mismatches},
         {"seek_frames_mean", r.seek_frames_mean}};
}

void to_json(nlohmann::json& j, const RbFigures& f) {
    nlohmann::json series = nlohmann::json::array();
    for (const RbSample& s : f.samples)
        series.push_back({{"t", s.t},
                          {"peer", s.peer},
                          {"max_depth", s.max_depth},
                          {"frames_ahead", s.frames_ahead},
                          {"time_scale", s.time_scale},
                          {"resim_per_s", s.resim_per_s}});
    j = {{"mode", f.mode},
         {"game", f.game},
         {"players", f.players},
         {"input_delay", f.input_delay},
         {"max_prediction", f.max_prediction},
         {"simulated_s", f.simulated_s},
         {"running_s", f.running_s},
         {"wall_s", f.wall_s},
         {"connect_s", f.connect_s},
         {"peers", f.peers},
         {"rollback_depth", f.rollback_depth},
         {"rollbacks", f.rollbacks},
         {"frames_resimulated", f.frames_resimulated},
         {"resimulated_per_s", f.resimulated_per_s},
         {"resim_us_per_frame", f.resim_us_per_frame},
         {"stalls_prediction", f.stalls_prediction},
         {"stalls_time_sync", f.stalls_time_sync},
         {"time_sync_events", f.time_sync_events},
         {"frames_ahead", f.frames_ahead},
         {"determinism", f.determinism},
         {"samples", series}};
    if (!f.replay.path.empty()) j["replay"] = f.replay;
}

}  // namespace lab
