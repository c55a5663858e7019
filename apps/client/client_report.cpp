// Client figures as JSON (nlohmann) and as a key=value status line.
#include "client/client_report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace apps {

namespace cs = rwd::client_server;

const char* phase_name(cs::ClientPhase p) {
    switch (p) {
        case cs::ClientPhase::idle:
            return "idle";
        case cs::ClientPhase::connecting:
            return "connecting";
        case cs::ClientPhase::syncing:
            return "syncing";
        case cs::ClientPhase::playing:
            return "playing";
        case cs::ClientPhase::reconnecting:
            return "reconnecting";
        case cs::ClientPhase::disconnected:
            return "disconnected";
    }
    return "unknown";
}

std::string client_report_json(const NetPlayer& player, double played_s) {
    const auto& c = player.client();
    const auto& s = c.stats();
    std::vector<double> errors;
    for (const auto& r : c.corrections()) errors.push_back(r.error_m);
    std::sort(errors.begin(), errors.end());
    auto pct = [&](std::size_t p) {
        return errors.empty() ? 0.0 : errors[std::min(errors.size() - 1, errors.size() * p / 100)];
    };
    nlohmann::json j;
    j["slot"] = c.slot();
    j["phase"] = phase_name(c.phase());
    j["disconnect"] = std::string(cs::disconnect_code_name(s.disconnect_code));
    j["played_s"] = played_s;
    j["snapshots_received"] = s.snapshots_received;
    std::vector<int> seen;
    for (int slot = 0; slot < 64; ++slot)
        if ((player.players_seen() >> slot) & 1u) seen.push_back(slot);
    j["players_seen"] = seen;
    j["snapshots_stale"] = s.snapshots_stale;
    j["snapshots_unknown_baseline"] = s.snapshots_unknown_baseline;
    j["transport_messages_dropped"] = player.udp().counters().messages_dropped;
    j["transport_datagrams_ignored"] = player.udp().counters().datagrams_ignored;
    j["reconciliations"] = s.reconciliations;
    j["corrections"] = s.corrections;
    j["snaps"] = s.snaps;
    j["max_error_m"] = s.max_error_m;
    j["median_error_m"] = pct(50);
    j["p95_error_m"] = pct(95);
    j["replayed_ticks"] = s.replayed_ticks;
    j["rtt_ms"] = s.rtt.millis();
    j["rtt_mean_ms"] = player.rtt_mean_ms();
    j["jitter_ms"] = s.jitter.millis();
    j["loss"] = s.loss;
    j["hard_resyncs"] = s.hard_resyncs;
    j["interp_starvations"] = s.interp_starvations;
    j["events_received"] = s.events_received;
    j["events_out_of_order"] = s.events_out_of_order;
    j["malformed"] = s.malformed;
    j["reconnects"] = s.reconnects;
    j["resumes"] = s.resumes;
    j["seats_lost"] = s.seats_lost;
    j["resume_resyncs"] = s.resume_resyncs;
    j["encrypted"] = !player.client().config().connect_token.empty();
    for (std::size_t e = 1; e < rwd::auth::kOpenErrorCount; ++e)
        j["rejected_" + std::string(rwd::auth::open_error_name(static_cast<rwd::auth::OpenError>(e)))] =
            s.packets_rejected[e];
    j["inputs_sent"] = s.inputs_sent;
    j["kbps_sent"] = s.kbps_sent;
    j["kbps_received"] = s.kbps_received;
    return j.dump();
}

std::string client_status_kv(const NetPlayer& player) {
    const auto& c = player.client();
    const auto& s = c.stats();
    char buf[512];
    std::snprintf(
        buf, sizeof buf,
        "event=status phase=%s slot=%d tick=%u rtt_ms=%.1f loss=%.3f snapshots=%llu corrections=%llu "
        "snaps=%llu max_error_m=%.4f kbps_up=%.1f kbps_down=%.1f",
        phase_name(c.phase()), c.slot(), c.tick().value, s.rtt.millis(), s.loss,
        static_cast<unsigned long long>(s.snapshots_received), static_cast<unsigned long long>(s.corrections),
        static_cast<unsigned long long>(s.snaps), s.max_error_m, s.kbps_sent, s.kbps_received);
    return buf;
}

}  // namespace apps
