/// The server-session fuzz target's wire: in-process Transport endpoints that hand each message to the peer.
#pragma once

#include <rewind/core/rng.hpp>
#include <rewind/transport/transport.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace fuzzing::loopback {

namespace tp = rwd::transport;

/// What every link does: unreliable messages lost, duplicated or reordered, in percent each (reliable ones
/// arrive once, in order), and the figures each endpoint reports for a new peer.
struct LinkModel {
    std::uint32_t loss = 0;
    std::uint32_t duplicate = 0;
    std::uint32_t reorder = 0;  ///< passes the message of the same peer queued before it
    tp::PeerStats reported{};   ///< round trip, jitter and loss as a transport would measure them
};

class Net;

/// One endpoint: nothing to simulate (no latency, acks or keepalives), with seeded impairment and the link
/// figures the driver sets. A connect is answered at once (the listener has room, or the connect is refused);
/// either side learns of it, and may send, at its next update(); a message sent arrives at the peer's next
/// update(). A transport timeout never happens (the sessions' own timeouts do, within an execution).
class Endpoint final : public tp::Transport {
public:
    Endpoint(Net& net, tp::Address address, std::size_t max_peers, bool listening)
        : net_(net), address_(std::move(address)), max_peers_(max_peers), listening_(listening) {}
    ~Endpoint() override;
    Endpoint(const Endpoint&) = delete;
    Endpoint& operator=(const Endpoint&) = delete;

    [[nodiscard]] rwd::Result<tp::PeerId> connect(const tp::Address& to) override;
    void disconnect(tp::PeerId peer, tp::DisconnectReason reason = tp::DisconnectReason::local) override;
    [[nodiscard]] rwd::Status send(tp::PeerId peer, tp::Delivery delivery,
                                   std::span<const std::uint8_t> data) override;
    void update(rwd::Micros /*now*/) override {
        while (!arriving_.empty()) {
            tp::TransportEvent& e = arriving_.front();
            if (e.type == tp::TransportEvent::Type::disconnected) forget(e.peer);
            if (e.type == tp::TransportEvent::Type::connected)
                if (Peer* p = find(e.peer)) p->open = true;
            events_.push_back(std::move(e));
            arriving_.pop_front();
        }
    }
    [[nodiscard]] bool poll(tp::TransportEvent& out) override {
        if (events_.empty()) return false;
        out = std::move(events_.front());
        events_.pop_front();
        return true;
    }
    [[nodiscard]] tp::PeerStats stats(tp::PeerId peer) const override {
        const Peer* p = find(peer);
        return p == nullptr ? tp::PeerStats{} : p->stats;
    }
    /// SimNetwork's figures at its default MTU (1200 bytes, 9 of header, 5 per message).
    [[nodiscard]] std::size_t max_message_size() const override { return 1186; }
    [[nodiscard]] std::size_t header_bytes() const override { return 9; }

    /// Sets the round trip, jitter and loss this endpoint reports for its peer at `address` (its own
    /// measurement, as far as the session knows: a client that delays its acks moves them).
    void set_link(const tp::Address& address, rwd::Micros rtt, rwd::Micros jitter, double loss) {
        for (Peer& p : peers_) {
            if (p.address != address) continue;
            p.stats.rtt = rtt;
            p.stats.jitter = jitter;
            p.stats.loss = loss;
        }
    }
    [[nodiscard]] const tp::Address& address() const { return address_; }

private:
    friend class Net;
    struct Peer {
        tp::PeerId id = tp::kInvalidPeer;
        tp::Address address;
        Endpoint* remote = nullptr;  // nullptr once the other side is gone (what is sent then is lost)
        tp::PeerId remote_id = tp::kInvalidPeer;
        bool open = false;  // its `connected` event was taken in: sends go out from then on
        tp::PeerStats stats;
    };
    Peer* find(tp::PeerId id) {
        for (Peer& p : peers_)
            if (p.id == id) return &p;
        return nullptr;
    }
    const Peer* find(tp::PeerId id) const {
        for (const Peer& p : peers_)
            if (p.id == id) return &p;
        return nullptr;
    }
    Peer& add(const tp::Address& address, Endpoint* remote, tp::PeerId remote_id);
    void forget(tp::PeerId id) {
        std::erase_if(peers_, [&](const Peer& p) { return p.id == id; });
    }
    // The other side of `id` is gone: messages to it are lost from now on.
    void orphan(tp::PeerId id) {
        if (Peer* p = find(id)) p->remote = nullptr;
    }
    void arrive(tp::TransportEvent e) { arriving_.push_back(std::move(e)); }
    void arrive_message(tp::PeerId from, tp::Delivery delivery, std::span<const std::uint8_t> data);

    Net& net_;
    tp::Address address_;
    std::size_t max_peers_;
    bool listening_;
    tp::PeerId next_id_ = 1;
    std::vector<Peer> peers_;
    std::deque<tp::TransportEvent> arriving_;  // visible at the next update()
    std::deque<tp::TransportEvent> events_;
};

/// The endpoints, found by address. The link model's impairment draws from a generator seeded by the driver.
class Net {
public:
    explicit Net(std::uint64_t seed, LinkModel model = {}) : rng_(seed), model_(model) {}

    /// An endpoint that accepts up to `max_peers` connections.
    Endpoint& listen(const tp::Address& address, std::size_t max_peers) {
        return add(address, max_peers, true);
    }
    /// An endpoint that only connects (to a few listeners at most).
    Endpoint& create_endpoint(const tp::Address& address) { return add(address, 4, false); }
    /// Removes the endpoint at `address` without a word to its peers (as a process that is gone).
    void close_endpoint(const tp::Address& address) {
        std::erase_if(endpoints_, [&](const auto& e) { return e->address() == address; });
    }

private:
    friend class Endpoint;
    Endpoint& add(const tp::Address& address, std::size_t max_peers, bool listening) {
        endpoints_.push_back(std::make_unique<Endpoint>(*this, address, max_peers, listening));
        return *endpoints_.back();
    }
    Endpoint* find(const tp::Address& address) {
        for (auto& e : endpoints_)
            if (e->address() == address) return e.get();
        return nullptr;
    }
    // Whether an impairment of `percent` happens to this message.
    bool draw(std::uint32_t percent) { return percent != 0 && rng_.uniform(100) < percent; }

    rwd::Rng rng_;
    LinkModel model_;
    std::vector<std::unique_ptr<Endpoint>> endpoints_;
};

inline Endpoint::Peer& Endpoint::add(const tp::Address& address, Endpoint* remote, tp::PeerId remote_id) {
    Peer p;
    p.id = next_id_++;
    p.address = address;
    p.remote = remote;
    p.remote_id = remote_id;
    p.stats = net_.model_.reported;
    peers_.push_back(std::move(p));
    return peers_.back();
}

inline Endpoint::~Endpoint() {
    for (Peer& p : peers_)
        if (p.remote != nullptr) p.remote->orphan(p.remote_id);
}

inline rwd::Result<tp::PeerId> Endpoint::connect(const tp::Address& to) {
    if (to == address_) return rwd::Error{rwd::Errc::invalid_argument, "cannot connect to itself"};
    for (const Peer& p : peers_)
        if (p.address == to)
            return rwd::Error{rwd::Errc::already_exists, "already connected to that address"};
    if (peers_.size() >= max_peers_) return rwd::Errc::too_many_peers;
    Endpoint* remote = net_.find(to);
    Peer& p = add(to, nullptr, tp::kInvalidPeer);
    tp::TransportEvent e;
    e.peer = p.id;
    if (remote == nullptr || !remote->listening_ || remote->peers_.size() >= remote->max_peers_) {
        e.type = tp::TransportEvent::Type::disconnected;  // nobody answers, or a full listener refuses
        e.reason = remote == nullptr ? tp::DisconnectReason::timed_out : tp::DisconnectReason::refused;
        arrive(std::move(e));
        return p.id;
    }
    Peer& r = remote->add(address_, this, p.id);
    p.remote = remote;
    p.remote_id = r.id;
    e.type = tp::TransportEvent::Type::connected;
    arrive(e);
    e.peer = r.id;
    remote->arrive(std::move(e));
    return p.id;
}

inline void Endpoint::disconnect(tp::PeerId peer, tp::DisconnectReason reason) {
    Peer* p = find(peer);
    if (p == nullptr) return;
    if (p->remote != nullptr) {
        tp::TransportEvent e;
        e.type = tp::TransportEvent::Type::disconnected;
        e.peer = p->remote_id;
        e.reason = tp::DisconnectReason::remote;
        p->remote->orphan(p->remote_id);
        p->remote->arrive(std::move(e));
    }
    forget(peer);
    std::erase_if(arriving_,
                  [&](const tp::TransportEvent& a) { return a.peer == peer; });  // not heard of again
    tp::TransportEvent e;
    e.type = tp::TransportEvent::Type::disconnected;
    e.peer = peer;
    e.reason = reason;
    events_.push_back(std::move(e));
}

inline rwd::Status Endpoint::send(tp::PeerId peer, tp::Delivery delivery,
                                  std::span<const std::uint8_t> data) {
    Peer* p = find(peer);
    if (p == nullptr || !p->open) return rwd::Errc::not_connected;
    if (data.size() > max_message_size())
        return rwd::Error{rwd::Errc::length_too_long, "message larger than max_message_size()"};
    p->stats.bytes_sent += data.size() + header_bytes();
    ++p->stats.packets_sent;
    if (p->remote != nullptr) p->remote->arrive_message(p->remote_id, delivery, data);
    return {};
}

inline void Endpoint::arrive_message(tp::PeerId from, tp::Delivery delivery,
                                     std::span<const std::uint8_t> data) {
    Peer* p = find(from);
    if (p == nullptr) return;
    const LinkModel& im = net_.model_;
    const bool unreliable = delivery == tp::Delivery::unreliable;
    if (unreliable && net_.draw(im.loss)) return;
    const int copies = unreliable && net_.draw(im.duplicate) ? 2 : 1;
    for (int i = 0; i < copies; ++i) {
        p->stats.bytes_received += data.size() + header_bytes();
        ++p->stats.packets_received;
        tp::TransportEvent e;
        e.type = tp::TransportEvent::Type::message;
        e.peer = from;
        e.delivery = delivery;
        e.data.assign(data.begin(), data.end());
        arriving_.push_back(std::move(e));
    }
    // Overtaking: an unreliable message passes the peer's message queued before it, unreliable or reliable
    // (as one that a retransmission delays), never its connect or disconnect; reliable ones keep their order.
    if (unreliable && arriving_.size() >= 2 && net_.draw(im.reorder)) {
        tp::TransportEvent& before = arriving_[arriving_.size() - 2];
        if (before.type == tp::TransportEvent::Type::message && before.peer == from)
            std::swap(before, arriving_.back());
    }
}

}  // namespace fuzzing::loopback
