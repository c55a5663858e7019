// PriorityAccumulator and select_within_budget: accumulated priorities and the greedy budget packer.
#include <rewind/sync/priority_accumulator.hpp>

#include <algorithm>
#include <cmath>

namespace rwd::sync {

Status PriorityConfig::validate() const {
    if (!(near_weight > 0.0f && near_weight <= 1e6f))
        return Error{Errc::invalid_config, "near_weight not in (0, 1e6]"};
    if (!(far_weight > 0.0f && far_weight <= near_weight))
        return Error{Errc::invalid_config, "far_weight not in (0, near_weight]"};
    return {};
}

float distance_weight(const PriorityConfig& config, std::uint64_t distance_sq, std::int64_t radius) {
    if (radius <= 0) return config.near_weight;
    const double d = std::sqrt(static_cast<double>(distance_sq));
    const double f = std::min(1.0, d / static_cast<double>(radius));
    return static_cast<float>(config.near_weight + (config.far_weight - config.near_weight) * f);
}

void PriorityAccumulator::accumulate(std::span<const std::uint32_t> ids, std::span<const float> weights) {
    next_.clear();
    std::size_t e = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        while (e < entries_.size() && entries_[e].first < ids[i]) ++e;
        const float before = e < entries_.size() && entries_[e].first == ids[i] ? entries_[e].second : 0.0f;
        const float w = i < weights.size() ? weights[i] : 0.0f;
        next_.emplace_back(ids[i], before + w);
    }
    entries_.swap(next_);
}

float PriorityAccumulator::priority(std::uint32_t id) const {
    auto it = std::lower_bound(
        entries_.begin(), entries_.end(), id,
        [](const std::pair<std::uint32_t, float>& p, std::uint32_t v) { return p.first < v; });
    return it != entries_.end() && it->first == id ? it->second : 0.0f;
}

void PriorityAccumulator::reset(std::uint32_t id) {
    auto it = std::lower_bound(
        entries_.begin(), entries_.end(), id,
        [](const std::pair<std::uint32_t, float>& p, std::uint32_t v) { return p.first < v; });
    if (it != entries_.end() && it->first == id) it->second = 0.0f;
}

std::size_t select_within_budget(std::vector<PriorityCandidate>& candidates, std::int64_t budget_bits) {
    std::sort(candidates.begin(), candidates.end(),
              [](const PriorityCandidate& a, const PriorityCandidate& b) {
                  if (a.forced != b.forced) return a.forced;
                  if (a.priority != b.priority) return a.priority > b.priority;
                  return a.index < b.index;
              });
    const bool unlimited = budget_bits < 0;
    std::int64_t left = budget_bits;
    bool took_unforced = false;
    std::size_t chosen = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const PriorityCandidate& c = candidates[i];
        const bool take = unlimited || c.forced || !took_unforced || std::int64_t{c.cost_bits} <= left;
        if (!take) continue;
        if (!c.forced) took_unforced = true;
        left -= c.cost_bits;
        std::swap(candidates[chosen], candidates[i]);  // chosen ones move to the front, in order
        ++chosen;
    }
    return chosen;
}

}  // namespace rwd::sync
