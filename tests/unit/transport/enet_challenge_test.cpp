// EnetTransport's challenge before ENet's CONNECT, over real loopback UDP: a CONNECT without a cookie for its
// address never takes a peer slot, so floods of them (from several addresses, at 5/s and at 1000/s) and a
// host that got a real cookie cannot lock honest clients out; cookies are bound to address, port and epoch;
// a wrong protocol is refused at the challenge.
#include "net_harness.hpp"

#include "transport/enet/connect_cookie.hpp"
#include "transport/enet/enet_wire.hpp"

#include <rewind/core/rng.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <optional>

namespace rwd::transport::testing {
namespace {

using Type = TransportEvent::Type;

Address loopback(std::uint16_t port) { return Address{"127.0.0.1", port}; }

/// A plain UDP socket bound to `ip` (any 127.x.y.z is local), non-blocking.
struct RawSocket {
    int fd = -1;
    explicit RawSocket(const char* ip) {
        fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        ::inet_pton(AF_INET, ip, &a.sin_addr);
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ~RawSocket() {
        if (fd >= 0) ::close(fd);
    }
    RawSocket(const RawSocket&) = delete;
    RawSocket& operator=(const RawSocket&) = delete;
    void send(std::uint16_t port, std::span<const std::uint8_t> d) const {
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(port);
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        (void)::sendto(fd, d.data(), d.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
    }
    std::optional<std::vector<std::uint8_t>> receive() const {
        std::vector<std::uint8_t> buf(2048);
        const ssize_t n = ::recv(fd, buf.data(), buf.size(), 0);
        if (n < 0) return std::nullopt;
        buf.resize(static_cast<std::size_t>(n));
        return buf;
    }
};

/// An ENet CONNECT datagram as ENet itself would send it (to no peer, acknowledged), carrying `data`.
std::vector<std::uint8_t> connect_datagram(std::uint32_t data, std::uint32_t connect_id) {
    std::vector<std::uint8_t> d(sizeof(ENetProtocolHeader) + sizeof(ENetProtocolConnect));
    ENetProtocolHeader h{};
    h.peerID =
        ENET_HOST_TO_NET_16(static_cast<enet_uint16>(static_cast<int>(ENET_PROTOCOL_MAXIMUM_PEER_ID) |
                                                     static_cast<int>(ENET_PROTOCOL_HEADER_FLAG_SENT_TIME)));
    h.sentTime = ENET_HOST_TO_NET_16(1);
    ENetProtocolConnect c{};
    c.header.command = static_cast<enet_uint8>(static_cast<int>(ENET_PROTOCOL_COMMAND_CONNECT) |
                                               static_cast<int>(ENET_PROTOCOL_COMMAND_FLAG_ACKNOWLEDGE));
    c.header.channelID = 0xFF;
    c.header.reliableSequenceNumber = ENET_HOST_TO_NET_16(1);
    c.outgoingPeerID = ENET_HOST_TO_NET_16(0);
    c.incomingSessionID = 0xFF;
    c.outgoingSessionID = 0xFF;
    c.mtu = ENET_HOST_TO_NET_32(1392);
    c.windowSize = ENET_HOST_TO_NET_32(ENET_PROTOCOL_MAXIMUM_WINDOW_SIZE);
    c.channelCount = ENET_HOST_TO_NET_32(3);
    c.packetThrottleInterval = ENET_HOST_TO_NET_32(ENET_PEER_PACKET_THROTTLE_INTERVAL);
    c.packetThrottleAcceleration = ENET_HOST_TO_NET_32(ENET_PEER_PACKET_THROTTLE_ACCELERATION);
    c.packetThrottleDeceleration = ENET_HOST_TO_NET_32(ENET_PEER_PACKET_THROTTLE_DECELERATION);
    c.connectID = connect_id;
    c.data = ENET_HOST_TO_NET_32(data);
    std::memcpy(d.data(), &h, sizeof h);
    std::memcpy(d.data() + sizeof h, &c, sizeof c);
    return d;
}

/// The same CONNECT with a 2-byte header (no sent time), as ENet also accepts.
std::vector<std::uint8_t> short_header(std::vector<std::uint8_t> d) {
    d.erase(d.begin() + 2, d.begin() + 4);
    d[0] &= static_cast<std::uint8_t>(~(ENET_PROTOCOL_HEADER_FLAG_SENT_TIME >> 8));
    return d;
}

TEST(EnetChallengeTest, TheWireHelpersRoundTripAndRefuseLookAlikes) {
    const auto req = enet::challenge_request(enet::kProtocolId, 0xA1B2C3D4E5F60718u);
    const auto parsed = enet::parse_challenge_request(req);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->protocol_id, enet::kProtocolId);
    EXPECT_EQ(parsed->nonce, 0xA1B2C3D4E5F60718u);
    EXPECT_FALSE(enet::parse_challenge_request(std::span(req).first(15)));
    const auto answer = enet::parse_challenge_answer(enet::challenge_answer(7, 9));
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->cookie, 7u);
    EXPECT_EQ(answer->nonce, 9u);
    EXPECT_FALSE(enet::parse_challenge_answer(req));  // same length, other magic
    EXPECT_EQ(enet::parse_challenge_refusal(enet::challenge_refusal(5)), 5u);
    EXPECT_FALSE(enet::parse_challenge_refusal(req));
    const auto c = connect_datagram(0xDEADBEEFu, 3);
    EXPECT_EQ(enet::connect_data(c), 0xDEADBEEFu);
    EXPECT_EQ(enet::connect_data(short_header(c)), 0xDEADBEEFu);         // ENet reads this one too
    EXPECT_FALSE(enet::connect_data(std::span(c).first(c.size() - 1)));  // a CONNECT cut short
    EXPECT_FALSE(enet::connect_data(req));
    auto to_peer = c;
    to_peer[1] = 0x05;  // addressed to peer 0x?05, not to no peer: ENet would not read a CONNECT from it
    EXPECT_FALSE(enet::connect_data(to_peer));
    auto compressed = c;
    compressed[0] |= static_cast<std::uint8_t>(ENET_PROTOCOL_HEADER_FLAG_COMPRESSED >> 8);
    EXPECT_FALSE(enet::connect_data(compressed));  // ENet drops it (no compressor)
    auto not_first = c;
    not_first[4] = ENET_PROTOCOL_COMMAND_PING;  // ENet rejects a datagram to no peer that opens otherwise
    EXPECT_FALSE(enet::connect_data(not_first));
}

TEST(EnetChallengeTest, ACookieIsForOneAddressAndPortAndLastsOneToTwoEpochs) {
    const enet::ConnectCookie cookies;
    const Micros t{123'456'789};
    const std::uint32_t host = 0x0100007Fu;  // 127.0.0.1 as ENet keeps it
    const std::uint32_t c = cookies.make(host, 5000, t);
    EXPECT_TRUE(cookies.valid(c, host, 5000, t));
    EXPECT_TRUE(cookies.valid(c, host, 5000, t + enet::ConnectCookie::kEpoch));  // the next epoch still
    EXPECT_FALSE(cookies.valid(c, host, 5000, t + enet::ConnectCookie::kEpoch * 2));
    EXPECT_FALSE(cookies.valid(c, host, 5001, t));            // another port
    EXPECT_FALSE(cookies.valid(c, 0x0200007Fu, 5000, t));     // another host
    EXPECT_NE(enet::ConnectCookie{}.make(host, 5000, t), c);  // another key (2^-32 to be equal by chance)
}

TEST(EnetChallengeTest, APlainEnetConnectWithoutACookieNeverGetsASlot) {
    EnetNode server{make_endpoint(server_config()), {}};
    ASSERT_TRUE(server.transport);
    // A plain ENet client that does not speak rewind: it sends CONNECT straight away.
    ENetHost* foreign = enet_host_create(nullptr, 1, 3, 0, 0);
    ASSERT_NE(foreign, nullptr);
    ENetAddress to{};
    ASSERT_EQ(enet_address_set_host_ip(&to, "127.0.0.1"), 0);
    to.port = server.port();
    ASSERT_NE(enet_host_connect(foreign, &to, 3, enet::kProtocolId), nullptr);
    bool foreign_connected = false;
    pump_until(
        {&server}, [&] { return false; }, std::chrono::milliseconds(1500),
        [&] {
            ENetEvent ev;
            while (enet_host_service(foreign, &ev, 0) > 0) {
                if (ev.type == ENET_EVENT_TYPE_CONNECT) foreign_connected = true;
                if (ev.type == ENET_EVENT_TYPE_RECEIVE) enet_packet_destroy(ev.packet);
            }
        });
    enet_host_destroy(foreign);
    EXPECT_FALSE(foreign_connected);
    EXPECT_GE(server.transport->counters().connects_unverified, 1u);
    EXPECT_EQ(server.count(Type::connected), 0u);
    EXPECT_EQ(server.transport->peer_count(), 0u);
}

TEST(EnetChallengeTest, AWrongProtocolIsRefusedAtTheChallenge) {
    EnetNode server{make_endpoint(server_config()), {}};
    ASSERT_TRUE(server.transport);
    RawSocket s("127.0.0.1");
    ASSERT_GE(s.fd, 0);
    s.send(server.port(), enet::challenge_request(0x12345678u, 77));
    std::optional<std::uint64_t> refused;
    ASSERT_TRUE(pump_until({&server}, [&] {
        if (auto d = s.receive()) refused = enet::parse_challenge_refusal(*d);
        return refused.has_value();
    }));
    EXPECT_EQ(*refused, 77u);
    EXPECT_EQ(server.transport->counters().refused_protocol, 1u);
    EXPECT_EQ(server.transport->counters().challenges_answered, 0u);
}

/// Floods a server of `max_peers` seats with cookie-less CONNECTs from 127.0.0.2..5 at `per_second` for
/// `span` (more than its ENet slots: max_peers + 4 spare) while up to `honest` clients connect, one every
/// `every`; each must be connected within 1 s of asking.
void flood_while_clients_join(int per_second, std::chrono::milliseconds span, std::size_t max_peers,
                              std::size_t honest, Micros every) {
    EnetNode server{make_endpoint(server_config(max_peers)), {}};
    ASSERT_TRUE(server.transport);
    std::vector<std::unique_ptr<RawSocket>> attackers;
    for (const char* ip : {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"}) {
        attackers.push_back(std::make_unique<RawSocket>(ip));
        ASSERT_GE(attackers.back()->fd, 0) << ip;
    }
    rwd::Rng rng(7);  // seeded: the same flood every run
    std::vector<std::unique_ptr<EnetNode>> clients;
    std::vector<Micros> asked;
    const Micros start = real_now();
    Micros next_client = start + every, sent_until = start;
    std::uint64_t flood = 0;
    const Micros gap{1'000'000 / per_second};
    const Micros end = start + Micros{span.count() * 1000};
    std::vector<EnetNode*> nodes{&server};
    bool late = false;
    pump_until(
        nodes,
        [&] {
            const Micros now = real_now();
            for (; sent_until + gap <= now && sent_until < end; sent_until = sent_until + gap, ++flood)
                attackers[flood % attackers.size()]->send(server.port(),
                                                          connect_datagram(rng.next_u32(), rng.next_u32()));
            if (now >= next_client && now < end && clients.size() < honest) {
                clients.push_back(std::make_unique<EnetNode>(EnetNode{make_endpoint(client_config()), {}}));
                EXPECT_TRUE(clients.back()->transport->connect(loopback(server.port())).ok());
                asked.push_back(now);
                next_client = now + every;
            }
            for (std::size_t i = 0; i < clients.size(); ++i) {
                auto& c = *clients[i];
                c.transport->update(now);
                TransportEvent e;
                while (c.transport->poll(e)) c.events.push_back(std::move(e));
                // Without the challenge they wait for ever (the slots stay half-open for ENet's timeout);
                // with it, a few ms on loopback: 2 s is room for a loaded machine, not for a lock-out.
                if (c.count(Type::connected) == 0 && now - asked[i] > Micros{2'000'000}) late = true;
            }
            return now >= end && !clients.empty() &&
                   std::all_of(clients.begin(), clients.end(),
                               [](const auto& c) { return c->count(Type::connected) == 1; });
        },
        span + std::chrono::milliseconds(3000));
    pump_for(nodes, std::chrono::milliseconds(100));  // the last datagrams of the flood arrive
    std::size_t joined = 0;
    for (const auto& c : clients) joined += c->count(Type::connected);
    std::printf(
        "[ flood ] %d/s: %llu cookie-less CONNECTs, %llu dropped before a slot; %zu/%zu honest clients "
        "joined\n",
        per_second, static_cast<unsigned long long>(flood),
        static_cast<unsigned long long>(server.transport->counters().connects_unverified), joined,
        clients.size());
    EXPECT_FALSE(late) << "an honest client waited more than 2 s";
    EXPECT_EQ(joined, clients.size());
    EXPECT_EQ(clients.size(), honest);
    // Every one that arrived was dropped (on a loaded machine a burst may overflow the socket buffer first).
    EXPECT_LE(server.transport->counters().connects_unverified, flood);
    EXPECT_GE(server.transport->counters().connects_unverified, flood * 9 / 10);
    EXPECT_EQ(server.transport->peer_count(), clients.size());
}

TEST(EnetChallengeTest, ASlowConnectFloodLocksNobodyOut) {
    // 5 a second for 3.5 s: 17 CONNECTs, more than the 8 ENet slots of a 4-seat server; 3 clients join late.
    flood_while_clients_join(5, std::chrono::milliseconds(3500), 4, 3, Micros{1'000'000});
}

TEST(EnetChallengeTest, AFastConnectFloodFromSeveralAddressesLocksNobodyOut) {
    flood_while_clients_join(1000, std::chrono::milliseconds(2000), 16, 9, Micros{200'000});
}

TEST(EnetChallengeTest, AHostWithARealCookieHoldsAtMostItsHalfOpenSlots) {
    EnetNode server{make_endpoint(server_config(8)), {}};
    ASSERT_TRUE(server.transport);
    RawSocket s("127.0.0.6");
    ASSERT_GE(s.fd, 0);
    s.send(server.port(), enet::challenge_request(enet::kProtocolId, 1));
    std::optional<enet::ChallengeAnswer> answer;
    ASSERT_TRUE(pump_until({&server}, [&] {
        if (auto d = s.receive()) answer = enet::parse_challenge_answer(*d);
        return answer.has_value();
    }));
    // Many CONNECTs with the real cookie, each a new connection id: a new ENet peer each, never answered.
    for (std::uint32_t id = 1; id <= 40; ++id) s.send(server.port(), connect_datagram(answer->cookie, id));
    pump_for({&server}, std::chrono::milliseconds(300));
    // The first max_half_open_per_host (8) take a half-open slot each; the other 32 are dropped.
    EXPECT_EQ(server.transport->counters().connects_half_open_limited, 32u);
    // The cookie of one address is worth nothing from another.
    RawSocket other("127.0.0.7");
    ASSERT_GE(other.fd, 0);
    const std::uint64_t before = server.transport->counters().connects_unverified;
    other.send(server.port(), connect_datagram(answer->cookie, 99));
    pump_for({&server}, std::chrono::milliseconds(100));
    EXPECT_EQ(server.transport->counters().connects_unverified, before + 1);
    // An honest client still joins at once.
    EnetNode client{make_endpoint(client_config()), {}};
    ASSERT_TRUE(client.transport->connect(loopback(server.port())).ok());
    EXPECT_TRUE(pump_until(
        {&server, &client}, [&] { return client.count(Type::connected) == 1; },
        std::chrono::milliseconds(1000)));
}

TEST(EnetChallengeTest, TheConnectingSideTakesOnlyTheAnswerToItsOwnRequest) {
    // The "server" is a raw socket: it sees the client's requests and answers them by hand.
    RawSocket server("127.0.0.1");
    ASSERT_GE(server.fd, 0);
    sockaddr_in local{};
    socklen_t len = sizeof local;
    ASSERT_EQ(::getsockname(server.fd, reinterpret_cast<sockaddr*>(&local), &len), 0);
    EnetNode client{make_endpoint(client_config()), {}};
    ASSERT_TRUE(client.transport->connect(loopback(ntohs(local.sin_port))).ok());
    std::optional<enet::ChallengeRequest> request;
    sockaddr_in from{};
    auto read = [&]() -> std::optional<std::vector<std::uint8_t>> {
        std::vector<std::uint8_t> buf(2048);
        socklen_t fl = sizeof from;
        const ssize_t n =
            ::recvfrom(server.fd, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&from), &fl);
        if (n < 0) return std::nullopt;
        buf.resize(static_cast<std::size_t>(n));
        return buf;
    };
    auto reply = [&](std::span<const std::uint8_t> d) {
        (void)::sendto(server.fd, d.data(), d.size(), 0, reinterpret_cast<const sockaddr*>(&from),
                       sizeof from);
    };
    ASSERT_TRUE(pump_until({&client}, [&] {
        if (auto d = read()) request = enet::parse_challenge_request(*d);
        return request.has_value();
    }));
    EXPECT_EQ(request->protocol_id, enet::kProtocolId);
    // An answer that does not echo the nonce (a guess by someone else) is ignored: no CONNECT follows.
    reply(enet::challenge_answer(1111, request->nonce + 1));
    bool connected_early = false;
    pump_until(
        {&client}, [] { return false; }, std::chrono::milliseconds(400),
        [&] {
            if (auto d = read()) connected_early |= enet::connect_data(*d).has_value();
        });
    EXPECT_FALSE(connected_early);
    // The real answer: ENet's CONNECT follows, carrying that cookie.
    reply(enet::challenge_answer(2222, request->nonce));
    std::optional<std::uint32_t> data;
    ASSERT_TRUE(pump_until({&client}, [&] {
        if (auto d = read()) data = enet::connect_data(*d);
        return data.has_value();
    }));
    EXPECT_EQ(*data, 2222u);
}

TEST(EnetChallengeTest, DisconnectingWhileAskingForACookieEndsTheAttempt) {
    RawSocket silent("127.0.0.1");  // answers nothing
    ASSERT_GE(silent.fd, 0);
    sockaddr_in local{};
    socklen_t len = sizeof local;
    ASSERT_EQ(::getsockname(silent.fd, reinterpret_cast<sockaddr*>(&local), &len), 0);
    EnetNode client{make_endpoint(client_config()), {}};
    auto id = client.transport->connect(loopback(ntohs(local.sin_port)));
    ASSERT_TRUE(id.ok());
    pump_for({&client}, std::chrono::milliseconds(50));
    client.transport->disconnect(id.value(), DisconnectReason::local);
    pump_for({&client}, std::chrono::milliseconds(50));
    ASSERT_EQ(client.count(Type::disconnected), 1u);
    EXPECT_EQ(client.of(Type::disconnected)[0].reason, DisconnectReason::local);
    EXPECT_EQ(client.transport->peer_count(), 0u);
    EXPECT_EQ(client.count(Type::connected), 0u);
}

}  // namespace
}  // namespace rwd::transport::testing
