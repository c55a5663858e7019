// The relay with plain UDP sockets: per-direction impairments, idle expiry, config checks and option
// precedence. Built only when the relay library is (REWIND_BUILD_APPS): its include path comes with it.
#if __has_include("relay/relay.hpp")

#include "relay/link_args.hpp"
#include "relay/relay.hpp"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

namespace {

using rwd::Micros;
using rwd::transport::LinkConfig;

Micros real_now() {
    using namespace std::chrono;
    return Micros{duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count()};
}

/// A non-blocking UDP socket on an ephemeral loopback port.
struct Socket {
    int fd = -1;
    std::uint16_t port = 0;
    Socket() {
        fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
        socklen_t len = sizeof a;
        EXPECT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
        port = ntohs(a.sin_port);
    }
    ~Socket() { ::close(fd); }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;

    void send_to(std::uint16_t to_port, std::uint8_t byte) const {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(to_port);
        EXPECT_EQ(::sendto(fd, &byte, 1, 0, reinterpret_cast<sockaddr*>(&a), sizeof a), 1);
    }
    /// Every datagram waiting: (first byte, sender port).
    std::vector<std::pair<std::uint8_t, std::uint16_t>> drain() const {
        std::vector<std::pair<std::uint8_t, std::uint16_t>> out;
        std::uint8_t buf[2048];
        sockaddr_in from{};
        socklen_t len = sizeof from;
        while (::recvfrom(fd, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&from), &len) > 0) {
            out.emplace_back(buf[0], ntohs(from.sin_port));
            len = sizeof from;
        }
        return out;
    }
};

std::unique_ptr<relay::Relay> make_relay(std::uint16_t server_port, const LinkConfig& up,
                                         const LinkConfig& down, Micros idle = Micros{30'000'000}) {
    relay::RelayConfig c;
    c.listen_host = "127.0.0.1";
    c.server_port = server_port;
    c.up = up;
    c.down = down;
    c.idle_timeout = idle;
    auto r = relay::Relay::create(c);
    EXPECT_TRUE(r.ok()) << rwd::error_name(r.code());
    return r.ok() ? std::move(r.value()) : nullptr;
}

void pump(relay::Relay& r, std::chrono::milliseconds span) {
    const auto end = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < end) {
        r.step(real_now());
        r.wait(real_now(), Micros{1000});
    }
}

TEST(RelayUdpTest, DirectionsAreImpairedSeparatelyAndRepliesComeBackThroughTheRelay) {
    Socket server;
    Socket client;
    LinkConfig up;
    up.duplicate = 1.0;  // every client datagram reaches the server twice
    LinkConfig down;
    down.latency = Micros{20'000};
    auto r = make_relay(server.port, up, down);
    ASSERT_NE(r, nullptr);
    for (std::uint8_t i = 0; i < 10; ++i) client.send_to(r->port(), i);
    pump(*r, std::chrono::milliseconds(50));
    const auto at_server = server.drain();
    ASSERT_EQ(at_server.size(), 20u);
    const std::uint16_t upstream_port = at_server[0].second;
    EXPECT_NE(upstream_port, client.port);
    for (const auto& [byte, port] : at_server)
        EXPECT_EQ(port, upstream_port);  // one upstream socket per client

    // The server answers the address it saw; the relay maps it back to the client, from the relay's port.
    for (std::uint8_t i = 0; i < 5; ++i) server.send_to(upstream_port, static_cast<std::uint8_t>(100 + i));
    const Micros sent = real_now();
    std::vector<std::pair<std::uint8_t, std::uint16_t>> at_client;
    Micros first_arrival{};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (at_client.size() < 5 && std::chrono::steady_clock::now() < deadline) {
        r->step(real_now());
        auto got = client.drain();
        if (!got.empty() && at_client.empty()) first_arrival = real_now();
        at_client.insert(at_client.end(), got.begin(), got.end());
        r->wait(real_now(), Micros{1000});
    }
    ASSERT_EQ(at_client.size(), 5u);  // no duplication downstream
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(at_client[i].first, 100 + i);
        EXPECT_EQ(at_client[i].second, r->port());
    }
    EXPECT_GE((first_arrival - sent).millis(), 19.0);  // the 20 ms down latency was applied
    const relay::RelayStats s = r->stats();
    EXPECT_EQ(s.up.submitted, 10u);
    EXPECT_EQ(s.up.duplicated, 10u);
    EXPECT_EQ(s.down.submitted, 5u);
    EXPECT_EQ(s.down.duplicated, 0u);
    EXPECT_FALSE(r->stats_line().empty());
}

TEST(RelayUdpTest, IdleMappingsExpireAndANewOneOpensAfterwards) {
    Socket server;
    Socket client;
    auto r = make_relay(server.port, LinkConfig{}, LinkConfig{}, Micros{100'000});
    ASSERT_NE(r, nullptr);
    client.send_to(r->port(), 1);
    pump(*r, std::chrono::milliseconds(20));
    EXPECT_EQ(r->stats().clients, 1u);
    pump(*r, std::chrono::milliseconds(250));
    EXPECT_EQ(r->stats().clients, 0u);
    EXPECT_EQ(r->stats().clients_expired, 1u);
    EXPECT_EQ(r->stats().up.submitted, 1u);  // counters of closed mappings are kept
    client.send_to(r->port(), 2);
    pump(*r, std::chrono::milliseconds(20));
    EXPECT_EQ(r->stats().clients, 1u);
    EXPECT_EQ(r->stats().clients_total, 2u);
    EXPECT_EQ(server.drain().size(), 2u);
}

TEST(RelayUdpTest, MaxClientsDropsNewAddresses) {
    Socket server;
    Socket a;
    Socket b;
    relay::RelayConfig c;
    c.listen_host = "127.0.0.1";
    c.server_port = server.port;
    c.max_clients = 1;
    auto r = relay::Relay::create(c);
    ASSERT_TRUE(r.ok());
    a.send_to(r.value()->port(), 1);
    b.send_to(r.value()->port(), 2);
    pump(*r.value(), std::chrono::milliseconds(20));
    EXPECT_EQ(r.value()->stats().clients, 1u);
    EXPECT_EQ(r.value()->stats().dropped_no_slot, 1u);
    EXPECT_EQ(server.drain().size(), 1u);
}

TEST(RelayUdpTest, ConfigErrorsAreReported) {
    relay::RelayConfig c;
    EXPECT_EQ(relay::Relay::create(c).code(), rwd::Errc::invalid_config);  // no server port
    c.server_port = 9;
    c.up.loss = 2.0;
    EXPECT_EQ(relay::Relay::create(c).code(), rwd::Errc::invalid_config);
    c.up.loss = 0.0;
    c.listen_host = "127.0.0.1";
    auto first = relay::Relay::create(c);
    ASSERT_TRUE(first.ok());
    c.listen_port = first.value()->port();
    EXPECT_EQ(relay::Relay::create(c).code(), rwd::Errc::io_error);  // port in use
}

TEST(RelayLinkArgsTest, ProfileThenSharedKnobsThenDirectionKnobs) {
    relay::LinkArgs common;
    common.profile = "checklist";
    common.loss_pct = 10.0;
    relay::LinkArgs up;
    up.latency_ms = 25.0;
    auto u = relay::build_link(common, up);
    ASSERT_TRUE(u.ok());
    EXPECT_EQ(u.value().latency, Micros{25'000});
    EXPECT_EQ(u.value().jitter, rwd::transport::link_profile("checklist").value().jitter);
    EXPECT_DOUBLE_EQ(u.value().loss, 0.10);
    relay::LinkArgs down;
    down.profile = "lan";
    down.burst_pct = 1.0;
    down.burst_len = 4.0;
    auto d = relay::build_link(common, down);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d.value().latency, rwd::transport::link_profile("lan").value().latency);
    EXPECT_DOUBLE_EQ(d.value().loss, 0.10);
    EXPECT_DOUBLE_EQ(d.value().burst.p_good_to_bad, 0.01);
    EXPECT_DOUBLE_EQ(d.value().burst.p_bad_to_good, 0.25);
    relay::LinkArgs bad;
    bad.profile = "nope";
    EXPECT_EQ(relay::build_link(bad, {}).code(), rwd::Errc::invalid_argument);
    bad = {};
    bad.dup_pct = 150.0;
    EXPECT_EQ(relay::build_link({}, bad).code(), rwd::Errc::invalid_config);
}

}  // namespace

#endif  // __has_include("relay/relay.hpp")
