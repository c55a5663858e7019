/// SnapshotReceiver<G>: the client's end of delta-coded snapshots: the lists it decoded, which later
/// snapshots may name as their baseline.
#pragma once

#include <rewind/session/client_server/packets.hpp>
#include <rewind/session/game.hpp>
#include <rewind/sync/entity_delta.hpp>
#include <rewind/sync/snapshot_window.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace rwd::client_server {

/// The client's end: the snapshots it decoded (baselines the server may name) and the display list.
template <ReplicatedGame G>
class SnapshotReceiver {
public:
    using EntityRecord = typename G::EntityRecord;  ///< one entity with its id
    using Snapshot = SnapshotPacket<EntityRecord>;  ///< the snapshot message

    /// Forgets every stored snapshot (a new connection).
    void reset() { window_.reset(); }
    /// Reads the entity section of the snapshot with `sequence` from `s` into `entities`, resolving its
    /// baseline among the snapshots accepted before (`baseline_missing` when it is not held).
    [[nodiscard]] bool read_entities(wire::ReadStream& s, std::uint16_t sequence,
                                     SnapshotEntities<EntityRecord>& entities, bool& baseline_missing) const {
        const auto find = [this](std::uint16_t seq) -> const std::vector<EntityRecord>* {
            const auto* e = window_.find(seq);
            return e ? &e->entities : nullptr;
        };
        return read_snapshot_entities(s, sequence, entities, find, baseline_missing);
    }
    /// For an accepted snapshot: keeps its list as a future baseline, then turns packet.entities into the
    /// list to show: each stale entity takes the value in `shown` (what the client showed last), which is
    /// newer.
    void accept(Snapshot& packet, std::span<const EntityRecord> shown) {
        std::vector<EntityRecord>& kept = window_.push(packet.sequence, packet.server_tick);
        kept.assign(packet.entities.begin(), packet.entities.end());
        if (!packet.stale.empty())
            sync::refresh_stale(shown, std::span<const std::uint32_t>(packet.stale), packet.entities);
    }

private:
    sync::SnapshotWindow<EntityRecord> window_{sync::kMaxSnapshotWindow};
};

}  // namespace rwd::client_server
