// End to end: rewind-server --record writes a world recording of a match with bots and a connected client
// when it is stopped by SIGTERM; rewind-client --replay checks it headless (every tick's world against its
// checksum, seeks against a straight play) and draws it in a window; a client recorded with --record-net
// through a jittery, lossy relay re-runs exactly in rewind-lab --replay-net, and so does the server it played
// on.
#include "e2e_common.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace e2e {
namespace {

TEST(E2E, TheServersWorldRecordingPlaysBackInTheClient) {
    const std::string dir = test_dir("recording");
    SCOPED_TRACE("logs in " + dir);
    const std::string file = dir + "/match.rww";
    std::filesystem::remove(file);
    ServerProc server = start_server(dir, {"--bots", "3", "--status-interval", "0", "--record", file});
    ASSERT_GT(server.port, 0);
    Process client({kClientBin, "--connect", "127.0.0.1:" + std::to_string(server.port), "--headless",
                    "--bot", "--duration", "6", "--seed", "4"},
                   dir + "/client.log");
    const auto client_code = client.wait(30s);
    ASSERT_TRUE(client_code) << client.log();
    EXPECT_EQ(*client_code, 0) << client.log();
    server.proc->signal(SIGTERM);
    const auto saved = server.proc->wait_for_line("event=recording_saved", 15s);
    ASSERT_TRUE(saved) << server.proc->log();
    EXPECT_TRUE(server.proc->wait(15s));
    const auto ticks = kv_int(*saved, "ticks").value_or(0);
    EXPECT_GT(ticks, 300) << "about 60 ticks a second for the client's 6 s and more";
    EXPECT_GT(kv_int(*saved, "messages").value_or(0), 0);

    Process check({kClientBin, "--replay", file, "--headless"}, dir + "/check.log");
    const auto code = check.wait(60s);
    ASSERT_TRUE(code) << check.log();
    EXPECT_EQ(*code, 0) << check.log();
    const auto r = final_report(check);
    ASSERT_TRUE(r.is_object()) << check.log();
    EXPECT_EQ(r["recorded_model"], "client-server");
    EXPECT_EQ(r["ticks"].get<std::int64_t>(), ticks);
    EXPECT_EQ(r["checksums_verified"].get<std::int64_t>(), ticks);
    EXPECT_EQ(r["checksum_mismatches"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(r["seek_mismatches"].get<std::uint64_t>(), 0u);
    std::printf("[ measured ] world recording: %s\n", r.dump().c_str());

    expect_replay_window(dir, file);
}

}  // namespace
}  // namespace e2e

namespace e2e {
namespace {

TEST(E2E, ARecordedClientReRunsExactlyInTheLab) {
    const std::string dir = test_dir("net_recording");
    SCOPED_TRACE("logs in " + dir);
    const std::string file = dir + "/client.rwn", server_file = dir + "/server.rwn";
    std::filesystem::remove(file);
    std::filesystem::remove(server_file);
    ServerProc server =
        start_server(dir, {"--bots", "3", "--status-interval", "0", "--record-net", server_file});
    ASSERT_GT(server.port, 0);
    Process relay(
        {kRelayBin, "--listen", "0", "--server", "127.0.0.1:" + std::to_string(server.port), "--latency",
         "60", "--jitter", "15", "--loss", "3", "--seed", "3", "--stats-interval", "0"},
        dir + "/relay.log");
    const auto relay_line = relay.wait_for_line("event=listening", 10s);
    ASSERT_TRUE(relay_line) << relay.log();
    const int relay_port = static_cast<int>(kv_int(*relay_line, "port").value_or(0));
    Process client({kClientBin, "--connect", "127.0.0.1:" + std::to_string(relay_port), "--headless", "--bot",
                    "--duration", "8", "--seed", "5", "--record-net", file},
                   dir + "/client.log");
    const auto code = client.wait(30s);
    ASSERT_TRUE(code) << client.log();
    EXPECT_EQ(*code, 0) << client.log();
    const auto saved = client.wait_for_line("event=net_recording_saved", 1s);
    ASSERT_TRUE(saved) << client.log();
    const auto live = final_report(client);
    ASSERT_TRUE(live.is_object());

    Process lab({kLabBin, "--replay-net", file}, dir + "/lab.log");
    const auto lab_code = lab.wait(60s);
    ASSERT_TRUE(lab_code) << lab.log();
    EXPECT_EQ(*lab_code, 0) << lab.log();
    EXPECT_NE(lab.log().find("replay-net: EXACT"), std::string::npos) << lab.log();
    const std::string corrections =
        "corrections: " + std::to_string(live["corrections"].get<std::uint64_t>()) + " in the re-run";
    EXPECT_NE(lab.log().find(corrections), std::string::npos) << lab.log();
    std::printf("[ measured ] %s\n", saved->c_str());
    relay.signal(SIGTERM);
    server.proc->signal(SIGTERM);
    EXPECT_TRUE(relay.wait(10s));
    const auto server_saved = server.proc->wait_for_line("event=net_recording_saved", 15s);
    ASSERT_TRUE(server_saved) << server.proc->log();
    EXPECT_TRUE(server.proc->wait(15s));

    // The server's own recording (its bots, the relayed client, the goodbyes) re-runs exactly too.
    Process server_lab({kLabBin, "--replay-net", server_file}, dir + "/server_lab.log");
    const auto server_code = server_lab.wait(60s);
    ASSERT_TRUE(server_code) << server_lab.log();
    EXPECT_EQ(*server_code, 0) << server_lab.log();
    EXPECT_NE(server_lab.log().find("final tick and world identical"), std::string::npos) << server_lab.log();
    std::printf("[ measured ] %s\n", server_saved->c_str());
}

}  // namespace
}  // namespace e2e
