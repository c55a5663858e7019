// End to end: rewind-server and 8 headless bot clients through rewind-relay at 100 ms one-way, 20 ms jitter,
// 5 % loss for 20 s; every client plays, receives snapshots, stays within the correction bounds, and
// everything exits cleanly.
#include "e2e_common.hpp"

#include <csignal>
#include <cstdio>

namespace e2e {
namespace {

constexpr int kClients = 8;
constexpr double kPlaySeconds = 20.0;
constexpr double kSnapshotRate = 30.0;

TEST(E2E, EightBotsThroughTheRelayOnTheChecklistLink) {
    const std::string dir = test_dir("relay_bots");
    const std::uint64_t seed = 1234;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " logs in " + dir);
    auto server = start_server(dir, {"--max-players", "16", "--status-interval", "2"});
    ASSERT_GT(server.port, 0);

    Process relay(
        {kRelayBin, "--listen", "0", "--server", "127.0.0.1:" + std::to_string(server.port), "--latency",
         "100", "--jitter", "20", "--loss", "5", "--seed", std::to_string(seed), "--stats-interval", "5"},
        dir + "/relay.log");
    const auto relay_line = relay.wait_for_line("event=listening", 10s);
    ASSERT_TRUE(relay_line) << relay.log();
    const int relay_port = static_cast<int>(kv_int(*relay_line, "port").value_or(0));
    ASSERT_GT(relay_port, 0);

    // Seven clients leave by --duration; the eighth runs until it is sent SIGTERM (the signal path).
    std::vector<std::unique_ptr<Process>> clients;
    for (int i = 0; i < kClients; ++i) {
        std::vector<std::string> argv{kClientBin,
                                      "--headless",
                                      "--bot",
                                      "--connect",
                                      "127.0.0.1:" + std::to_string(relay_port),
                                      "--seed",
                                      std::to_string(seed + static_cast<std::uint64_t>(i)),
                                      "--stats-interval",
                                      "5"};
        if (i + 1 < kClients) {
            argv.push_back("--duration");
            argv.push_back(std::to_string(kPlaySeconds));
        }
        clients.push_back(std::make_unique<Process>(argv, dir + "/client" + std::to_string(i) + ".log"));
    }
    for (int i = 0; i + 1 < kClients; ++i) {
        const auto code = clients[static_cast<std::size_t>(i)]->wait(
            std::chrono::milliseconds(static_cast<int>(kPlaySeconds * 1000) + 25'000));
        ASSERT_TRUE(code) << "client " << i << " did not finish";
        EXPECT_EQ(*code, 0) << clients[static_cast<std::size_t>(i)]->log();
    }
    clients.back()->signal(SIGTERM);
    const auto last_code = clients.back()->wait(10s);
    ASSERT_TRUE(last_code) << "the client ignored SIGTERM";
    EXPECT_EQ(*last_code, 0) << clients.back()->log();
    EXPECT_NE(clients.back()->log().find("reason=SIGTERM"), std::string::npos);

    std::uint64_t total_corrections = 0, total_reconciliations = 0, total_snapshots = 0, total_snaps = 0;
    double worst_error = 0.0, worst_median = 0.0, worst_p95 = 0.0;
    for (int i = 0; i < kClients; ++i) {
        SCOPED_TRACE("client " + std::to_string(i));
        const auto r = final_report(*clients[static_cast<std::size_t>(i)]);
        ASSERT_TRUE(r.is_object());
        const double played = r["played_s"].get<double>();
        const auto snapshots = r["snapshots_received"].get<std::uint64_t>();
        const auto reconciliations = r["reconciliations"].get<std::uint64_t>();
        const auto corrections = r["corrections"].get<std::uint64_t>();
        const auto snaps = r["snaps"].get<std::uint64_t>();
        EXPECT_GE(r["slot"].get<int>(), 0);
        EXPECT_GT(played, kPlaySeconds - 5.0) << "connected late or dropped early";
        // 30 snapshots a second, minus 5 % loss and a margin for scheduling on a busy machine.
        EXPECT_GE(static_cast<double>(snapshots), 0.75 * kSnapshotRate * played);
        EXPECT_GE(static_cast<double>(reconciliations), 0.70 * kSnapshotRate * played);
        // Correction bounds of the client-server checklist: mispredictions are rare (other players' pushes,
        // hits), the typical one is sub-pixel at 32 px/m, and no misprediction at an acknowledged tick is
        // large enough to snap (max_error_m). A snap is decided on the view offset, so a respawn the client
        // had predicted elsewhere snaps the drawn player too; bots die every few seconds, so a few such snaps
        // are allowed.
        EXPECT_LE(static_cast<double>(corrections), 0.15 * static_cast<double>(reconciliations));
        EXPECT_LT(r["median_error_m"].get<double>(), 1.0 / 32.0);
        EXPECT_LE(snaps, 3u);
        EXPECT_LT(r["max_error_m"].get<double>(), 2.0);
        EXPECT_EQ(r["events_out_of_order"].get<std::uint64_t>(), 0u);
        EXPECT_EQ(r["malformed"].get<std::uint64_t>(), 0u);
        EXPECT_LE(r["hard_resyncs"].get<std::uint64_t>(), 1u);
        // The relay's 100 ms each way shows in the measured RTT over the match. The client's current RTT is
        // the median of its last few pings, and the link's jitter is correlated (it drifts over seconds), so
        // at any one moment it can sit 50 ms off the mean: only its bounds are checked on it.
        EXPECT_GT(r["rtt_mean_ms"].get<double>(), 150.0);
        EXPECT_LT(r["rtt_mean_ms"].get<double>(), 400.0);
        EXPECT_GT(r["rtt_ms"].get<double>(), 100.0);
        EXPECT_LT(r["rtt_ms"].get<double>(), 400.0);
        total_corrections += corrections;
        total_reconciliations += reconciliations;
        total_snapshots += snapshots;
        total_snaps += snaps;
        worst_error = std::max(worst_error, r["max_error_m"].get<double>());
        worst_median = std::max(worst_median, r["median_error_m"].get<double>());
        worst_p95 = std::max(worst_p95, r["p95_error_m"].get<double>());
    }
    std::printf(
        "[ measured ] 8 bots via relay 100 ms/20 ms/5 %%, %.0f s: %llu snapshots, %llu corrections in %llu "
        "reconciliations (%.2f %%), %llu snaps, worst median %.4f m, worst p95 %.4f m, worst max %.4f m\n",
        kPlaySeconds, static_cast<unsigned long long>(total_snapshots),
        static_cast<unsigned long long>(total_corrections),
        static_cast<unsigned long long>(total_reconciliations),
        100.0 * static_cast<double>(total_corrections) /
            static_cast<double>(std::max<std::uint64_t>(1, total_reconciliations)),
        static_cast<unsigned long long>(total_snaps), worst_median, worst_p95, worst_error);

    server.proc->signal(SIGTERM);
    const auto server_code = server.proc->wait(10s);
    ASSERT_TRUE(server_code) << "the server ignored SIGTERM";
    EXPECT_EQ(*server_code, 0);
    const auto log = server.proc->log();
    const auto bye = server.proc->wait_for_line("event=exit", 0s);
    ASSERT_TRUE(bye) << log;
    EXPECT_EQ(kv_int(*bye, "connects").value_or(-1), kClients);
    EXPECT_EQ(kv_int(*bye, "disconnects").value_or(-1), kClients);
    EXPECT_EQ(kv_int(*bye, "timeouts").value_or(-1), 0);
    EXPECT_EQ(kv_int(*bye, "malformed").value_or(-1), 0);
    EXPECT_NE(log.find("event=stopping reason=SIGTERM"), std::string::npos);
    std::printf("[ measured ] server: %s\n", bye->c_str());

    relay.signal(SIGTERM);
    const auto relay_code = relay.wait(10s);
    ASSERT_TRUE(relay_code);
    EXPECT_EQ(*relay_code, 0);
}

}  // namespace
}  // namespace e2e
