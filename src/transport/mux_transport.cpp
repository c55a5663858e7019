// MuxTransport: one id space over several transports, events merged, sends routed to the peer's transport.
#include <rewind/transport/mux_transport.hpp>

#include <algorithm>
#include <utility>

namespace rwd::transport {

MuxTransport::MuxTransport(std::vector<Transport*> parts) : parts_(std::move(parts)) {}

const MuxTransport::Route* MuxTransport::find(PeerId id) const {
    const auto it = std::find_if(routes_.begin(), routes_.end(), [&](const Route& r) { return r.id == id; });
    return it == routes_.end() ? nullptr : &*it;
}

PeerId MuxTransport::adopt(std::size_t part, PeerId inner) {
    for (const Route& r : routes_)
        if (r.part == part && r.inner == inner) return r.id;
    routes_.push_back({next_id_++, part, inner});
    return routes_.back().id;
}

void MuxTransport::forget(PeerId id) {
    std::erase_if(routes_, [&](const Route& r) { return r.id == id; });
}

Result<PeerId> MuxTransport::connect(const Address& to) {
    if (parts_.empty()) return Error{Errc::invalid_argument, "a MuxTransport without transports"};
    auto inner = parts_[0]->connect(to);
    if (!inner.ok()) return inner.error();
    return adopt(0, *inner);
}

void MuxTransport::disconnect(PeerId peer, DisconnectReason reason) {
    const Route* r = find(peer);
    if (r == nullptr) return;
    const Route route = *r;
    parts_[route.part]->disconnect(route.inner, reason);
    // The part reports the disconnect; poll() translates it and forgets the route then.
}

Status MuxTransport::send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) {
    const Route* r = find(peer);
    if (r == nullptr) return Error{Errc::not_connected, "no such peer"};
    return parts_[r->part]->send(r->inner, delivery, data);
}

void MuxTransport::update(Micros now) {
    for (Transport* t : parts_) t->update(now);
}

bool MuxTransport::poll(TransportEvent& out) {
    for (std::size_t i = 0; i < parts_.size(); ++i) {
        const std::size_t part = (next_part_ + i) % parts_.size();
        if (!parts_[part]->poll(out)) continue;
        const PeerId id = adopt(part, out.peer);
        out.peer = id;
        if (out.type == TransportEvent::Type::disconnected) forget(id);
        next_part_ = (part + 1) % parts_.size();
        return true;
    }
    return false;
}

PeerStats MuxTransport::stats(PeerId peer) const {
    const Route* r = find(peer);
    return r == nullptr ? PeerStats{} : parts_[r->part]->stats(r->inner);
}

std::size_t MuxTransport::max_message_size() const {
    std::size_t size = 0;
    for (const Transport* t : parts_)
        size = size == 0 ? t->max_message_size() : std::min(size, t->max_message_size());
    return size;
}

std::size_t MuxTransport::header_bytes() const {
    std::size_t bytes = 0;
    for (const Transport* t : parts_) bytes = std::max(bytes, t->header_bytes());
    return bytes;
}

int MuxTransport::part_of(PeerId peer) const {
    const Route* r = find(peer);
    return r == nullptr ? -1 : static_cast<int>(r->part);
}

}  // namespace rwd::transport
