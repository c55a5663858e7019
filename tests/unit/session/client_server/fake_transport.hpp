/// FakeTransport: a Transport for driving one Client<G> by hand: it delivers what a test queues and keeps
/// every datagram the client sends.
#pragma once

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/transport/transport.hpp>

#include <cstdint>
#include <deque>
#include <vector>

namespace toy {

/// One server peer (id 1) that answers connect at once; no network, no loss.
class FakeTransport final : public rwd::transport::Transport {
public:
    /// One datagram the client sent.
    struct Sent {
        rwd::transport::Delivery delivery = rwd::transport::Delivery::unreliable;
        std::vector<std::uint8_t> bytes;
    };
    std::deque<rwd::transport::TransportEvent> inbox;  ///< delivered on the next polls
    std::vector<Sent> sent;                            ///< everything sent, oldest first
    int disconnects = 0;                               ///< disconnect() calls

    rwd::Result<rwd::transport::PeerId> connect(const rwd::transport::Address&) override {
        inbox.push_back(
            rwd::transport::TransportEvent{rwd::transport::TransportEvent::Type::connected, 1, {}, {}, {}});
        return rwd::transport::PeerId{1};
    }
    void disconnect(rwd::transport::PeerId, rwd::transport::DisconnectReason) override { ++disconnects; }
    rwd::Status send(rwd::transport::PeerId, rwd::transport::Delivery d,
                     std::span<const std::uint8_t> data) override {
        sent.push_back(Sent{d, std::vector<std::uint8_t>(data.begin(), data.end())});
        return {};
    }
    void update(rwd::Micros) override {}
    bool poll(rwd::transport::TransportEvent& out) override {
        if (inbox.empty()) return false;
        out = std::move(inbox.front());
        inbox.pop_front();
        return true;
    }
    rwd::transport::PeerStats stats(rwd::transport::PeerId) const override { return {}; }
    std::size_t max_message_size() const override { return 1200; }
    std::size_t header_bytes() const override { return 0; }

    /// Queues raw bytes from the server.
    void deliver_bytes(std::vector<std::uint8_t> bytes,
                       rwd::transport::Delivery d = rwd::transport::Delivery::unreliable) {
        rwd::transport::TransportEvent ev{rwd::transport::TransportEvent::Type::message, 1, d, {}, {}};
        ev.data = std::move(bytes);
        inbox.push_back(std::move(ev));
    }
    /// Queues a message from the server.
    template <class Msg>
    void deliver(Msg msg, rwd::transport::Delivery d = rwd::transport::Delivery::unreliable) {
        std::vector<std::uint8_t> bytes;
        (void)rwd::client_server::encode_message(msg, bytes);
        deliver_bytes(std::move(bytes), d);
    }
};

}  // namespace toy
