// End to end: a rewind-client killed without a word and restarted within the server's seat grace, with the
// same --resume-file, gets its seat back (same slot, the server says so); a second client on the same server
// never notices more than an away and a back.
#include "e2e_common.hpp"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace e2e {
namespace {

TEST(E2E, AClientKilledAndRestartedWithinTheGraceGetsItsSeatBack) {
    const std::string dir = test_dir("reconnect");
    SCOPED_TRACE("logs in " + dir);
    const std::string ticket = dir + "/seat.ticket";
    std::filesystem::remove(ticket);
    ServerProc server = start_server(dir, {"--bots", "2", "--status-interval", "0", "--seat-grace", "30"});
    ASSERT_GT(server.port, 0);
    const std::string at = "127.0.0.1:" + std::to_string(server.port);
    Process other({kClientBin, "--connect", at, "--headless", "--bot", "--duration", "14", "--seed", "3"},
                  dir + "/other.log");
    Process first({kClientBin, "--connect", at, "--headless", "--bot", "--duration", "60", "--seed", "7",
                   "--resume-file", ticket},
                  dir + "/first.log");
    const auto playing = first.wait_for_line("event=playing", 20s);
    ASSERT_TRUE(playing) << first.log();
    const auto slot = kv_int(*playing, "slot");
    ASSERT_TRUE(slot.has_value());
    std::this_thread::sleep_for(2s);
    std::stringstream saved;
    saved << std::ifstream(ticket).rdbuf();
    ASSERT_EQ(saved.str().rfind("rewind-resume 1 " + std::to_string(*slot) + " ", 0), 0u) << saved.str();

    first.signal(SIGKILL);  // no goodbye: the process is simply gone
    ASSERT_TRUE(first.wait(5s));
    const auto killed = std::chrono::steady_clock::now();
    Process second({kClientBin, "--connect", at, "--headless", "--bot", "--duration", "5", "--seed", "8",
                    "--resume-file", ticket},
                   dir + "/second.log");
    const auto back = second.wait_for_line("event=playing", 20s);
    ASSERT_TRUE(back) << second.log();
    const double took_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
    EXPECT_EQ(kv_int(*back, "slot"), slot) << second.log();
    EXPECT_EQ(kv_int(*back, "resumed"), 1) << second.log();
    const auto code = second.wait(30s);
    ASSERT_TRUE(code) << second.log();
    EXPECT_EQ(*code, 0) << second.log();
    const auto r = final_report(second);
    ASSERT_TRUE(r.is_object());
    EXPECT_EQ(r["slot"].get<int>(), *slot);
    EXPECT_EQ(r["resumes"].get<int>(), 1);
    EXPECT_EQ(r["resume_resyncs"].get<int>(), 1);  // a new process remembers no message: told so
    EXPECT_EQ(r["events_out_of_order"].get<int>(), 0);
    EXPECT_TRUE(server.proc->wait_for_line("back (", 5s)) << server.proc->log();

    // The other client played through it all.
    const auto other_code = other.wait(30s);
    ASSERT_TRUE(other_code) << other.log();
    EXPECT_EQ(*other_code, 0) << other.log();
    const auto o = final_report(other);
    ASSERT_TRUE(o.is_object());
    EXPECT_EQ(o["reconnects"].get<int>(), 0);
    EXPECT_EQ(o["events_out_of_order"].get<int>(), 0);
    server.proc->signal(SIGTERM);
    EXPECT_TRUE(server.proc->wait(15s));
    std::printf("[ measured ] killed client back in slot %lld after %.2f s\n", static_cast<long long>(*slot),
                took_s);
}

}  // namespace
}  // namespace e2e
