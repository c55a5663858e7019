// ServerCore::write_metrics: the server's figures as Prometheus families (counters since the start, gauges
// of the seated clients now), for a game's own /metrics page.
#include "server_core_impl.hpp"

#include <rewind/core/metrics_text.hpp>
#include <rewind/session/auth/connect_token.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace rwd::client_server {

namespace {

double u(std::uint64_t v) { return static_cast<double>(v); }

/// The value at quantile q (0..1) of sorted `v` (nearest rank); 0 when empty.
double quantile(const std::vector<double>& v, double q) {
    if (v.empty()) return 0.0;
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

/// A gauge family of how `values` spread across the seated clients: stat="min", "median", "p90" and "max"
/// (not a summary: these are today's clients, not observations accumulated since the start).
void spread(MetricsText& out, std::string_view name, std::string_view help, std::vector<double> values) {
    std::sort(values.begin(), values.end());
    out.family(name, MetricType::gauge, help);
    out.sample(values.empty() ? 0.0 : values.front(), {{"stat", "min"}});
    out.sample(quantile(values, 0.5), {{"stat", "median"}});
    out.sample(quantile(values, 0.9), {{"stat", "p90"}});
    out.sample(values.empty() ? 0.0 : values.back(), {{"stat", "max"}});
}

}  // namespace

void ServerCore::write_metrics(MetricsText& out) const {
    const Impl& m = *impl_;
    const ServerStats& st = m.stats;
    std::vector<double> rtt, depth, offset, sent, received;
    for (int i = 0; i < m.max_clients; ++i) {
        const Impl::Seat& s = m.seat(i);
        if (s.phase != Impl::Phase::seated) continue;
        rtt.push_back(m.transport.stats(s.peer).rtt.seconds());
        depth.push_back(s.stats.input_buffer_depth);
        offset.push_back(s.stats.arrival_offset_ticks);
        sent.push_back(s.stats.kbps_sent * 1000.0 / 8.0);
        received.push_back(s.stats.kbps_received * 1000.0 / 8.0);
    }
    out.gauge("rewind_clients_seated", "Clients holding a seat.", static_cast<double>(rtt.size()));
    out.counter("rewind_connects_total", "Clients seated since the start.", u(st.connects));
    out.counter("rewind_disconnects_total", "Clients unseated since the start, for any reason.",
                u(st.disconnects));
    std::size_t held = 0;
    for (int i = 0; i < m.max_clients; ++i) held += m.seat(i).phase == Impl::Phase::held ? 1 : 0;
    out.gauge("rewind_seats_held", "Seats held for a client whose link was lost (ServerConfig::seat_grace).",
              static_cast<double>(held));
    out.family("rewind_seat_holds_total", MetricType::counter,
               "Seats held for a lost link since the start, by how the hold ended (or began).");
    out.sample(u(st.seats_held), {{"outcome", "held"}});
    out.sample(u(st.resumes), {{"outcome", "resumed"}});
    out.sample(u(st.seats_expired), {{"outcome", "expired"}});
    out.counter("rewind_resumes_refused_total",
                "Resumes that named a seat they could not prove was theirs (wrong secret or account).",
                u(st.resumes_refused));
    out.counter("rewind_messages_resent_total", "Reliable messages resent to clients that came back.",
                u(st.messages_resent));
    out.counter("rewind_resume_resyncs_total",
                "Comebacks whose missed reliable messages were no longer all held (Back::resync).",
                u(st.resume_resyncs));

    out.counter("rewind_ticks_total", "Ticks simulated.", u(st.ticks));
    out.counter("rewind_ticks_dropped_total", "Ticks skipped by the catch-up cap after a stall.",
                u(st.ticks_dropped));
    std::array<double, kTickTimeBucketMicros.size()> bounds{};
    for (std::size_t i = 0; i < bounds.size(); ++i)
        bounds[i] = static_cast<double>(kTickTimeBucketMicros[i]) / 1e6;
    out.histogram(
        "rewind_tick_duration_seconds",
        "Wall time one tick took: simulation, inputs and snapshots (needs ServerConfig::stats_clock).",
        bounds, st.tick_time_buckets, st.total_tick_time.seconds());

    out.counter("rewind_snapshots_sent_total", "Snapshots sent to all clients.", u(st.snapshots_sent));
    out.counter("rewind_snapshot_sent_bytes_total", "Snapshot payload bytes sent to all clients.",
                u(st.snapshot_bytes));
    out.counter("rewind_snapshot_overflow_total", "Snapshots cut because they exceeded the transport's size.",
                u(st.snapshot_overflow));
    out.family("rewind_client_link_bytes_per_second", MetricType::gauge,
               "The transport's recent rate with the seated clients, headers included, summed.");
    double to = 0.0, from = 0.0;
    for (const double v : sent) to += v;
    for (const double v : received) from += v;
    out.sample(to, {{"direction", "sent"}});
    out.sample(from, {{"direction", "received"}});
    spread(out, "rewind_client_rtt_seconds",
           "Round-trip time of the seated clients, as the transport measures it.", std::move(rtt));

    spread(out, "rewind_input_buffer_depth_ticks", "Inputs waiting in the seated clients' jitter buffers.",
           std::move(depth));
    spread(out, "rewind_input_arrival_offset_ticks",
           "How early the seated clients' inputs arrive (negative: late), smoothed.", std::move(offset));
    out.counter("rewind_inputs_late_total", "Inputs that arrived after their tick was simulated.",
                u(st.inputs_late));
    out.counter("rewind_inputs_repeated_total",
                "Ticks a client's input was missing and the last one was repeated: its prediction will be "
                "corrected.",
                u(st.inputs_repeated));
    out.counter("rewind_inputs_replayed_total", "Late inputs applied after all by re-simulating.",
                u(st.inputs_replayed));
    out.family("rewind_replays_total", MetricType::counter,
               "Late-input replays: committed (the world re-simulated, clients corrected) or aborted.");
    out.sample(u(st.replays), {{"outcome", "committed"}});
    out.sample(u(st.replays_aborted), {{"outcome", "aborted"}});

    out.counter("rewind_shots_total", "Ticks on which a client fired.", u(st.shots));
    out.family("rewind_shots_clamped_total", MetricType::counter,
               "Shots whose claimed view lag compensation clamped, by reason.");
    out.sample(u(st.shots_beyond_limit), {{"reason", "beyond_limit"}});
    out.sample(u(st.shots_future_view), {{"reason", "future_view"}});
    out.sample(u(st.shots_beyond_history), {{"reason", "beyond_history"}});

    out.counter("rewind_messages_malformed_total", "Messages that failed to decode, from anyone.",
                u(st.malformed));
    out.family("rewind_packets_rejected_total", MetricType::counter,
               "Sealed packets dropped before decoding because they did not open, by reason.");
    for (std::size_t e = 1; e < auth::kOpenErrorCount; ++e)
        out.sample(u(st.packets_rejected[e]),
                   {{"reason", auth::open_error_name(static_cast<auth::OpenError>(e))}});
    out.counter("rewind_messages_unexpected_total",
                "Well-formed messages of a type the server does not take.", u(st.unexpected));
    out.counter("rewind_send_failures_total", "Sends the transport refused.", u(st.send_failures));
    out.counter("rewind_events_total",
                "Messages the server sent (each counted once, however many receive it).", u(st.events));
    out.counter("rewind_client_messages_total", "Messages from clients accepted (chat included).",
                u(st.messages_received));
    out.family("rewind_client_messages_refused_total", MetricType::counter,
               "Messages from clients refused, by reason.");
    for (std::size_t r = 0; r < kMessageRefusalCount; ++r)
        out.sample(u(st.messages_refused[r]),
                   {{"reason", message_refusal_name(static_cast<MessageRefusal>(r))}});

    out.family("rewind_kicks_total", MetricType::counter,
               "Connections the server closed, by reason (timed_out includes hellos that never came).");
    for (const DisconnectCode c :
         {DisconnectCode::client_quit, DisconnectCode::server_shutdown, DisconnectCode::timed_out,
          DisconnectCode::garbage, DisconnectCode::cheating, DisconnectCode::transport})
        out.sample(u(st.kicks[static_cast<std::size_t>(c)]), {{"reason", disconnect_code_name(c)}});
    out.family("rewind_refusals_total", MetricType::counter, "Hellos refused, by reason.");
    for (const DisconnectCode c :
         {DisconnectCode::server_full, DisconnectCode::bad_protocol, DisconnectCode::unauthorized})
        out.sample(u(st.refusals[static_cast<std::size_t>(c)]), {{"reason", disconnect_code_name(c)}});
    out.family("rewind_token_refusals_total", MetricType::counter, "Connect tokens refused, by reason.");
    for (std::size_t e = 1; e < auth::kTokenErrorCount; ++e)
        out.sample(u(st.token_refusals[e]),
                   {{"reason", auth::token_error_name(static_cast<auth::TokenError>(e))}});
}

}  // namespace rwd::client_server
