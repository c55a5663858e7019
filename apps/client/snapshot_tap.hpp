// SnapshotTap: a pass-through Transport that keeps a decoded copy of the newest snapshot (for ghost drawing).
#pragma once

#include <arena/arena_game.hpp>

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace apps {

/// Sits between the client session and its transport and decodes every snapshot that passes (the bytes are
/// left untouched for the session). The overlay draws the newest one as "ghosts": the server-authoritative
/// positions, uninterpolated, beside the predicted and interpolated ones the session renders.
class SnapshotTap final : public rwd::transport::Transport {
public:
    /// The arena's snapshot message.
    using Snapshot = rwd::client_server::SnapshotPacket<arena::ArenaGame::EntityRecord>;

    /// A tap in front of `inner` (not owned).
    explicit SnapshotTap(rwd::transport::Transport& inner) : inner_(inner) {}

    /// The newest snapshot seen (by server tick); empty entities before the first.
    [[nodiscard]] const Snapshot& newest() const { return newest_; }
    /// Whether any snapshot has been seen.
    [[nodiscard]] bool has_snapshot() const { return has_; }

    /// Forwards to the inner transport.
    [[nodiscard]] rwd::Result<rwd::transport::PeerId> connect(const rwd::transport::Address& to) override {
        return inner_.connect(to);
    }
    /// Forwards to the inner transport.
    void disconnect(rwd::transport::PeerId peer, rwd::transport::DisconnectReason reason) override {
        inner_.disconnect(peer, reason);
    }
    /// Forwards to the inner transport.
    [[nodiscard]] rwd::Status send(rwd::transport::PeerId peer, rwd::transport::Delivery delivery,
                                   std::span<const std::uint8_t> data) override {
        return inner_.send(peer, delivery, data);
    }
    /// Forwards to the inner transport.
    void update(rwd::Micros now) override { inner_.update(now); }
    /// Forwards the next event, decoding a copy when it is a snapshot.
    [[nodiscard]] bool poll(rwd::transport::TransportEvent& out) override {
        if (!inner_.poll(out)) return false;
        if (out.type == rwd::transport::TransportEvent::Type::message) look_at(out.data);
        return true;
    }
    /// Forwards to the inner transport.
    [[nodiscard]] rwd::transport::PeerStats stats(rwd::transport::PeerId peer) const override {
        return inner_.stats(peer);
    }
    /// Forwards to the inner transport.
    [[nodiscard]] std::size_t max_message_size() const override { return inner_.max_message_size(); }
    /// Forwards to the inner transport.
    [[nodiscard]] std::size_t header_bytes() const override { return inner_.header_bytes(); }

private:
    using EntityList = std::vector<arena::ArenaGame::EntityRecord>;
    /// Snapshots kept as possible baselines: more than the 64 sequences a baseline may be old.
    static constexpr std::size_t kKept = 128;
    struct Held {
        bool valid = false;
        std::uint16_t sequence = 0;
        EntityList entities;
    };

    // Snapshots are delta-coded against one the client received earlier: the tap sees the same datagrams as
    // the session, so it keeps its own copies and resolves the same baselines.
    static const EntityList* find(const SnapshotTap* self, std::uint16_t sequence) {
        const Held& h = self->held_[sequence % kKept];
        return h.valid && h.sequence == sequence ? &h.entities : nullptr;
    }

    void look_at(std::span<const std::uint8_t> data) {
        auto type = rwd::client_server::peek_message_type(data);
        if (!type.ok() || type.value() != rwd::client_server::MessageType::snapshot) return;
        const auto find = [this](std::uint16_t sequence) { return SnapshotTap::find(this, sequence); };
        if (!rwd::client_server::decode_snapshot(data, scratch_, find).ok()) return;  // the session counts it
        Held& h = held_[scratch_.sequence % kKept];
        h.valid = true;
        h.sequence = scratch_.sequence;
        h.entities = scratch_.entities;
        if (has_ && scratch_.server_tick - newest_.server_tick <= 0) return;  // older or repeated
        std::swap(newest_, scratch_);
        has_ = true;
    }

    rwd::transport::Transport& inner_;
    Snapshot newest_{};
    Snapshot scratch_{};
    bool has_ = false;
    std::array<Held, kKept> held_{};
};

}  // namespace apps
