// SealedEndpoint: the hello in the clear, the rest sealed and opened with auth::SecureChannel.
#include "sealed_endpoint.hpp"

namespace lab {

namespace tr = rwd::transport;

namespace {
rwd::auth::Lane lane_of(tr::Delivery d) {
    return d == tr::Delivery::reliable_ordered ? rwd::auth::Lane::reliable : rwd::auth::Lane::unreliable;
}
}  // namespace

SealedEndpoint::SealedEndpoint(tr::Transport& inner, const rwd::auth::SessionKeys& keys)
    : inner_(inner), channel_(keys, rwd::auth::SecureChannel::Side::client) {}

rwd::Result<tr::PeerId> SealedEndpoint::connect(const tr::Address& to) { return inner_.connect(to); }

void SealedEndpoint::disconnect(tr::PeerId peer, tr::DisconnectReason reason) {
    inner_.disconnect(peer, reason);
}

rwd::Status SealedEndpoint::send(tr::PeerId peer, tr::Delivery delivery, std::span<const std::uint8_t> data) {
    if (!hello_sent_ && delivery == tr::Delivery::reliable_ordered) {
        hello_sent_ = true;
        return inner_.send(peer, delivery, data);
    }
    if (auto s = channel_.seal(lane_of(delivery), data, sealed_); !s.ok()) return s;
    return inner_.send(peer, delivery, sealed_);
}

void SealedEndpoint::update(rwd::Micros now) { inner_.update(now); }

bool SealedEndpoint::poll(tr::TransportEvent& out) {
    while (inner_.poll(out)) {
        if (out.type != tr::TransportEvent::Type::message) return true;
        if (channel_.open(lane_of(out.delivery), out.data, opened_) == rwd::auth::OpenError::none) {
            opened_any_ = true;
            out.data = opened_;
            return true;
        }
        if (!opened_any_) return true;  // a refusal of the hello, in the clear
        ++rejected_;
    }
    return false;
}

tr::PeerStats SealedEndpoint::stats(tr::PeerId peer) const { return inner_.stats(peer); }

std::size_t SealedEndpoint::max_message_size() const {
    return inner_.max_message_size() - rwd::auth::kSealedOverheadBytes;
}

std::size_t SealedEndpoint::header_bytes() const {
    return inner_.header_bytes() + rwd::auth::kSealedOverheadBytes;
}

}  // namespace lab
