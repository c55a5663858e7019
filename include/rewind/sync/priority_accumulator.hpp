/// Priorities under a byte budget: per-entity accumulated priority per client, and the greedy packer.
#pragma once

#include <rewind/core/result.hpp>

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace rwd::sync {

/// How distance turns into priority weight.
struct PriorityConfig {
    float near_weight = 1.0f;  ///< weight per snapshot of an entity at distance 0, > 0
    float far_weight =
        0.25f;  ///< weight at the edge of the area of interest (linear in between), > 0, <= near

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// The weight an entity at squared distance `distance_sq` gains per snapshot: near_weight at 0 falling
/// linearly to far_weight at `radius` (and beyond); near_weight when radius <= 0 (no area of interest).
float distance_weight(const PriorityConfig& config, std::uint64_t distance_sq, std::int64_t radius);

/// One client's accumulated priority per entity: each snapshot every relevant entity gains its weight
/// (distance and game weight); the ones sent reset to 0, the ones left out keep growing, so nothing starves.
class PriorityAccumulator {
public:
    /// Adds weights[i] to ids[i] (ids ascending, weights.size() == ids.size()). Entities not listed are
    /// forgotten: they are not relevant any more and start from zero when they come back.
    void accumulate(std::span<const std::uint32_t> ids, std::span<const float> weights);
    /// The accumulated priority of `id` (0 when unknown).
    [[nodiscard]] float priority(std::uint32_t id) const;
    /// Sets `id` back to 0: it was sent.
    void reset(std::uint32_t id);
    /// The accumulated priority of the `i`-th id the last accumulate() was given (no search; i < size()).
    [[nodiscard]] float priority_at(std::size_t i) const {
        assert(i < entries_.size());
        return entries_[i].second;
    }
    /// Sets the `i`-th id the last accumulate() was given back to 0 (no search; i < size()).
    void reset_at(std::size_t i) {
        assert(i < entries_.size());
        entries_[i].second = 0.0f;
    }
    /// Forgets every entity.
    void clear() { entries_.clear(); }
    /// Entities tracked.
    [[nodiscard]] std::size_t size() const { return entries_.size(); }

private:
    std::vector<std::pair<std::uint32_t, float>> entries_;  // ascending id
    std::vector<std::pair<std::uint32_t, float>> next_;
};

/// An entity that would like to go out in this snapshot.
struct PriorityCandidate {
    std::uint32_t index = 0;      ///< the caller's index for it
    float priority = 0.0f;        ///< accumulated priority
    std::uint32_t cost_bits = 0;  ///< bits it costs (upper bound) if sent
    bool forced = false;          ///< always sent (the client's own player), before anything else
};

/// Packs candidates into `budget_bits`: forced ones first, then by descending priority (ties: lower index),
/// each taken if it still fits; the highest-priority unforced one is taken even if it does not fit, so every
/// snapshot makes progress and a tight budget cannot starve an entity. Reorders `candidates` so that the
/// chosen ones come first (in that order) and returns how many were chosen. budget_bits < 0 means no budget.
std::size_t select_within_budget(std::vector<PriorityCandidate>& candidates, std::int64_t budget_bits);

}  // namespace rwd::sync
