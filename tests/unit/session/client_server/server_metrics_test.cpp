// Server::write_metrics: the Prometheus page follows the server's own counters (seats, refusals by reason,
// ticks and the tick-time histogram, snapshot bytes) and every family is well formed.
#include "toy_harness.hpp"

#include <rewind/core/metrics_text.hpp>

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace toy {
namespace {

/// The value of the sample line that starts with `series` (name and labels), or -1 if there is none.
double sample(const std::string& page, const std::string& series) {
    std::istringstream lines(page);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
    return -1.0;
}

/// A stats clock that moves 300 µs per read: every tick then "takes" a whole number of reads.
Micros fake_clock(void* user) {
    auto* t = static_cast<Micros*>(user);
    *t += Micros{300};
    return *t;
}

TEST(ServerMetrics, PageFollowsTheServersCounters) {
    const std::uint64_t seed = 31;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Micros stats_time{};
    cs::ServerConfig sc;
    sc.max_clients = 2;
    sc.stats_clock = cs::StatsClock{&fake_clock, &stats_time};
    Match<> m(seed, link(20), sc);
    m.connect_client();
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    const int third = m.connect_client();  // no seat left: refused with server_full
    m.run(Micros{1'000'000});
    EXPECT_EQ(m.client(third).phase(), cs::ClientPhase::disconnected);
    m.client(0).disconnect(m.now);
    m.run(Micros{500'000});

    rwd::MetricsText page;
    m.server->write_metrics(page);
    const std::string& t = page.text();
    EXPECT_EQ(page.invalid(), 0) << t;
    const cs::ServerStats& st = m.server->stats();
    EXPECT_EQ(sample(t, "rewind_clients_seated"), 1.0) << t;
    EXPECT_EQ(sample(t, "rewind_connects_total"), 2.0);
    EXPECT_EQ(sample(t, "rewind_disconnects_total"), 1.0);
    EXPECT_EQ(sample(t, "rewind_refusals_total{reason=\"server_full\"}"), 1.0);
    EXPECT_EQ(sample(t, "rewind_refusals_total{reason=\"bad_protocol\"}"), 0.0);
    EXPECT_EQ(sample(t, "rewind_token_refusals_total{reason=\"expired\"}"), 0.0);
    EXPECT_EQ(sample(t, "rewind_kicks_total{reason=\"garbage\"}"), 0.0);
    EXPECT_EQ(sample(t, "rewind_ticks_total"), static_cast<double>(st.ticks));
    EXPECT_GT(st.ticks, 100u);
    EXPECT_EQ(sample(t, "rewind_snapshots_sent_total"), static_cast<double>(st.snapshots_sent));
    EXPECT_EQ(sample(t, "rewind_snapshot_sent_bytes_total"), static_cast<double>(st.snapshot_bytes));
    EXPECT_GT(st.snapshot_bytes, 0u);
    // Every tick is in the histogram; each took at least one 300 µs read, so none is at or under 250 µs.
    EXPECT_EQ(sample(t, "rewind_tick_duration_seconds_count"), static_cast<double>(st.ticks));
    EXPECT_EQ(sample(t, "rewind_tick_duration_seconds_bucket{le=\"+Inf\"}"), static_cast<double>(st.ticks));
    EXPECT_EQ(sample(t, "rewind_tick_duration_seconds_bucket{le=\"0.00025\"}"), 0.0);
    EXPECT_GT(sample(t, "rewind_tick_duration_seconds_bucket{le=\"0.0005\"}"), 0.0);
    EXPECT_NEAR(sample(t, "rewind_tick_duration_seconds_sum"), st.total_tick_time.seconds(), 1e-9);
    EXPECT_GE(sample(t, "rewind_client_rtt_seconds{stat=\"max\"}"), 0.035);  // 20 ms each way
    EXPECT_NE(t.find("# TYPE rewind_shots_clamped_total counter\n"), std::string::npos);
}

TEST(ServerMetrics, ServerWideCountersKeepCountingAcrossAReusedSeat) {
    // A seat's own stats start again when a new client takes it; the page's totals are the server's and must
    // not: what the first client received stays counted.
    const std::uint64_t seed = 32;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    cs::ServerConfig sc;
    sc.max_clients = 1;
    Match<> m(seed, link(20), sc);
    const int first = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.run(Micros{1'000'000});
    ASSERT_EQ(m.client(first).slot(), 0);
    const std::uint64_t first_snapshots = m.server->client_stats(0).snapshots_sent;
    const std::uint64_t first_bytes = m.server->client_stats(0).snapshot_bytes_total;
    ASSERT_GT(first_snapshots, 20u);
    m.client(first).disconnect(m.now);
    m.run(Micros{500'000});
    const int second = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.run(Micros{500'000});
    ASSERT_EQ(m.client(second).slot(), 0);  // the same seat
    const auto& seat = m.server->client_stats(0);
    const cs::ServerStats& st = m.server->stats();
    EXPECT_LT(seat.snapshots_sent, st.snapshots_sent) << "the seat's count started again";
    EXPECT_EQ(st.connects, 2u);
    EXPECT_EQ(st.disconnects, 1u);
    EXPECT_GE(st.snapshots_sent, first_snapshots + seat.snapshots_sent);
    EXPECT_GE(st.snapshot_bytes, first_bytes + seat.snapshot_bytes_total);
    rwd::MetricsText page;
    m.server->write_metrics(page);
    const std::string& t = page.text();
    EXPECT_EQ(sample(t, "rewind_snapshots_sent_total"), static_cast<double>(st.snapshots_sent)) << t;
    EXPECT_EQ(sample(t, "rewind_snapshot_sent_bytes_total"), static_cast<double>(st.snapshot_bytes)) << t;
    EXPECT_EQ(sample(t, "rewind_connects_total"), 2.0);
    EXPECT_EQ(sample(t, "rewind_clients_seated"), 1.0);
}

}  // namespace
}  // namespace toy
