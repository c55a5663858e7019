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

    SnapshotReceiver() {
        if constexpr (HasSnapshotModel<G>) range_.model = &G::snapshot_model();
    }

    /// Forgets every stored snapshot (a new connection).
    void reset() { window_.reset(); }
    /// Reads the entity section of the snapshot with `sequence` for `server_tick` from `s` into `entities`,
    /// resolving its baseline among the snapshots accepted before (`baseline_missing` when it is not held)
    /// and advancing it by the game's prediction (G::predict_entity) from the baseline's tick to
    /// `server_tick`.
    [[nodiscard]] bool read_entities(wire::ReadStream& s, std::uint16_t sequence, Tick server_tick,
                                     SnapshotEntities<EntityRecord>& entities, bool& baseline_missing) {
        const auto find = [this](std::uint16_t seq) -> const std::vector<EntityRecord>* {
            const auto* e = window_.find(seq);
            if (e != nullptr) baseline_tick_ = e->tick;
            return e ? &e->entities : nullptr;
        };
        const auto predict = [this, server_tick](std::uint16_t seq, std::span<const EntityRecord> base,
                                                 std::span<const EntityRecord>& ref) {
            if constexpr (HasEntityPrediction<G>) {
                const auto* e = window_.find(seq);
                if (e == nullptr) return false;
                const std::int32_t ticks = sync::prediction_ticks(std::int64_t{server_tick - e->tick});
                sync::predict_records(base, ticks, &G::predict_entity, reference_);
                ref = std::span<const EntityRecord>(reference_);
                return true;
            } else {
                (void)this, (void)seq, (void)base, (void)ref, (void)server_tick;
                return false;  // this game has no prediction
            }
        };
        return read_snapshot_entities(s, sequence, entities, find, baseline_missing, predict, &range_);
    }
    /// The server tick of the baseline the last read_entities() resolved.
    [[nodiscard]] Tick baseline_tick() const { return baseline_tick_; }
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
    std::vector<EntityRecord> reference_;  // the baseline advanced by the prediction (scratch of a read)
    RangeSectionScratch range_;            // the range decoder of the entity lists
    Tick baseline_tick_{};                 // of the baseline the last read resolved
};

}  // namespace rwd::client_server
