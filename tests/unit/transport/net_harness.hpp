// Test helper: real-network endpoints (EnetTransport, WebSocketTransport) on 127.0.0.1 pumped against the
// real clock, with bounded waits.
#pragma once

#include <rewind/transport/enet_transport.hpp>
#include <rewind/transport/websocket_transport.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace rwd::transport::testing {

/// Microseconds of the steady clock: the test owns the real clock and hands it to the transports.
inline Micros real_now() {
    using namespace std::chrono;
    return Micros{duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count()};
}

/// One endpoint and every event it reported.
template <class T>
struct Node {
    std::unique_ptr<T> transport;
    std::vector<TransportEvent> events;

    /// Events of one type.
    [[nodiscard]] std::vector<TransportEvent> of(TransportEvent::Type type) const {
        std::vector<TransportEvent> out;
        for (const auto& e : events) {
            if (e.type == type) out.push_back(e);
        }
        return out;
    }
    /// How many events of one type arrived.
    [[nodiscard]] std::size_t count(TransportEvent::Type type) const { return of(type).size(); }
    /// The port this endpoint is bound to.
    [[nodiscard]] std::uint16_t port() const { return transport->local_address().port; }
};
using EnetNode = Node<EnetTransport>;
using WsNode = Node<WebSocketTransport>;

/// A listening endpoint on an ephemeral loopback port.
inline EnetConfig server_config(std::size_t max_peers = 8) {
    EnetConfig c;
    c.bind_host = "127.0.0.1";
    c.port = 0;
    c.max_peers = max_peers;
    return c;
}

/// A client-only endpoint on an ephemeral loopback port.
inline EnetConfig client_config() {
    EnetConfig c;
    c.bind_host = "127.0.0.1";
    c.accept_incoming = false;
    c.max_peers = 2;
    return c;
}

/// Creates an endpoint or fails the test.
inline std::unique_ptr<EnetTransport> make_endpoint(const EnetConfig& config) {
    auto t = EnetTransport::create(config);
    EXPECT_TRUE(t.ok()) << error_name(t.code()) << ": " << t.error().detail;
    return t.ok() ? std::move(t.value()) : nullptr;
}

/// Updates every node and collects its events until `done()` or `limit` of real time passed; true if done.
/// The limit only bounds a broken run: nothing asserts on how fast the machine is.
template <class N>
bool pump_nodes_until(const std::vector<N*>& nodes, const std::function<bool()>& done,
                      std::chrono::milliseconds limit, const std::function<void()>& each_round) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (true) {
        const Micros now = real_now();
        for (N* n : nodes) {
            n->transport->update(now);
            TransportEvent e;
            while (n->transport->poll(e)) n->events.push_back(std::move(e));
        }
        if (each_round) each_round();
        if (done()) return true;
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
}
inline bool pump_until(std::vector<EnetNode*> nodes, const std::function<bool()>& done,
                       std::chrono::milliseconds limit = std::chrono::milliseconds(5000),
                       const std::function<void()>& each_round = {}) {
    return pump_nodes_until(nodes, done, limit, each_round);
}
inline bool pump_ws_until(std::vector<WsNode*> nodes, const std::function<bool()>& done,
                          std::chrono::milliseconds limit = std::chrono::milliseconds(5000),
                          const std::function<void()>& each_round = {}) {
    return pump_nodes_until(nodes, done, limit, each_round);
}

/// Pumps for a fixed span of real time (for letting traffic settle).
inline void pump_for(std::vector<EnetNode*> nodes, std::chrono::milliseconds span) {
    (void)pump_until(
        std::move(nodes), [] { return false; }, span);
}
inline void pump_ws_for(std::vector<WsNode*> nodes, std::chrono::milliseconds span) {
    (void)pump_ws_until(
        std::move(nodes), [] { return false; }, span);
}

/// The payload bytes of a string.
inline std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

}  // namespace rwd::transport::testing
