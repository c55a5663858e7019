// MuxTransport: an ENet and a WebSocket endpoint seen as one: distinct ids, routed sends, merged events,
// disconnects through the right part, the smallest message size.
#include "unit/transport/net_harness.hpp"

#include <rewind/transport/mux_transport.hpp>

#include <chrono>
#include <thread>

namespace rwd::transport {
namespace {

using testing::bytes_of;
using testing::real_now;
using Type = TransportEvent::Type;

/// Updates every endpoint and collects the mux's events until `done()` (bounded by real time).
bool pump(MuxTransport& mux, std::vector<TransportEvent>& got, std::vector<Transport*> clients,
          std::vector<std::vector<TransportEvent>>& client_events, const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        const Micros now = real_now();
        mux.update(now);
        TransportEvent e;
        while (mux.poll(e)) got.push_back(std::move(e));
        for (std::size_t i = 0; i < clients.size(); ++i) {
            clients[i]->update(now);
            while (clients[i]->poll(e)) client_events[i].push_back(std::move(e));
        }
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    return true;
}

std::size_t count(const std::vector<TransportEvent>& events, Type type) {
    std::size_t n = 0;
    for (const auto& e : events) n += e.type == type ? 1 : 0;
    return n;
}

TEST(MuxTransportTest, NativeAndWebSocketClientsShareOneEndpoint) {
    auto udp = EnetTransport::create(testing::server_config()).value();
    WebSocketConfig wc;
    wc.bind_host = "127.0.0.1";
    wc.max_message_size = 900;
    auto web = WebSocketTransport::create(wc).value();
    MuxTransport mux({udp.get(), web.get()});
    EXPECT_EQ(mux.max_message_size(), 900u);
    EXPECT_EQ(mux.header_bytes(), udp->header_bytes());

    auto udp_client = EnetTransport::create(testing::client_config()).value();
    WebSocketConfig cc;
    cc.accept_incoming = false;
    auto web_client = WebSocketTransport::create(cc).value();
    const PeerId udp_to_server = udp_client->connect({"127.0.0.1", udp->local_address().port}).value();
    const PeerId web_to_server = web_client->connect({"127.0.0.1", web->local_address().port}).value();

    std::vector<TransportEvent> got;
    std::vector<std::vector<TransportEvent>> client_events(2);
    const std::vector<Transport*> clients{udp_client.get(), web_client.get()};
    ASSERT_TRUE(pump(mux, got, clients, client_events, [&] { return count(got, Type::connected) == 2; }));
    std::vector<PeerId> ids;
    for (const auto& e : got)
        if (e.type == Type::connected) ids.push_back(e.peer);
    ASSERT_NE(ids[0], ids[1]);
    const PeerId on_udp = mux.part_of(ids[0]) == 0 ? ids[0] : ids[1];
    const PeerId on_web = on_udp == ids[0] ? ids[1] : ids[0];
    EXPECT_EQ(mux.part_of(on_udp), 0);
    EXPECT_EQ(mux.part_of(on_web), 1);

    ASSERT_TRUE(mux.send(on_udp, Delivery::reliable_ordered, bytes_of("to udp")).ok());
    ASSERT_TRUE(mux.send(on_web, Delivery::reliable_ordered, bytes_of("to web")).ok());
    ASSERT_TRUE(udp_client->send(udp_to_server, Delivery::reliable_ordered, bytes_of("from udp")).ok());
    ASSERT_TRUE(web_client->send(web_to_server, Delivery::reliable_ordered, bytes_of("from web")).ok());
    ASSERT_TRUE(pump(mux, got, clients, client_events, [&] {
        return count(got, Type::message) == 2 && count(client_events[0], Type::message) == 1 &&
               count(client_events[1], Type::message) == 1;
    }));
    for (const auto& e : got) {
        if (e.type != Type::message) continue;
        EXPECT_EQ(e.data, bytes_of(e.peer == on_udp ? "from udp" : "from web"));
    }
    for (const auto& e : client_events[0]) {
        if (e.type == Type::message) {
            EXPECT_EQ(e.data, bytes_of("to udp"));
        }
    }
    for (const auto& e : client_events[1]) {
        if (e.type == Type::message) {
            EXPECT_EQ(e.data, bytes_of("to web"));
        }
    }

    mux.disconnect(on_web, DisconnectReason::kicked);
    ASSERT_TRUE(pump(mux, got, clients, client_events, [&] {
        return count(got, Type::disconnected) == 1 && count(client_events[1], Type::disconnected) == 1;
    }));
    EXPECT_EQ(mux.part_of(on_web), -1);  // forgotten once reported
    mux.disconnect(on_web);              // a peer already gone: nothing happens, nothing is reported
    EXPECT_TRUE(pump(mux, got, clients, client_events, [] { return true; }));
    EXPECT_EQ(count(got, Type::disconnected), 1u);
    // A new WebSocket client gets a new id, never the one the gone peer had.
    auto web_client2 = WebSocketTransport::create(cc).value();
    ASSERT_TRUE(web_client2->connect({"127.0.0.1", web->local_address().port}).ok());
    std::vector<std::vector<TransportEvent>> events3(3);
    const std::vector<Transport*> clients3{udp_client.get(), web_client.get(), web_client2.get()};
    ASSERT_TRUE(pump(mux, got, clients3, events3, [&] { return count(got, Type::connected) == 3; }));
    EXPECT_NE(got.back().peer, on_web);
    EXPECT_NE(got.back().peer, on_udp);
    EXPECT_EQ(mux.send(on_web, Delivery::unreliable, bytes_of("x")).code(), Errc::not_connected);
    EXPECT_TRUE(mux.send(on_udp, Delivery::unreliable, bytes_of("still here")).ok());
    EXPECT_EQ(count(client_events[0], Type::disconnected), 0u);
}

}  // namespace
}  // namespace rwd::transport
