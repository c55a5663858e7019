/// RecordingTransport: a Transport decorator for the server that keeps the log of every reliable event it
/// sends to each peer (as an EventLedger), i.e. the server's broadcast log the clients are checked against.
#pragma once

#include "soak/event_ledger.hpp"

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/transport/transport.hpp>

#include <map>

namespace soak {

/// Forwards everything to `inner`; reliable Event messages that the inner transport accepted are logged.
class RecordingTransport final : public rwd::transport::Transport {
public:
    /// Wraps `inner` (not owned).
    explicit RecordingTransport(rwd::transport::Transport& inner) : inner_(inner) {}

    /// Forwarded.
    rwd::Result<rwd::transport::PeerId> connect(const rwd::transport::Address& to) override {
        return inner_.connect(to);
    }
    /// Forwarded.
    void disconnect(rwd::transport::PeerId peer, rwd::transport::DisconnectReason reason) override {
        inner_.disconnect(peer, reason);
    }
    /// Forwarded; an accepted reliable server message is added to the peer's ledger.
    rwd::Status send(rwd::transport::PeerId peer, rwd::transport::Delivery delivery,
                     std::span<const std::uint8_t> data) override {
        rwd::Status s = inner_.send(peer, delivery, data);
        if (s.ok() && delivery == rwd::transport::Delivery::reliable_ordered) {
            const auto type = rwd::client_server::peek_message_type(data);
            // Read as the client reads it: against the sequence and tick of the message before on this peer.
            rwd::client_server::ServerMessage e;
            Context& c = context_[peer];
            e.expected_sequence = c.expected;
            e.previous_tick = c.previous_tick;
            if (type.ok() && type.value() == rwd::client_server::MessageType::server_message &&
                rwd::client_server::decode_message(data, e).ok()) {
                sent_[peer].add(e.sequence, e.type, e.tick, e.payload);
                c.expected = e.sequence + 1;
                c.previous_tick = e.tick;
            }
        }
        return s;
    }
    /// Forwarded.
    void update(rwd::Micros now) override { inner_.update(now); }
    /// Forwarded.
    bool poll(rwd::transport::TransportEvent& out) override { return inner_.poll(out); }
    /// Forwarded.
    rwd::transport::PeerStats stats(rwd::transport::PeerId peer) const override { return inner_.stats(peer); }
    /// Forwarded.
    std::size_t max_message_size() const override { return inner_.max_message_size(); }
    /// Forwarded.
    std::size_t header_bytes() const override { return inner_.header_bytes(); }

    /// The events sent to `peer` so far.
    [[nodiscard]] EventLedger sent_to(rwd::transport::PeerId peer) const {
        const auto it = sent_.find(peer);
        return it == sent_.end() ? EventLedger{} : it->second;
    }

private:
    rwd::transport::Transport& inner_;
    std::map<rwd::transport::PeerId, EventLedger> sent_;
    struct Context {
        std::uint32_t expected = 0;
        rwd::Tick previous_tick{};
    };
    std::map<rwd::transport::PeerId, Context> context_;  // per peer, what its events are coded against
};

}  // namespace soak
