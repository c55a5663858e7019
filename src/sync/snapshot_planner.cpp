/// SnapshotPlannerBase: the entity-type-independent half of the snapshot planner (interest, weights, budget).
#include <rewind/sync/snapshot_planner.hpp>

#include <algorithm>

namespace rwd::sync {

SnapshotPlannerBase::SnapshotPlannerBase(const SnapshotPlannerConfig& config)
    : config_(config), grid_(config.grid) {}

void SnapshotPlannerBase::set_world_index(std::span<const GridPoint> positions,
                                          std::span<const float> weights) {
    positions_ = positions;
    weights_ = weights;
    if (spatial()) grid_.build(positions);
}

void SnapshotPlannerBase::select_relevant(SnapshotInterest& client, int viewer, IndexRelevance relevance,
                                          const void* context) {
    const bool spatial_plan = spatial();
    if (viewer >= 0 && static_cast<std::size_t>(viewer) < positions_.size()) {
        client.has_viewer = true;
        client.viewer = positions_[static_cast<std::size_t>(viewer)];
    }
    relevant_.clear();
    if (spatial_plan && client.has_viewer) {
        grid_.query(client.viewer, config_.aoi_radius, relevant_);
    } else {
        for (std::uint32_t i = 0; i < world_ids_.size(); ++i) relevant_.push_back(i);
    }
    if (viewer >= 0 && static_cast<std::size_t>(viewer) < world_ids_.size() &&
        !std::binary_search(relevant_.begin(), relevant_.end(), static_cast<std::uint32_t>(viewer))) {
        relevant_.insert(
            std::lower_bound(relevant_.begin(), relevant_.end(), static_cast<std::uint32_t>(viewer)),
            static_cast<std::uint32_t>(viewer));
    }
    ids_.clear();
    weights_out_.clear();
    std::size_t kept = 0;
    for (std::uint32_t idx : relevant_) {
        float w = idx < weights_.size() ? weights_[idx] : 1.0f;
        if (relevance != nullptr && static_cast<int>(idx) != viewer) w *= relevance(context, idx);
        if (!(w > 0.0f) && static_cast<int>(idx) != viewer) continue;
        if (!(w > 0.0f)) w = 1.0f;
        if (spatial_plan && client.has_viewer)
            w *= distance_weight(config_.priority, distance_squared(positions_[idx], client.viewer),
                                 config_.aoi_radius);
        relevant_[kept++] = idx;
        ids_.push_back(world_ids_[idx]);
        weights_out_.push_back(w);
    }
    relevant_.resize(kept);
    if (relevant_.size() > config_.max_entities)
        relevant_.resize(config_.max_entities);  // the rest next time
    ids_.resize(relevant_.size());
    weights_out_.resize(relevant_.size());
    client.priorities.accumulate(ids_, weights_out_);
}

std::int64_t SnapshotPlannerBase::choose(SnapshotInterest& client, std::int64_t mandatory) {
    const std::int64_t budget =
        config_.budget_bits < 0 ? -1 : std::max<std::int64_t>(0, config_.budget_bits - mandatory);
    std::int64_t wanted = 0;
    for (const PriorityCandidate& c : candidates_) wanted += c.cost_bits;
    // When everything fits, the packer takes everything: no need to rank them (the usual case, the budget
    // being a safety valve).
    const std::size_t chosen =
        budget < 0 || wanted <= budget ? candidates_.size() : select_within_budget(candidates_, budget);
    std::int64_t planned = mandatory;
    chosen_.assign(world_ids_.empty() ? 0 : relevant_.size(), 0);
    for (std::size_t c = 0; c < chosen; ++c) {
        planned += candidates_[c].cost_bits;
        const std::size_t pos = candidates_[c].index;  // its place in relevant_, and in the priorities
        chosen_[pos] = 1;
        client.priorities.reset_at(pos);
    }
    return planned;
}

}  // namespace rwd::sync
