// End to end: two headless rewind-client --model rollback peers through rewind-relay (50 ms, 10 ms jitter, 5
// % loss) play a 10 s arena match: both run, roll back, compare checksums, never desync, and exit cleanly;
// each saves a replay that rewind-client --replay plays back exactly, and both replays agree.
#include "e2e_common.hpp"

#include <rewind/session/rollback/replay.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace e2e {
namespace {

TEST(E2E, TwoRollbackPeersThroughTheRelayStayInSync) {
    const std::string dir = test_dir("rollback");
    SCOPED_TRACE("logs in " + dir);
    Process host(
        {kClientBin, "--model", "rollback", "--headless", "--bot", "--slot", "0", "--listen", "0", "--peer",
         "127.0.0.1:9", "--duration", "10", "--seed", "1", "--save-replay", dir + "/peer0.rwr"},
        dir + "/peer0.log");
    const auto listening = host.wait_for_line("event=rollback_listening", 10s);
    ASSERT_TRUE(listening) << host.log();
    const auto host_port = kv_int(*listening, "port").value_or(0);
    ASSERT_GT(host_port, 0);

    Process relay(
        {kRelayBin, "--listen", "0", "--server", "127.0.0.1:" + std::to_string(host_port), "--latency", "50",
         "--jitter", "10", "--loss", "5", "--seed", "7", "--stats-interval", "0"},
        dir + "/relay.log");
    const auto relay_line = relay.wait_for_line("event=listening", 10s);
    ASSERT_TRUE(relay_line) << relay.log();
    const int relay_port = static_cast<int>(kv_int(*relay_line, "port").value_or(0));

    Process guest({kClientBin, "--model", "rollback", "--headless", "--bot", "--slot", "1", "--listen", "0",
                   "--peer", "127.0.0.1:" + std::to_string(relay_port), "--duration", "10", "--seed", "2",
                   "--save-replay", dir + "/peer1.rwr"},
                  dir + "/peer1.log");
    const auto host_code = host.wait(40s);
    const auto guest_code = guest.wait(40s);
    ASSERT_TRUE(host_code && guest_code) << "a peer did not finish";
    EXPECT_EQ(*host_code, 0) << host.log();
    EXPECT_EQ(*guest_code, 0) << guest.log();

    std::uint64_t rollbacks = 0;
    for (const Process* p : {&host, &guest}) {
        const auto r = final_report(*p);
        ASSERT_TRUE(r.is_object());
        EXPECT_TRUE(r["ran"].get<bool>());
        EXPECT_GT(r["frames"].get<std::uint64_t>(), 400u) << "about 60 frames a second for most of 10 s";
        EXPECT_GT(r["checksums_compared"].get<std::uint64_t>(), 5u);
        EXPECT_EQ(r["desyncs"].get<std::uint64_t>(), 0u);
        EXPECT_EQ(r["malformed"].get<std::uint64_t>(), 0u);
        rollbacks += r["rollbacks"].get<std::uint64_t>();
        std::printf("[ measured ] rollback peer %d: %s\n", r["slot"].get<int>(), r.dump().c_str());
    }
    EXPECT_GT(rollbacks, 0u) << "50 ms each way with bots moving must mispredict sometimes";
    relay.signal(SIGTERM);
    EXPECT_TRUE(relay.wait(10s));

    // Each replay plays back exactly (every checksum, seeks against a straight play) in rewind-client.
    for (const char* name : {"peer0", "peer1"}) {
        Process check({kClientBin, "--replay", dir + "/" + name + ".rwr", "--headless"},
                      dir + "/" + name + "_replay.log");
        const auto code = check.wait(60s);
        ASSERT_TRUE(code) << "the replay check did not finish";
        EXPECT_EQ(*code, 0) << check.log();
        const auto r = final_report(check);
        ASSERT_TRUE(r.is_object()) << check.log();
        EXPECT_GT(r["frames"].get<std::int64_t>(), 400);
        EXPECT_GE(r["checksums_verified"].get<std::uint64_t>(), 6u);
        EXPECT_EQ(r["checksum_mismatches"].get<std::uint64_t>(), 0u);
        EXPECT_EQ(r["seek_mismatches"].get<std::uint64_t>(), 0u);
        std::printf("[ measured ] replay %s: %s\n", name, r.dump().c_str());
    }
    // The two machines recorded the same match: equal checksums on every frame both recorded.
    namespace rb = rwd::rollback;
    const auto a = rb::parse_replay(rwd::read_recording_file(dir + "/peer0.rwr").value());
    const auto b = rb::parse_replay(rwd::read_recording_file(dir + "/peer1.rwr").value());
    ASSERT_TRUE(a.ok() && b.ok());
    std::size_t common = 0;
    for (const rb::ReplayChecksum& ca : a->checksums())
        for (const rb::ReplayChecksum& cb : b->checksums())
            if (ca.frame == cb.frame) {
                ++common;
                EXPECT_EQ(ca.checksum, cb.checksum) << "frame " << ca.frame;
            }
    EXPECT_GE(common, 6u);

    expect_replay_window(dir, dir + "/peer0.rwr");
}

}  // namespace
}  // namespace e2e
