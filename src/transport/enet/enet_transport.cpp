// EnetTransport: maps ENet hosts, peers, events and statistics onto rewind's Transport interface.
#include "transport/enet/enet_transport_impl.hpp"

#include <array>
#include <utility>

namespace rwd::transport {

using namespace enet;

namespace {

std::uint32_t to_ms(Micros t) {
    return static_cast<std::uint32_t>(std::max<std::int64_t>(1, t.count / 1000));
}

// Owns a received ENetPacket for the length of one event.
struct PacketGuard {
    ENetPacket* packet;
    ~PacketGuard() {
        if (packet != nullptr) enet_packet_destroy(packet);
    }
};

}  // namespace

Status EnetConfig::validate() const {
    if (bind_host.empty()) return Error{Errc::invalid_config, "bind_host must not be empty"};
    if (max_peers < 1 || max_peers + kSpareSlots > ENET_PROTOCOL_MAXIMUM_PEER_ID) {
        return Error{Errc::invalid_config, "max_peers must be in [1, 4090]"};
    }
    if (mtu < ENET_PROTOCOL_MINIMUM_MTU || mtu > ENET_PROTOCOL_MAXIMUM_MTU) {
        return Error{Errc::invalid_config, "mtu must be in [576, 4096]"};
    }
    if (max_reliable_size < enet::unfragmented_limit(mtu) || max_reliable_size > (32u << 20)) {
        return Error{Errc::invalid_config, "max_reliable_size must be in [max_message_size(), 32 MiB]"};
    }
    if (max_waiting_bytes < max_reliable_size) {
        return Error{Errc::invalid_config, "max_waiting_bytes must hold one max_reliable_size message"};
    }
    if (max_held_messages < 1) return Error{Errc::invalid_config, "max_held_messages must be >= 1"};
    if (max_half_open_per_host < 1 || max_half_open_per_host > 4096)
        return Error{Errc::invalid_config, "max_half_open_per_host must be in [1, 4096]"};
    if (timeout_limit < 1) return Error{Errc::invalid_config, "timeout_limit must be >= 1"};
    if (timeout_minimum.count < 1000 || timeout_maximum < timeout_minimum) {
        return Error{Errc::invalid_config, "need 1 ms <= timeout_minimum <= timeout_maximum"};
    }
    if (timeout_maximum.count > 3'600'000'000)
        return Error{Errc::invalid_config, "timeout_maximum must be <= 1 h"};
    if (ping_interval.count < 1000 || ping_interval.count > 60'000'000) {
        return Error{Errc::invalid_config, "ping_interval must be in [1 ms, 60 s]"};
    }
    if (rate_window.count < 1000) return Error{Errc::invalid_config, "rate_window must be >= 1 ms"};
    return {};
}

EnetTransport::Impl::~Impl() {
    if (host_ == nullptr) return;
    for (auto& [id, p] : peers_) {
        if (p.enet == nullptr) continue;  // still asking for its cookie: ENet never heard of it
        p.enet->data = nullptr;
        enet_peer_disconnect_now(p.enet, enet::disconnect_code(DisconnectReason::remote));
    }
    enet_host_flush(host_);
    enet_host_destroy(host_);
}

Status EnetTransport::Impl::open() {
    ENetAddress address{};
    if (enet_address_set_host_ip(&address, config_.bind_host.c_str()) != 0) {
        return Error{Errc::invalid_config, "bind_host is not a numeric IPv4 address"};
    }
    address.port = config_.port;
    host_ = enet_host_create(&address, config_.max_peers + kSpareSlots, enet::kChannelCount, 0, 0);
    if (host_ == nullptr) {
        return Error{Errc::io_error,
                     "cannot bind the UDP port (already in use, or bind_host is not a local address)"};
    }
    // ENet has no setter for the MTU: set the host's and that of the (idle) peer slots, which copied the
    // default when the host was made. Every later enet_peer_reset copies the host's value again.
    host_->mtu = static_cast<enet_uint32>(config_.mtu);
    for (std::size_t i = 0; i < host_->peerCount; ++i) host_->peers[i].mtu = host_->mtu;
    host_->maximumPacketSize = config_.max_reliable_size;  // bounds what a peer can make us reassemble
    host_->maximumWaitingData = config_.max_waiting_bytes;
    host_->intercept = &Impl::intercept;
    return {};
}

EnetTransport::Impl::Peer* EnetTransport::Impl::find(PeerId id) {
    auto it = peers_.find(id);
    return it == peers_.end() ? nullptr : &it->second;
}

EnetTransport::Impl::Peer* EnetTransport::Impl::find(const ENetPeer* p) {
    // peer->data holds our PeerId; ENet keeps `data` across slot reuse, so the ENetPeer pointer must match
    // too.
    const auto id = static_cast<PeerId>(reinterpret_cast<std::uintptr_t>(p->data));
    Peer* peer = find(id);
    return peer != nullptr && peer->enet == p ? peer : nullptr;
}

void EnetTransport::Impl::apply_timeouts(ENetPeer* p) const {
    enet_peer_timeout(p, config_.timeout_limit, to_ms(config_.timeout_minimum),
                      to_ms(config_.timeout_maximum));
    enet_peer_ping_interval(p, to_ms(config_.ping_interval));
}

Result<PeerId> EnetTransport::Impl::connect(const Address& to) {
    ENetAddress address{};
    // A numeric address first (no lookup); otherwise a blocking name lookup, as documented.
    if (enet_address_set_host_ip(&address, to.host.c_str()) != 0 &&
        enet_address_set_host(&address, to.host.c_str()) != 0) {
        return Error{Errc::invalid_argument, "cannot resolve the host name"};
    }
    if (to.port == 0) return Error{Errc::invalid_argument, "port 0 is not a destination"};
    address.port = to.port;
    for (const auto& [id, p] : peers_) {
        if (p.address.host == address.host && p.address.port == address.port) {
            return Error{Errc::already_exists, "already connected or connecting to that address"};
        }
    }
    if (peers_.size() >= config_.max_peers) return Errc::too_many_peers;
    // First the challenge (sent now, repeated by update() until its cookie comes); ENet's CONNECT follows
    // with the cookie.
    Peer p;
    p.id = next_id_++;
    p.address = address;
    p.outgoing = true;
    p.nonce = enet::random_nonce();
    send_raw(address, enet::challenge_request(enet::kProtocolId, p.nonce));
    const PeerId id = p.id;
    peers_.emplace(id, std::move(p));
    return id;
}

void EnetTransport::Impl::disconnect(PeerId id, DisconnectReason reason) {
    Peer* p = find(id);
    if (p == nullptr) return;
    if (p->enet == nullptr) {  // still asking for its cookie: nothing to tell ENet
        peers_.erase(id);
        push_disconnected(id, reason);
        return;
    }
    p->enet->data = nullptr;  // ENet's later DISCONNECT event for this slot is not ours any more
    // disconnect_later lets what send() already queued go out first; a peer still connecting is just told.
    if (p->enet->state == ENET_PEER_STATE_CONNECTED) {
        enet_peer_disconnect_later(p->enet, enet::disconnect_code(DisconnectReason::remote));
    } else {
        enet_peer_disconnect(p->enet, enet::disconnect_code(DisconnectReason::remote));
    }
    peers_.erase(id);
    push_disconnected(id, reason);
}

Status EnetTransport::Impl::send(PeerId id, Delivery delivery, std::span<const std::uint8_t> data) {
    Peer* p = find(id);
    if (p == nullptr || p->state != State::connected) return Errc::not_connected;
    const bool reliable = delivery == Delivery::reliable_ordered;
    // The peer's MTU may be lower than ours (ENet takes the smaller); above it ENet would fragment, and it
    // sends fragments of an unreliable message reliably, so such a message is refused instead.
    const std::size_t limit = reliable ? config_.max_reliable_size : enet::unfragmented_limit(p->enet->mtu);
    if (data.size() > limit)
        return Error{Errc::length_too_long, "message larger than the limit for its delivery"};
    enet_uint32 flags = 0;
    if (reliable) {
        flags = static_cast<enet_uint32>(ENET_PACKET_FLAG_RELIABLE);
    } else if (config_.unsequenced_unreliable) {
        flags = static_cast<enet_uint32>(ENET_PACKET_FLAG_UNSEQUENCED);
    }
    ENetPacket* packet = enet_packet_create(data.data(), data.size(), flags);
    if (packet == nullptr) return Error{Errc::out_of_space, "enet_packet_create failed"};
    const std::uint8_t channel = reliable ? enet::kReliableChannel : enet::kUnreliableChannel;
    if (enet_peer_send(p->enet, channel, packet) != 0) {
        enet_packet_destroy(packet);  // not taken by ENet
        return Error{Errc::not_connected, "enet_peer_send refused the message"};
    }
    ++p->messages_out;
    return {};
}

void EnetTransport::Impl::absorb_totals() {
    // ENet zeroes incoming/outgoingDataTotal once a second (bandwidth throttle, at the start of a service
    // pass), so a value lower than the last one means it restarted from zero.
    for (auto& [id, p] : peers_) {
        if (p.enet == nullptr) continue;
        const std::uint32_t in = p.enet->incomingDataTotal;
        const std::uint32_t out = p.enet->outgoingDataTotal;
        p.bytes_in += in >= p.last_in_total ? in - p.last_in_total : in;
        p.bytes_out += out >= p.last_out_total ? out - p.last_out_total : out;
        p.last_in_total = in;
        p.last_out_total = out;
    }
    counters_.bytes_sent += host_->totalSentData;
    counters_.bytes_received += host_->totalReceivedData;
    host_->totalSentData = 0;
    host_->totalReceivedData = 0;
}

void EnetTransport::Impl::update(Micros now) {
    now_ = std::max(now_, now);
    struct Scope {
        explicit Scope(Impl* self) : previous(servicing_transport()) { servicing_transport() = self; }
        ~Scope() { servicing_transport() = previous; }
        Impl* previous;
    } scope(this);
    ENetEvent ev{};
    // Bounded so a flood cannot keep one update() going for ever; what is left waits for the next update.
    for (int i = 0; i < 100'000; ++i) {
        absorb_totals();
        const int r = enet_host_service(host_, &ev, 0);
        absorb_totals();
        if (r <= 0) break;  // 0: nothing more; < 0: a socket error, retried next update
        switch (ev.type) {
            case ENET_EVENT_TYPE_CONNECT:
                on_connect(ev);
                break;
            case ENET_EVENT_TYPE_RECEIVE:
                on_receive(ev);
                break;
            case ENET_EVENT_TYPE_DISCONNECT:
                on_disconnect(ev);
                break;
            case ENET_EVENT_TYPE_NONE:
                break;
        }
    }
    advance_challenges();  // cookies that came in this update start ENet's handshake now
    time_out_half_open();
    enet_host_flush(host_);  // accepts and refusals queued while handling events go out now
    absorb_totals();
    for (auto& [id, p] : peers_) p.rate.sample(now_, p.bytes_out, p.bytes_in, config_.rate_window);
}

void EnetTransport::Impl::refuse(ENetPeer* p, std::uint64_t& counter) {
    ++counter;
    apply_timeouts(p);  // a refused peer that never acks the goodbye is gone after our timeout, not ENet's
    p->data = nullptr;
    enet_peer_disconnect(p, enet::disconnect_code(DisconnectReason::refused));
}

void EnetTransport::Impl::on_connect(const ENetEvent& ev) {
    // ENet's packet throttle drops unreliable sends at random whenever one RTT sample exceeds the last
    // interval's by twice its variance: on a jittery link it threw away whole seconds of snapshots. rewind
    // paces its own traffic (snapshot rate and byte budget), so the throttle is pinned open on every peer,
    // after the handshake that set it from the remote's values.
    ev.peer->packetThrottle = ENET_PEER_PACKET_THROTTLE_SCALE;
    ev.peer->packetThrottleLimit = ENET_PEER_PACKET_THROTTLE_SCALE;
    ev.peer->packetThrottleAcceleration = 0;
    ev.peer->packetThrottleDeceleration = 0;
    if (Peer* p = find(ev.peer); p != nullptr && p->outgoing) {
        p->state = State::awaiting_accept;  // ENet is connected; rewind waits for the accept
        return;
    }
    // A new incoming peer: its CONNECT carried a valid cookie (the intercept checked it, and the protocol id
    // with the challenge). The channel count comes from the network too: check it before accepting.
    if (ev.peer->channelCount < enet::kChannelCount) {
        refuse(ev.peer, counters_.refused_protocol);
        return;
    }
    if (!config_.accept_incoming || peers_.size() >= config_.max_peers) {
        refuse(ev.peer, counters_.refused_full);
        return;
    }
    apply_timeouts(ev.peer);
    // ENet takes the connecting side's MTU as it is; never send datagrams larger than our own limit.
    ev.peer->mtu = std::min<enet_uint32>(ev.peer->mtu, host_->mtu);
    Peer p;
    p.id = next_id_++;
    p.enet = ev.peer;
    p.last_in_total = ev.peer->incomingDataTotal;
    p.last_out_total = ev.peer->outgoingDataTotal;
    p.address = ev.peer->address;
    ev.peer->data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(p.id));
    const std::array<std::uint8_t, 1> accept{enet::kControlAccept};
    ENetPacket* packet = enet_packet_create(accept.data(), accept.size(), ENET_PACKET_FLAG_RELIABLE);
    if (packet == nullptr || enet_peer_send(ev.peer, enet::kControlChannel, packet) != 0) {
        if (packet != nullptr) enet_packet_destroy(packet);
        refuse(ev.peer, counters_.refused_full);
        return;
    }
    auto [it, inserted] = peers_.emplace(p.id, std::move(p));
    surface_connected(it->second);
}

void EnetTransport::Impl::surface_connected(Peer& p) {
    p.state = State::connected;
    TransportEvent e;
    e.type = TransportEvent::Type::connected;
    e.peer = p.id;
    events_.push_back(std::move(e));
    for (auto& held : p.held) events_.push_back(std::move(held));
    p.held.clear();
    p.held.shrink_to_fit();
}

void EnetTransport::Impl::on_receive(const ENetEvent& ev) {
    const PacketGuard guard{ev.packet};
    Peer* p = find(ev.peer);
    if (p == nullptr || ev.packet == nullptr) {
        ++counters_.messages_dropped;
        return;
    }
    const std::span<const std::uint8_t> bytes(ev.packet->data, ev.packet->dataLength);
    if (ev.channelID == enet::kControlChannel) {
        if (bytes.size() == 1 && bytes[0] == enet::kControlAccept && p->outgoing &&
            p->state != State::connected) {
            surface_connected(*p);
        } else {
            ++counters_.messages_dropped;
        }
        return;
    }
    // The length is the sender's choice: hold it to what this side would send on that channel.
    const bool reliable = ev.channelID == enet::kReliableChannel;
    const bool known = reliable || ev.channelID == enet::kUnreliableChannel;
    const std::size_t limit = reliable ? config_.max_reliable_size : enet::unfragmented_limit(config_.mtu);
    if (!known || bytes.size() > limit) {
        ++counters_.messages_dropped;
        return;
    }
    TransportEvent e;
    e.type = TransportEvent::Type::message;
    e.peer = p->id;
    e.delivery = reliable ? Delivery::reliable_ordered : Delivery::unreliable;
    e.data.assign(bytes.begin(), bytes.end());
    ++p->messages_in;
    if (p->state == State::connected) {
        events_.push_back(std::move(e));
    } else if (p->held.size() < config_.max_held_messages) {
        p->held.push_back(std::move(e));
    } else {
        ++counters_
              .messages_dropped;  // a reliable one lost here breaks the order: the accept is long overdue
    }
}

void EnetTransport::Impl::on_disconnect(const ENetEvent& ev) {
    Peer* p = find(ev.peer);
    if (p == nullptr) return;  // a peer we refused or dropped already
    const PeerId id = p->id;
    DisconnectReason reason = DisconnectReason::timed_out;  // ENet reports data 0 for a timeout
    if (ev.data != 0) {
        // A goodbye before the accept is a refusal (full, wrong protocol); after it, the peer left. The code
        // is untrusted and only informative, so the peer's own claim of a reason is not taken over.
        reason = p->state == State::connected ? DisconnectReason::remote : DisconnectReason::refused;
    }
    ev.peer->data = nullptr;
    peers_.erase(id);
    push_disconnected(id, reason);
}

void EnetTransport::Impl::push_disconnected(PeerId id, DisconnectReason reason) {
    TransportEvent e;
    e.type = TransportEvent::Type::disconnected;
    e.peer = id;
    e.reason = reason;
    events_.push_back(std::move(e));
}

bool EnetTransport::Impl::poll(TransportEvent& out) {
    if (events_.empty()) return false;
    out = std::move(events_.front());
    events_.pop_front();
    return true;
}

PeerStats EnetTransport::Impl::stats(PeerId id) const {
    auto it = peers_.find(id);
    if (it == peers_.end() || it->second.enet == nullptr) return {};
    const Peer& p = it->second;
    PeerStats s;
    s.rtt = Micros::from_millis(p.enet->roundTripTime);
    s.jitter = Micros::from_millis(p.enet->roundTripTimeVariance);
    // ENet folds its loss figure (reliable sends that had to be retransmitted) into packetLoss only every 10
    // s; while the current interval has enough samples its running ratio is the fresher figure.
    if (p.enet->packetsSent >= kMinLossSamples) {
        s.loss = static_cast<double>(p.enet->packetsLost) / static_cast<double>(p.enet->packetsSent);
    } else {
        s.loss = static_cast<double>(p.enet->packetLoss) / static_cast<double>(ENET_PEER_PACKET_LOSS_SCALE);
    }
    s.loss = std::clamp(s.loss, 0.0, 1.0);
    s.bytes_sent = p.bytes_out;
    s.bytes_received = p.bytes_in;
    s.packets_sent = p.messages_out;
    s.packets_received = p.messages_in;
    s.kbps_sent = p.rate.kbps_sent();
    s.kbps_received = p.rate.kbps_received();
    return s;
}

Address EnetTransport::Impl::local_address() const {
    std::array<char, 64> ip{};
    Address a;
    if (enet_address_get_host_ip(&host_->address, ip.data(), ip.size()) == 0) a.host = ip.data();
    a.port = host_->address.port;
    return a;
}

// ---- the public class
// ----------------------------------------------------------------------------------------------

Result<std::unique_ptr<EnetTransport>> EnetTransport::create(const EnetConfig& config) {
    if (Status s = config.validate(); !s) return s.error();
    auto library = EnetLibrary::acquire();
    if (!library) return library.error();
    auto impl = std::make_unique<Impl>(config, std::move(library.value()));
    if (Status s = impl->open(); !s) return s.error();
    return std::unique_ptr<EnetTransport>(new EnetTransport(std::move(impl)));
}

EnetTransport::EnetTransport(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
EnetTransport::~EnetTransport() = default;

Result<PeerId> EnetTransport::connect(const Address& to) { return impl_->connect(to); }
void EnetTransport::disconnect(PeerId peer, DisconnectReason reason) { impl_->disconnect(peer, reason); }
Status EnetTransport::send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) {
    return impl_->send(peer, delivery, data);
}
void EnetTransport::update(Micros now) { impl_->update(now); }
bool EnetTransport::poll(TransportEvent& out) { return impl_->poll(out); }
PeerStats EnetTransport::stats(PeerId peer) const { return impl_->stats(peer); }
std::size_t EnetTransport::max_message_size() const { return enet::unfragmented_limit(impl_->config_.mtu); }
std::size_t EnetTransport::header_bytes() const { return enet::kHeaderBytes; }
Address EnetTransport::local_address() const { return impl_->local_address(); }
std::size_t EnetTransport::peer_count() const { return impl_->peers_.size(); }
EnetCounters EnetTransport::counters() const { return impl_->counters_; }
const EnetConfig& EnetTransport::config() const { return impl_->config_; }

}  // namespace rwd::transport
