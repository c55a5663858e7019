// End to end: garbage UDP datagrams sent to the server's port are dropped and counted; a connected player
// keeps playing as if nothing happened.
#include "e2e_common.hpp"

#include <rewind/core/rng.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <thread>

namespace e2e {
namespace {

// Sends `count` datagrams to 127.0.0.1:port: random bytes of random length (0..1400), plus ones shaped like
// ENet headers (peer ids of real slots, plausible flags) so that they reach past ENet's first checks. Returns
// the number the socket accepted.
int send_garbage(int port, int count, std::uint64_t seed) {
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return 0;
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<std::uint16_t>(port));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    rwd::Rng rng(seed);
    std::vector<std::uint8_t> buf;
    int sent = 0;
    for (int i = 0; i < count; ++i) {
        buf.resize(rng.next_u32() % 1401);
        for (auto& b : buf) b = static_cast<std::uint8_t>(rng.next_u32());
        if (i % 3 == 0 && buf.size() >= 4) {
            buf[0] = static_cast<std::uint8_t>(rng.next_u32() % 4);  // peer id high bits small: a real slot
            buf[1] = static_cast<std::uint8_t>(rng.next_u32() % 4);
        }
        if (::sendto(fd, buf.data(), buf.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to) >= 0)
            ++sent;
        if (i % 50 == 49) std::this_thread::sleep_for(std::chrono::milliseconds(10));  // ~5000 datagrams/s
    }
    ::close(fd);
    return sent;
}

TEST(E2E, GarbageDatagramsAreDroppedAndCountedWhilePlayersPlayOn) {
    const std::string dir = test_dir("garbage");
    const std::uint64_t seed = 99;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " logs in " + dir);
    auto server = start_server(dir, {"--status-interval", "1"});
    ASSERT_GT(server.port, 0);
    Process client({kClientBin, "--headless", "--bot", "--connect",
                    "127.0.0.1:" + std::to_string(server.port), "--duration", "12", "--seed", "5"},
                   dir + "/client.log");
    ASSERT_TRUE(client.wait_for_line("event=playing", 10s)) << client.log();

    const int sent = send_garbage(server.port, 3000, seed);
    EXPECT_EQ(sent, 3000);

    const auto code = client.wait(30s);
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 0) << client.log();
    const auto r = final_report(client);
    ASSERT_TRUE(r.is_object());
    const double played = r["played_s"].get<double>();
    EXPECT_GT(played, 10.0);
    EXPECT_EQ(r["disconnect"].get<std::string>(), "client_quit");
    EXPECT_GE(static_cast<double>(r["snapshots_received"].get<std::uint64_t>()), 0.8 * 30.0 * played);
    EXPECT_EQ(r["corrections"].get<std::uint64_t>(), 0u)
        << "alone on a perfect link, prediction must be exact";
    EXPECT_EQ(r["malformed"].get<std::uint64_t>(), 0u);

    server.proc->signal(SIGTERM);
    const auto server_code = server.proc->wait(10s);
    ASSERT_TRUE(server_code);
    EXPECT_EQ(*server_code, 0);
    const auto bye = server.proc->wait_for_line("event=exit", 0s);
    ASSERT_TRUE(bye) << server.proc->log();
    const long long dropped = kv_int(*bye, "garbage_dropped").value_or(-1);
    const long long received = kv_int(*bye, "datagrams_received").value_or(-1);
    std::printf("[ measured ] %d garbage datagrams sent; server: %s\n", sent, bye->c_str());
    EXPECT_GE(received, sent);
    // ENet drops what it cannot parse; anything it takes for a connect attempt never becomes a player.
    EXPECT_GE(dropped, sent * 95 / 100);
    EXPECT_EQ(kv_int(*bye, "connects").value_or(-1), 1);
    EXPECT_EQ(kv_int(*bye, "timeouts").value_or(-1), 0);
}

}  // namespace
}  // namespace e2e
