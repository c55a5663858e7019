/// SnapshotConfig: how the server shrinks snapshots: delta baselines, area of interest, priorities, byte
/// budget.
#pragma once

#include <rewind/core/result.hpp>

#include <cstdint>

namespace rwd::wire {
class RangeModelTrainer;
}  // namespace rwd::wire

namespace rwd::client_server {

/// Snapshot bandwidth knobs of a Server (ServerConfig::snapshots).
struct SnapshotConfig {
    int window = 32;            ///< sent snapshots kept per client as delta baselines, 1..64
    double aoi_radius_m = 0.0;  ///< area-of-interest radius in metres around the client's own entity; 0 = all
    double cell_size_m = 8.0;   ///< interest grid cell side in metres, > 0 (about half the radius is good)
    int budget_bytes = 1200;    ///< most bytes of one snapshot message; 0 = only the transport's limit
    /// With burst_bytes > 0, budget_bytes is a rate instead: the bytes per snapshot a client's allowance
    /// grows by, and burst_bytes what it holds at most (budget_bytes..65535). A snapshot may use the whole
    /// allowance and spends what it uses, so a join or a mass respawn goes out at once while the mean stays
    /// at budget_bytes per snapshot; 0: every snapshot is held to budget_bytes.
    int burst_bytes = 0;
    float near_weight = 1.0f;  ///< priority gained per snapshot by an entity next to the client, > 0
    float far_weight = 0.25f;  ///< ... by one at the edge of the area of interest, (0, near_weight]
    /// Code each entity against its baseline advanced by the game's G::predict_entity (when it has one);
    /// false: against the plain baseline value (the previous codec, kept to measure against).
    bool predicted_deltas = true;
    /// Range-code the entity list (wire::RangeWriteStream, adaptive models that start afresh in every
    /// snapshot); false: bit-packed (the previous codec, kept to measure against).
    bool range_coded = true;
    /// Also measure every snapshot's list under the previous codec (bit-packed against the plain baseline)
    /// into ServerClientStats::snapshot_unpredicted_bytes_total: one more pass over each list, for a lab.
    bool measure_previous_codec = false;
    /// Start the range coder's models from the game's trained table (G::snapshot_model(), when it has one;
    /// a bit in each snapshot says so); false: from 1/2, to measure what the table saves.
    bool trained_model = true;
    /// When set, every range-coded entity list the server sends is also counted into it (not owned; it must
    /// outlive the server): run a typical match with it to learn the table G::snapshot_model() returns.
    wire::RangeModelTrainer* range_trainer = nullptr;

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

}  // namespace rwd::client_server
