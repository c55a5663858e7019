// SealedEndpoint: a Transport decorator that makes a hand-rolled client (the lab's probe) talk to a token
// server as a real client does: its hello in the clear, the accept checked and its salt keying the channel,
// everything after it sealed and opened with the connection's keys (a refusal of the hello in the clear).
#pragma once

#include <rewind/session/auth/secure_channel.hpp>
#include <rewind/transport/transport.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace lab {

/// The probe's side of a sealed connection over `inner` (not owned).
class SealedEndpoint final : public rwd::transport::Transport {
public:
    SealedEndpoint(rwd::transport::Transport& inner, const rwd::auth::SessionKeys& token_keys);

    [[nodiscard]] rwd::Result<rwd::transport::PeerId> connect(const rwd::transport::Address& to) override;
    void disconnect(rwd::transport::PeerId peer, rwd::transport::DisconnectReason reason) override;
    [[nodiscard]] rwd::Status send(rwd::transport::PeerId peer, rwd::transport::Delivery delivery,
                                   std::span<const std::uint8_t> data) override;
    void update(rwd::Micros now) override;
    [[nodiscard]] bool poll(rwd::transport::TransportEvent& out) override;
    [[nodiscard]] rwd::transport::PeerStats stats(rwd::transport::PeerId peer) const override;
    [[nodiscard]] std::size_t max_message_size() const override;
    [[nodiscard]] std::size_t header_bytes() const override;

    /// Packets from the server that did not open (must stay 0).
    [[nodiscard]] std::uint64_t rejected() const { return rejected_; }

private:
    rwd::transport::Transport& inner_;
    rwd::auth::SessionKeys token_keys_;
    std::unique_ptr<rwd::auth::SecureChannel> channel_;  // keyed by the accept's salt
    bool hello_sent_ = false;
    std::uint64_t rejected_ = 0;
    std::vector<std::uint8_t> sealed_, opened_;
};

}  // namespace lab
