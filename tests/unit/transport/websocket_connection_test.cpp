// WebSocketTransport over real loopback TCP: config checks, connect and accept, both classes both ways,
// refusals (full, wrong path, no subprotocol), disconnect reasons, the backlog rule.
#include "unit/transport/net_harness.hpp"
#include "unit/transport/raw_ws_client.hpp"

namespace rwd::transport {
namespace {

using testing::bytes_of;
using testing::pump_ws_until;
using testing::RawWsClient;
using testing::WsNode;
using Type = TransportEvent::Type;

WebSocketConfig ws_server_config(std::size_t max_peers = 8) {
    WebSocketConfig c;
    c.bind_host = "127.0.0.1";
    c.max_peers = max_peers;
    return c;
}

WebSocketConfig ws_client_config() {
    WebSocketConfig c;
    c.accept_incoming = false;
    return c;
}

std::unique_ptr<WebSocketTransport> make_ws(const WebSocketConfig& config) {
    auto t = WebSocketTransport::create(config);
    EXPECT_TRUE(t.ok()) << error_name(t.code()) << ": " << t.error().detail;
    return t.ok() ? std::move(t.value()) : nullptr;
}

/// A server and one client connected to it (both saw `connected`).
struct Pair {
    WsNode server{make_ws(ws_server_config()), {}};
    WsNode client{make_ws(ws_client_config()), {}};
    PeerId to_server = kInvalidPeer;
    bool up = false;
    Pair() {
        auto id = client.transport->connect(Address{"127.0.0.1", server.port()});
        if (!id.ok()) return;
        to_server = *id;
        up = pump_ws_until({&server, &client}, [&] {
            return server.count(Type::connected) == 1 && client.count(Type::connected) == 1;
        });
    }
    [[nodiscard]] PeerId to_client() const { return server.of(Type::connected).at(0).peer; }
};

TEST(WebSocketConfigTest, DefaultsValidateAndBadValuesAreNamed) {
    EXPECT_TRUE(WebSocketConfig{}.validate().ok());
    WebSocketConfig c;
    c.max_peers = 0;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.max_reliable_size = 10;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.timeout = Micros{1000};
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.bind_host = "not-an-ip";
    EXPECT_EQ(WebSocketTransport::create(c).code(), Errc::invalid_config);
}

TEST(WebSocketConnectionTest, PortInUseIsAnIoErrorAndTheEphemeralPortIsReported) {
    auto first = make_ws(ws_server_config());
    ASSERT_NE(first, nullptr);
    EXPECT_NE(first->local_address().port, 0);
    WebSocketConfig c = ws_server_config();
    c.port = first->local_address().port;
    EXPECT_EQ(WebSocketTransport::create(c).code(), Errc::io_error);
    EXPECT_EQ(first->header_bytes(), 3u);
    EXPECT_EQ(make_ws(ws_client_config())->header_bytes(), 7u);  // a client masks what it sends
    EXPECT_EQ(first->max_message_size(), 1172u);
}

TEST(WebSocketConnectionTest, BothClassesTravelBothWaysInOrder) {
    Pair p;
    ASSERT_TRUE(p.up);
    const PeerId c = p.to_client();
    ASSERT_TRUE(p.client.transport->send(p.to_server, Delivery::unreliable, bytes_of("u1")).ok());
    ASSERT_TRUE(p.client.transport->send(p.to_server, Delivery::reliable_ordered, bytes_of("r1")).ok());
    ASSERT_TRUE(p.server.transport->send(c, Delivery::reliable_ordered, bytes_of("r2")).ok());
    ASSERT_TRUE(p.server.transport->send(c, Delivery::unreliable, bytes_of("u2")).ok());
    ASSERT_TRUE(pump_ws_until({&p.server, &p.client}, [&] {
        return p.server.count(Type::message) == 2 && p.client.count(Type::message) == 2;
    }));
    const auto at_server = p.server.of(Type::message);
    EXPECT_EQ(at_server[0].data, bytes_of("u1"));
    EXPECT_EQ(at_server[0].delivery, Delivery::unreliable);
    EXPECT_EQ(at_server[1].data, bytes_of("r1"));
    EXPECT_EQ(at_server[1].delivery, Delivery::reliable_ordered);
    const auto at_client = p.client.of(Type::message);
    EXPECT_EQ(at_client[0].data, bytes_of("r2"));
    EXPECT_EQ(at_client[1].data, bytes_of("u2"));
    EXPECT_EQ(p.server.transport->counters().connections_accepted, 1u);
    const auto stats = p.server.transport->stats(c);
    EXPECT_EQ(stats.packets_received, 2u);
    EXPECT_GT(stats.bytes_sent, 0u);
    // Too large for its class: refused before anything is written.
    const std::vector<std::uint8_t> big(p.server.transport->max_message_size() + 1, 7);
    EXPECT_EQ(p.server.transport->send(c, Delivery::unreliable, big).code(), Errc::length_too_long);
    EXPECT_TRUE(p.server.transport->send(c, Delivery::reliable_ordered, big).ok());
    EXPECT_EQ(p.server.transport->send(999, Delivery::unreliable, bytes_of("x")).code(), Errc::not_connected);
}

TEST(WebSocketConnectionTest, AFullServerRefusesWithACloseTheClientReportsAsRefused) {
    WsNode server{make_ws(ws_server_config(1)), {}};
    WsNode first{make_ws(ws_client_config()), {}};
    WsNode second{make_ws(ws_client_config()), {}};
    ASSERT_TRUE(first.transport->connect(Address{"127.0.0.1", server.port()}).ok());
    ASSERT_TRUE(pump_ws_until({&server, &first}, [&] { return first.count(Type::connected) == 1; }));
    ASSERT_TRUE(second.transport->connect(Address{"127.0.0.1", server.port()}).ok());
    ASSERT_TRUE(pump_ws_until({&server, &first, &second}, [&] { return !second.events.empty(); }));
    ASSERT_EQ(second.events.size(), 1u);
    EXPECT_EQ(second.events[0].type, Type::disconnected);
    EXPECT_EQ(second.events[0].reason, DisconnectReason::refused);
    EXPECT_EQ(server.transport->counters().refused_full, 1u);
    EXPECT_EQ(server.count(Type::connected), 1u);
}

TEST(WebSocketConnectionTest, AnotherPathOrNoSubprotocolIsRefusedOverHttp) {
    WsNode server{make_ws(ws_server_config()), {}};
    RawWsClient wrong_path(server.port());
    RawWsClient no_protocol(server.port());
    RawWsClient other_protocol(server.port());
    ASSERT_TRUE(wrong_path.connected() && no_protocol.connected() && other_protocol.connected());
    wrong_path.send(RawWsClient::upgrade("/other", "rewind.1"));
    no_protocol.send(RawWsClient::upgrade("/rewind", ""));
    other_protocol.send(RawWsClient::upgrade("/rewind", "chat, rewind.2"));
    ASSERT_TRUE(pump_ws_until(
        {&server}, [&] { return !wrong_path.drain() && !no_protocol.drain() && !other_protocol.drain(); }));
    EXPECT_EQ(wrong_path.received_text().rfind("HTTP/1.1 404", 0), 0u) << wrong_path.received_text();
    EXPECT_EQ(no_protocol.received_text().rfind("HTTP/1.1 400", 0), 0u) << no_protocol.received_text();
    EXPECT_EQ(other_protocol.received_text().rfind("HTTP/1.1 400", 0), 0u);
    EXPECT_EQ(server.transport->counters().refused_protocol, 3u);
    EXPECT_EQ(server.count(Type::connected), 0u);
}

TEST(WebSocketConnectionTest, DisconnectReasonsCrossAsCloseCodes) {
    Pair p;
    ASSERT_TRUE(p.up);
    p.server.transport->disconnect(p.to_client(), DisconnectReason::kicked);
    ASSERT_TRUE(
        pump_ws_until({&p.server, &p.client}, [&] { return p.client.count(Type::disconnected) == 1; }));
    EXPECT_EQ(p.client.of(Type::disconnected)[0].reason, DisconnectReason::remote);
    ASSERT_EQ(p.server.count(Type::disconnected), 1u);
    EXPECT_EQ(p.server.of(Type::disconnected)[0].reason,
              DisconnectReason::kicked);  // reported locally at once
    EXPECT_EQ(p.server.transport->peer_count(), 0u);

    Pair q;
    ASSERT_TRUE(q.up);
    q.client.transport->disconnect(q.to_server);
    ASSERT_TRUE(
        pump_ws_until({&q.server, &q.client}, [&] { return q.server.count(Type::disconnected) == 1; }));
    EXPECT_EQ(q.server.of(Type::disconnected)[0].reason, DisconnectReason::remote);
}

TEST(WebSocketConnectionTest, ABackedUpPeerGetsOnlyTheNewestUnreliableMessageAndEveryReliableOne) {
    // Threshold 0: once a message waits behind the one being written, the peer is backed up until the next
    // update() finds everything written.
    WebSocketConfig cfg = ws_server_config();
    cfg.max_backlog_bytes = 0;
    WsNode server{make_ws(cfg), {}};
    WsNode client{make_ws(ws_client_config()), {}};
    const auto to_server = client.transport->connect(Address{"127.0.0.1", server.port()});
    ASSERT_TRUE(to_server.ok());
    ASSERT_TRUE(pump_ws_until({&server, &client}, [&] { return client.count(Type::connected) == 1; }));
    const PeerId peer = server.of(Type::connected).at(0).peer;
    // Let the accept's bytes be acknowledged so the backlog is empty before the test's sends.
    ASSERT_TRUE(
        pump_ws_until({&server, &client}, [&] { return server.transport->stats(peer).bytes_sent > 0; }));
    testing::pump_ws_for({&server, &client}, std::chrono::milliseconds(50));
    for (const char* m : {"s1", "s2", "s3", "s4"})
        ASSERT_TRUE(server.transport->send(peer, Delivery::unreliable, bytes_of(m)).ok());
    for (const char* m : {"r1", "r2", "r3"})
        ASSERT_TRUE(server.transport->send(peer, Delivery::reliable_ordered, bytes_of(m)).ok());
    ASSERT_TRUE(pump_ws_until({&server, &client}, [&] { return client.count(Type::message) == 6; }));
    testing::pump_ws_for({&server, &client}, std::chrono::milliseconds(50));
    std::vector<std::string> got;
    for (const auto& e : client.of(Type::message)) got.emplace_back(e.data.begin(), e.data.end());
    // s1 went to the socket at once and s2 queued behind it; s3 was held and replaced by s4, which the next
    // update() wrote (after the reliable ones, which are never held): the newest, never an older one after
    // it.
    EXPECT_EQ(got, (std::vector<std::string>{"s1", "s2", "r1", "r2", "r3", "s4"}));
    EXPECT_EQ(server.transport->counters().unreliable_replaced, 1u);
}

TEST(WebSocketConnectionTest, ASilentSocketIsDroppedAfterTheHandshakeTimeAndTheCountRecovers) {
    WebSocketConfig cfg = ws_server_config();
    cfg.handshake_timeout = Micros{100'000};
    cfg.max_handshakes = 1;
    WsNode server{make_ws(cfg), {}};
    RawWsClient silent(server.port());
    ASSERT_TRUE(pump_ws_until(
                    {&server}, [&] { return false; }, std::chrono::milliseconds(20)) == false);
    RawWsClient second(server.port());  // while the silent one holds the one handshake place
    ASSERT_TRUE(pump_ws_until({&server}, [&] { return !second.drain(); }));
    EXPECT_EQ(server.transport->counters().refused_full, 1u);
    ASSERT_TRUE(pump_ws_until({&server}, [&] { return !silent.drain(); }));
    EXPECT_EQ(server.transport->counters().handshake_failures, 1u);
    // Both places are free again: a real client gets in.
    WsNode client{make_ws(ws_client_config()), {}};
    ASSERT_TRUE(client.transport->connect(Address{"127.0.0.1", server.port()}).ok());
    ASSERT_TRUE(pump_ws_until({&server, &client}, [&] { return client.count(Type::connected) == 1; }));
}

TEST(WebSocketConnectionTest, ASeatIsFreeAgainOnceItsPeerLeftAndNothingIsReportedAfterALocalDisconnect) {
    WsNode server{make_ws(ws_server_config(1)), {}};
    WsNode first{make_ws(ws_client_config()), {}};
    const auto to_server = first.transport->connect(Address{"127.0.0.1", server.port()});
    ASSERT_TRUE(to_server.ok());
    ASSERT_TRUE(pump_ws_until({&server, &first}, [&] { return server.count(Type::connected) == 1; }));
    const PeerId peer = server.of(Type::connected)[0].peer;
    server.transport->disconnect(peer, DisconnectReason::kicked);
    // The client keeps sending until it hears of it: the server reports nothing more for that peer.
    for (int i = 0; i < 5; ++i)
        (void)first.transport->send(*to_server, Delivery::reliable_ordered, bytes_of("x"));
    ASSERT_TRUE(pump_ws_until({&server, &first}, [&] { return first.count(Type::disconnected) == 1; }));
    testing::pump_ws_for({&server, &first}, std::chrono::milliseconds(50));
    EXPECT_EQ(server.count(Type::message), 0u);
    EXPECT_EQ(server.count(Type::disconnected), 1u);
    WsNode second{make_ws(ws_client_config()), {}};
    ASSERT_TRUE(second.transport->connect(Address{"127.0.0.1", server.port()}).ok());
    ASSERT_TRUE(pump_ws_until({&server, &second}, [&] { return !second.events.empty(); }));
    EXPECT_EQ(second.events[0].type, Type::connected);
    EXPECT_NE(server.of(Type::connected).back().peer, peer);  // ids are not reused
}

TEST(WebSocketConnectionTest, NoServerAtTheAddressIsATimeoutNotARefusal) {
    std::uint16_t port = 0;
    {
        auto gone = make_ws(ws_server_config());
        port = gone->local_address().port;
    }
    WsNode client{make_ws(ws_client_config()), {}};
    ASSERT_TRUE(client.transport->connect(Address{"127.0.0.1", port}).ok());
    ASSERT_TRUE(pump_ws_until({&client}, [&] { return !client.events.empty(); }));
    EXPECT_EQ(client.events[0].type, Type::disconnected);
    EXPECT_EQ(client.events[0].reason, DisconnectReason::timed_out);
}

TEST(WebSocketConnectionTest, AReliableBacklogOverItsLimitDropsThePeer) {
    WebSocketConfig cfg = ws_server_config();
    cfg.max_message_size = 512;
    cfg.max_reliable_size = 1024;
    cfg.max_reliable_backlog = 1024;
    WsNode server{make_ws(cfg), {}};
    WsNode client{make_ws(ws_client_config()), {}};
    ASSERT_TRUE(client.transport->connect(Address{"127.0.0.1", server.port()}).ok());
    ASSERT_TRUE(pump_ws_until({&server, &client}, [&] { return client.count(Type::connected) == 1; }));
    const PeerId peer = server.of(Type::connected)[0].peer;
    const std::vector<std::uint8_t> big(1000, 1);
    // Written one at a time: the second waits behind the first until the next update, over the limit.
    EXPECT_TRUE(server.transport->send(peer, Delivery::reliable_ordered, big).ok());
    EXPECT_TRUE(server.transport->send(peer, Delivery::reliable_ordered, big).ok());
    ASSERT_TRUE(pump_ws_until({&server, &client}, [&] { return server.count(Type::disconnected) == 1; }));
    EXPECT_EQ(server.of(Type::disconnected)[0].reason, DisconnectReason::timed_out);
    EXPECT_EQ(server.transport->counters().backlog_drops, 1u);
    EXPECT_EQ(server.transport->peer_count(), 0u);
}

TEST(WebSocketConnectionTest, ADestroyedServerSaysGoodbyeToItsClients) {
    auto server = make_ws(ws_server_config());
    WsNode client{make_ws(ws_client_config()), {}};
    ASSERT_TRUE(client.transport->connect(Address{"127.0.0.1", server->local_address().port}).ok());
    bool accepted = false;
    ASSERT_TRUE(pump_ws_until({&client}, [&] {
        server->update(testing::real_now());
        TransportEvent e;
        while (server->poll(e)) accepted = accepted || e.type == Type::connected;
        return accepted && client.count(Type::connected) == 1;
    }));
    server.reset();  // closes with 4002 on its way out
    ASSERT_TRUE(pump_ws_until({&client}, [&] { return client.count(Type::disconnected) == 1; }));
    EXPECT_EQ(client.of(Type::disconnected)[0].reason,
              DisconnectReason::remote);  // not timed_out: it was told
}

}  // namespace
}  // namespace rwd::transport
