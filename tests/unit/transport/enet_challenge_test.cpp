// EnetTransport's challenge before ENet's CONNECT, over real loopback UDP: a CONNECT without a cookie for its
// address never takes a peer slot, so floods of them (from several addresses, at 5/s and at 1000/s) and a
// host that got a real cookie cannot lock honest clients out; a wrong protocol is refused at the challenge.
#include "enet_harness.hpp"

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

TEST(EnetChallengeTest, TheWireHelpersRoundTripAndRefuseLookAlikes) {
    const auto req = enet::challenge_request(enet::kProtocolId, 0xA1B2C3D4u);
    const auto parsed = enet::parse_challenge_request(req);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->protocol_id, enet::kProtocolId);
    EXPECT_EQ(parsed->nonce, 0xA1B2C3D4u);
    auto padded = req;
    padded[15] = 1;  // the padding must be zero
    EXPECT_FALSE(enet::parse_challenge_request(padded));
    EXPECT_FALSE(enet::parse_challenge_request(std::span(req).first(15)));
    const auto answer = enet::challenge_answer(7, 9);
    EXPECT_EQ(enet::parse_challenge_answer(answer), (std::pair<std::uint32_t, std::uint32_t>{7, 9}));
    EXPECT_FALSE(enet::parse_challenge_answer(req));
    EXPECT_EQ(enet::parse_challenge_refusal(enet::challenge_refusal(5)), 5u);
    EXPECT_FALSE(enet::parse_challenge_refusal(answer));
    const auto c = connect_datagram(0xDEADBEEFu, 3);
    EXPECT_EQ(enet::connect_data(c), 0xDEADBEEFu);
    EXPECT_FALSE(enet::connect_data(std::span(c).first(c.size() - 1)));  // a CONNECT cut short
    EXPECT_FALSE(enet::connect_data(req));
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
    std::optional<std::uint32_t> refused;
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
                if (c.count(Type::connected) == 0 && now - asked[i] > Micros{1'000'000}) late = true;
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
    EXPECT_FALSE(late) << "an honest client waited more than 1 s";
    EXPECT_EQ(joined, clients.size());
    EXPECT_EQ(clients.size(), honest);
    EXPECT_EQ(server.transport->counters().connects_unverified, flood);
    EXPECT_EQ(server.transport->peer_count(), clients.size());
}

TEST(EnetChallengeTest, ASlowConnectFloodLocksNobodyOut) {
    // 5 a second for 3.5 s: 17 CONNECTs, more than the 8 ENet slots of a 4-seat server; 3 clients join late.
    flood_while_clients_join(5, std::chrono::milliseconds(3500), 4, 3, Micros{1'000'000});
}

TEST(EnetChallengeTest, AFastConnectFloodFromSeveralAddressesLocksNobodyOut) {
    flood_while_clients_join(1000, std::chrono::milliseconds(2000), 16, 9, Micros{200'000});
}

TEST(EnetChallengeTest, AHostWithARealCookieHoldsAtMostFourHalfOpenSlots) {
    EnetNode server{make_endpoint(server_config(8)), {}};
    ASSERT_TRUE(server.transport);
    RawSocket s("127.0.0.6");
    ASSERT_GE(s.fd, 0);
    s.send(server.port(), enet::challenge_request(enet::kProtocolId, 1));
    std::optional<std::pair<std::uint32_t, std::uint32_t>> answer;
    ASSERT_TRUE(pump_until({&server}, [&] {
        if (auto d = s.receive()) answer = enet::parse_challenge_answer(*d);
        return answer.has_value();
    }));
    // Many CONNECTs with the real cookie, each a new connection id: a new ENet peer each, never answered.
    for (std::uint32_t id = 1; id <= 40; ++id) s.send(server.port(), connect_datagram(answer->first, id));
    pump_for({&server}, std::chrono::milliseconds(300));
    EXPECT_GE(server.transport->counters().connects_half_open_limited, 30u);
    // The cookie of one address is worth nothing from another.
    RawSocket other("127.0.0.7");
    ASSERT_GE(other.fd, 0);
    const std::uint64_t before = server.transport->counters().connects_unverified;
    other.send(server.port(), connect_datagram(answer->first, 99));
    pump_for({&server}, std::chrono::milliseconds(100));
    EXPECT_EQ(server.transport->counters().connects_unverified, before + 1);
    // An honest client still joins at once.
    EnetNode client{make_endpoint(client_config()), {}};
    ASSERT_TRUE(client.transport->connect(loopback(server.port())).ok());
    EXPECT_TRUE(pump_until(
        {&server, &client}, [&] { return client.count(Type::connected) == 1; },
        std::chrono::milliseconds(1000)));
}

}  // namespace
}  // namespace rwd::transport::testing
