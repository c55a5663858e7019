// Test helper: a SimNetwork with a server and clients, stepped in fixed increments, recording every event
// with its time.
#pragma once

#include <rewind/transport/sim_network.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace rwd::transport::testing {

struct TimedEvent {
    Micros at;
    TransportEvent event;
};

struct Node {
    Transport* transport = nullptr;
    std::vector<TimedEvent> events;

    /// Events of one type, optionally only reliable/unreliable messages.
    [[nodiscard]] std::vector<TimedEvent> of(TransportEvent::Type type) const {
        std::vector<TimedEvent> out;
        for (const auto& e : events) {
            if (e.event.type == type) out.push_back(e);
        }
        return out;
    }
};

inline const Address kServer{"server", 1000};
inline Address client_address(int i) { return Address{"client" + std::to_string(i), 2000}; }

class Harness {
public:
    explicit Harness(const SimNetworkConfig& config) : net(config) {}

    Node& add_server(std::size_t max_peers, SimSocket socket = SimSocket::datagram) {
        nodes.push_back(Node{net.listen(kServer, max_peers, socket).value(), {}});
        return nodes.back();
    }
    Node& add_client(int i, SimSocket socket = SimSocket::datagram) {
        nodes.push_back(Node{net.create_endpoint(client_address(i), socket).value(), {}});
        return nodes.back();
    }

    /// Advances in `step` increments up to `until`, collecting events after each step.
    void run_until(Micros until, Micros step = Micros{1000}) {
        while (now < until) {
            now = std::min(until, now + step);
            net.advance_to(now);
            drain();
        }
    }

    void drain() {
        for (Node& n : nodes) {
            TransportEvent e;
            while (n.transport->poll(e)) n.events.push_back(TimedEvent{now, std::move(e)});
        }
    }

    SimNetwork net;
    std::deque<Node> nodes;  // a deque: references stay valid as nodes are added
    Micros now{};
};

/// A message numbered `n` (4 bytes, little-endian), padded with zeros to `size` bytes.
inline std::vector<std::uint8_t> numbered(std::uint32_t n, std::size_t size = 4) {
    std::vector<std::uint8_t> v(std::max<std::size_t>(size, 4), 0);
    for (std::size_t i = 0; i < 4; ++i) v[i] = static_cast<std::uint8_t>(n >> (8 * i));
    return v;
}

/// The number of a numbered() message (what its first bytes give when it is shorter).
inline std::uint32_t number_of(const std::vector<std::uint8_t>& v) {
    std::uint32_t n = 0;
    for (std::size_t i = 0; i < 4 && i < v.size(); ++i) n |= static_cast<std::uint32_t>(v[i]) << (8 * i);
    return n;
}

}  // namespace rwd::transport::testing
