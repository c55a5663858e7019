// SealedEndpoint: the hello in the clear, the accept's salt keying auth::SecureChannel, the rest sealed.
#include "sealed_endpoint.hpp"

#include <rewind/session/client_server/message_codec.hpp>

#include <algorithm>

namespace lab {

namespace tr = rwd::transport;
namespace cs = rwd::client_server;

SealedEndpoint::SealedEndpoint(tr::Transport& inner, const rwd::auth::SessionKeys& token_keys)
    : inner_(inner), token_keys_(token_keys) {}

rwd::Result<tr::PeerId> SealedEndpoint::connect(const tr::Address& to) { return inner_.connect(to); }

void SealedEndpoint::disconnect(tr::PeerId peer, tr::DisconnectReason reason) {
    inner_.disconnect(peer, reason);
}

rwd::Status SealedEndpoint::send(tr::PeerId peer, tr::Delivery delivery, std::span<const std::uint8_t> data) {
    if (!hello_sent_ && delivery == tr::Delivery::reliable_ordered) {
        hello_sent_ = true;
        return inner_.send(peer, delivery, data);
    }
    if (!channel_) return rwd::Error{rwd::Errc::not_connected, "not accepted yet"};
    if (auto s = channel_->seal(rwd::auth::lane_of(delivery), data, sealed_); !s.ok()) return s;
    return inner_.send(peer, delivery, sealed_);
}

void SealedEndpoint::update(rwd::Micros now) { inner_.update(now); }

bool SealedEndpoint::poll(tr::TransportEvent& out) {
    while (inner_.poll(out)) {
        if (out.type != tr::TransportEvent::Type::message) return true;
        if (channel_) {
            if (channel_->open(rwd::auth::lane_of(out.delivery), out.data, opened_) ==
                rwd::auth::OpenError::none) {
                out.data = opened_;
                return true;
            }
            ++rejected_;
            continue;
        }
        // Before the accept: the accept, then the seal that authenticates it under the keys its salt gives.
        const std::span<const std::uint8_t> data = out.data;
        if (data.size() > rwd::auth::kSealedOverheadBytes) {
            const auto head = data.first(data.size() - rwd::auth::kSealedOverheadBytes);
            cs::ConnectAccept acc;
            if (cs::decode_message(head, acc).ok() && acc.sealed) {
                auto ch = std::make_unique<rwd::auth::SecureChannel>(
                    rwd::auth::connection_keys(token_keys_, acc.salt),
                    rwd::auth::SecureChannel::Side::client);
                if (ch->open(rwd::auth::Lane::reliable, data.last(rwd::auth::kSealedOverheadBytes), opened_,
                             head) == rwd::auth::OpenError::none) {
                    channel_ = std::move(ch);
                    out.data.resize(head.size());  // the accept is the front of the packet
                    return true;
                }
            }
        }
        return true;  // a refusal of the hello, in the clear (anything else the probe counts as malformed)
    }
    return false;
}

tr::PeerStats SealedEndpoint::stats(tr::PeerId peer) const { return inner_.stats(peer); }

std::size_t SealedEndpoint::max_message_size() const {
    return inner_.max_message_size() - std::min(inner_.max_message_size(), rwd::auth::kSealedOverheadBytes);
}

std::size_t SealedEndpoint::header_bytes() const {
    return inner_.header_bytes() + rwd::auth::kSealedOverheadBytes;
}

}  // namespace lab
