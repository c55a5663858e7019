// SnapshotConfig::validate(): the snapshot bandwidth knobs of the client-server server.
#include <rewind/session/client_server/snapshot_config.hpp>
#include <rewind/sync/snapshot_window.hpp>

#include <cmath>

namespace rwd::client_server {

Status SnapshotConfig::validate() const {
    if (window < 1 || window > static_cast<int>(sync::kMaxSnapshotWindow))
        return Error{Errc::invalid_config, "snapshots.window must be 1..64"};
    if (!(aoi_radius_m >= 0.0 && aoi_radius_m <= 1e6))
        return Error{Errc::invalid_config, "snapshots.aoi_radius_m must be 0..1e6"};
    if (!(cell_size_m > 0.0 && cell_size_m <= 1e6))
        return Error{Errc::invalid_config, "snapshots.cell_size_m must be in (0, 1e6]"};
    if (budget_bytes < 0 || budget_bytes > 65535)
        return Error{Errc::invalid_config, "snapshots.budget_bytes must be 0..65535"};
    if (burst_bytes != 0 && (budget_bytes == 0 || burst_bytes < budget_bytes || burst_bytes > 65535))
        return Error{Errc::invalid_config, "snapshots.burst_bytes must be 0 or budget_bytes..65535"};
    if (!(near_weight > 0.0f && near_weight <= 1e6f))
        return Error{Errc::invalid_config, "snapshots.near_weight must be in (0, 1e6]"};
    if (!(far_weight > 0.0f && far_weight <= near_weight))
        return Error{Errc::invalid_config, "snapshots.far_weight must be in (0, near_weight]"};
    return {};
}

}  // namespace rwd::client_server
