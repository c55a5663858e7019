// EnetTransport's challenge before ENet's CONNECT: the listening side answers requests with a cookie and
// drops every CONNECT that does not carry a valid one for its address (or whose host holds too many half-open
// slots); the connecting side asks, repeats, and connects with the cookie (docs/PROTOCOL.md "Connecting").
#include "transport/enet/enet_transport_impl.hpp"

namespace rwd::transport {

using namespace enet;

EnetTransport::Impl*& servicing_transport() {
    thread_local EnetTransport::Impl* servicing = nullptr;
    return servicing;
}

int ENET_CALLBACK EnetTransport::Impl::intercept(ENetHost* host, ENetEvent* /*event*/) {
    Impl* self = servicing_transport();
    if (self == nullptr || self->host_ != host) {
        // Not inside our own update() (no path does this today): a connection request still gets no slot.
        return enet::connect_data({host->receivedData, host->receivedDataLength}) ? 1 : 0;
    }
    ++self->counters_.datagrams_received;
    const std::span<const std::uint8_t> d(host->receivedData, host->receivedDataLength);
    const ENetAddress& from = host->receivedAddress;
    if (self->challenge_datagram(from, d)) return 1;  // ours, not ENet's: handled here
    if (const auto data = enet::connect_data(d)) {
        // A connection request: only with a cookie this side gave that very address, and only while the
        // address holds few half-open slots. Dropped here, it never costs ENet a peer slot.
        if (!self->config_.accept_incoming ||
            !self->cookies_.valid(*data, from.host, from.port, self->now_)) {
            ++self->counters_.connects_unverified;
            return 1;
        }
        if (self->half_open(from.host) >= self->config_.max_half_open_per_host) {
            ++self->counters_.connects_half_open_limited;
            return 1;
        }
        return 0;
    }
    if (!enet::datagram_plausible(*host, from, d)) ++self->counters_.datagrams_ignored;
    return 0;  // ENet still parses it (and drops it if implausible): the check only counts
}

bool EnetTransport::Impl::challenge_datagram(const ENetAddress& from, std::span<const std::uint8_t> d) {
    if (const auto request = enet::parse_challenge_request(d)) {
        if (!config_.accept_incoming) {
            ++counters_.refused_full;  // this side never accepts: say so at once
            send_raw(from, enet::challenge_refusal(request->nonce));
        } else if (request->protocol_id != enet::kProtocolId) {
            ++counters_.refused_protocol;
            send_raw(from, enet::challenge_refusal(request->nonce));
        } else {
            ++counters_.challenges_answered;
            send_raw(from, enet::challenge_answer(cookies_.make(from.host, from.port, now_), request->nonce));
        }
        return true;
    }
    if (const auto answer = enet::parse_challenge_answer(d)) {
        if (Peer* p = challenging(from, answer->nonce); p != nullptr && !p->cookie)
            p->cookie = answer->cookie;
        else
            ++counters_.datagrams_ignored;  // late, repeated, or not for a request of ours
        return true;
    }
    if (const auto nonce = enet::parse_challenge_refusal(d)) {
        if (Peer* p = challenging(from, *nonce)) {
            const PeerId id = p->id;
            peers_.erase(id);
            push_disconnected(id, DisconnectReason::refused);
        } else {
            ++counters_.datagrams_ignored;
        }
        return true;
    }
    return false;
}

void EnetTransport::Impl::send_raw(const ENetAddress& to, std::span<const std::uint8_t> d) {
    ENetBuffer buffer;
    buffer.data = const_cast<std::uint8_t*>(d.data());  // ENet's buffer type is not const; it only reads
    buffer.dataLength = d.size();
    if (enet_socket_send(host_->socket, &to, &buffer, 1) > 0)  // a lost one is asked for again
        counters_.bytes_sent += d.size();
}

std::size_t EnetTransport::Impl::half_open(std::uint32_t host) const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < host_->peerCount; ++i) {
        const ENetPeer& p = host_->peers[i];
        const bool handshaking = p.state == ENET_PEER_STATE_ACKNOWLEDGING_CONNECT ||
                                 p.state == ENET_PEER_STATE_CONNECTION_PENDING ||
                                 p.state == ENET_PEER_STATE_CONNECTION_SUCCEEDED;
        if (handshaking && p.address.host == host) ++n;
    }
    return n;
}

void EnetTransport::Impl::time_out_half_open() {
    // ENet gives a new incoming peer its default timeouts (up to 30 s); an unfinished handshake gets ours.
    for (std::size_t i = 0; i < host_->peerCount; ++i) {
        ENetPeer& p = host_->peers[i];
        if (p.state == ENET_PEER_STATE_ACKNOWLEDGING_CONNECT && p.data == nullptr &&
            p.timeoutMaximum != static_cast<enet_uint32>(config_.timeout_maximum.count / 1000))
            apply_timeouts(&p);
    }
}

EnetTransport::Impl::Peer* EnetTransport::Impl::challenging(const ENetAddress& from, std::uint64_t nonce) {
    for (auto& [id, p] : peers_)
        if (p.enet == nullptr && p.nonce == nonce && p.address.host == from.host &&
            p.address.port == from.port)
            return &p;
    return nullptr;
}

void EnetTransport::Impl::advance_challenges() {
    for (auto it = peers_.begin(); it != peers_.end();) {
        Peer& p = it->second;
        if (p.enet != nullptr) {
            ++it;
            continue;
        }
        if (p.cookie) {  // the cookie came: now ENet's own handshake, carrying it
            ENetPeer* ep = enet_host_connect(host_, &p.address, enet::kChannelCount, *p.cookie);
            if (ep == nullptr) {
                const PeerId id = p.id;
                it = peers_.erase(it);
                push_disconnected(id, DisconnectReason::refused);  // no free ENet slot on this side
                continue;
            }
            apply_timeouts(ep);
            p.enet = ep;
            p.last_in_total = ep->incomingDataTotal;
            p.last_out_total = ep->outgoingDataTotal;
            ep->data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(p.id));
        } else if (!p.give_up) {
            p.give_up = now_ + config_.timeout_maximum;  // connect() sent the first request
            p.next_request = now_ + kChallengeRetry;
        } else if (now_ >= *p.give_up) {
            const PeerId id = p.id;
            it = peers_.erase(it);
            push_disconnected(id, DisconnectReason::timed_out);  // nobody answers at that address
            continue;
        } else if (now_ >= p.next_request) {
            send_raw(p.address, enet::challenge_request(enet::kProtocolId, p.nonce));
            p.next_request = now_ + kChallengeRetry;
        }
        ++it;
    }
}

}  // namespace rwd::transport
