/// SnapshotPlanner: per client, picks what goes into a snapshot (interest, priorities, budget) against its
/// baseline.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/sync/entity_delta.hpp>
#include <rewind/sync/interest_grid.hpp>
#include <rewind/sync/priority_accumulator.hpp>
#include <rewind/sync/snapshot_window.hpp>

#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace rwd::sync {

/// Settings for SnapshotPlanner.
struct SnapshotPlannerConfig {
    std::size_t window = 32;        ///< snapshots kept per client for baselines, 1..64
    std::int64_t aoi_radius = 0;    ///< area of interest in grid units; 0 = everything relevant
    InterestGridConfig grid{};      ///< the spatial grid (cell size in grid units)
    PriorityConfig priority{};      ///< distance weights
    std::int64_t budget_bits = -1;  ///< entity-section bits per snapshot; < 0 = no budget
    std::uint32_t max_entities = kDefaultMaxEntities;  ///< most entities in one client's list, 1..65535
    /// Whether each plan measures its list's exact bits with the codec (SnapshotPlanStats::planned_bits; 0
    /// when off). A caller that writes the list anyway and needs no figure before it saves that pass.
    bool measure_planned_bits = true;

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const {
        if (window < 1 || window > kMaxSnapshotWindow)
            return Error{Errc::invalid_config, "window not in 1..64"};
        if (aoi_radius < 0 || aoi_radius > (std::int64_t{1} << 32))
            return Error{Errc::invalid_config, "aoi_radius not in 0..2^32"};
        if (max_entities < 1 || max_entities > 65535)
            return Error{Errc::invalid_config, "max_entities not in 1..65535"};
        if (auto s = grid.validate(); !s.ok()) return s;
        return priority.validate();
    }
};

/// What one plan decided (also the per-snapshot measurement).
struct SnapshotPlanStats {
    std::uint32_t relevant = 0;       ///< entities relevant to this client
    std::uint32_t unchanged = 0;      ///< relevant and equal to the baseline (1 bit each)
    std::uint32_t changed = 0;        ///< sent as a delta
    std::uint32_t entered = 0;        ///< sent in full (not in the baseline)
    std::uint32_t removed = 0;        ///< in the baseline but no longer relevant
    std::uint32_t stale = 0;          ///< changed but left out by the budget (keep their baseline value)
    std::uint32_t deferred = 0;       ///< entering but left out by the budget
    std::int64_t estimated_bits = 0;  ///< the selection's upper bound of the entity list's bits
    std::int64_t planned_bits = 0;    ///< the entity list's bits, measured with the codec itself (0 unless
                                      ///< SnapshotPlannerConfig::measure_planned_bits)
    bool has_baseline = false;        ///< encoded against an acknowledged snapshot
};

/// What the server keeps per client whatever its entity type: accumulated priorities and the last viewpoint.
struct SnapshotInterest {
    PriorityAccumulator priorities;  ///< its per-entity priorities
    bool has_viewer = false;         ///< whether its viewpoint was ever known
    GridPoint viewer{};              ///< its last viewpoint (used while its own entity is absent)
};

/// What the server keeps per client: its sent snapshots (baselines) and accumulated priorities.
template <class Record>
struct SnapshotClient : SnapshotInterest {
    SnapshotWindow<Record> window{32};  ///< snapshots sent to it
    /// Forgets everything (a new connection).
    void reset(std::size_t window_size) {
        window.set_capacity(window_size);
        priorities.clear();
        has_viewer = false;
    }
};

/// A snapshot plan for one client: encode `held` with `stale` against `baseline` (age `baseline_age`, 0 =
/// none) and its predicted `reference`, then commit() it to the client's window.
template <class Record>
struct SnapshotPlan {
    std::span<const Record> baseline{};  ///< the baseline's entities (empty without one)
    std::vector<Record> reference;       ///< the baseline advanced by the prediction (empty: no prediction)
    std::int32_t prediction_ticks = 0;   ///< the ticks the reference is advanced by
    std::uint8_t baseline_age = 0;       ///< sequence - baseline sequence, 1..64; 0 = empty baseline
    std::vector<Record> held;            ///< what the client will hold after decoding, sorted by id
    std::vector<std::uint32_t> stale;    ///< ids kept at their baseline value, ascending
    SnapshotPlanStats stats{};           ///< what was decided
};

/// Optional game relevance: the weight multiplier of `entity` for client `client` (<= 0: not relevant to it).
template <class Record>
using RelevanceFn = float (*)(void* user, int client, const Record& entity);

/// The half of SnapshotPlanner that does not depend on the entity type, compiled once in the library: the
/// area of interest, the weights and priorities, and the byte budget's choice.
class SnapshotPlannerBase {
public:
    /// Changes the entity-section budget (bits per snapshot; < 0 = none) for the following plans.
    void set_budget_bits(std::int64_t bits) { config_.budget_bits = bits; }
    /// The config in use.
    [[nodiscard]] const SnapshotPlannerConfig& config() const { return config_; }

protected:
    /// The game's relevance of the world's entity `index` to the client being planned (<= 0: not relevant).
    using IndexRelevance = float (*)(const void* context, std::uint32_t index);

    explicit SnapshotPlannerBase(const SnapshotPlannerConfig& config);

    /// This snapshot's positions and weights (see SnapshotPlanner::set_world); world_ids_ must hold the ids.
    void set_world_index(std::span<const GridPoint> positions, std::span<const float> weights);
    /// Fills relevant_ (ascending world indices, at most max_entities), ids_ and weights_out_ with what is
    /// relevant to `client`, whose own entity `viewer` (-1: none) is always among them, and adds the weights
    /// to its priorities. `relevance` may be null.
    void select_relevant(SnapshotInterest& client, int viewer, IndexRelevance relevance, const void* context);
    /// Chooses among candidates_ (each indexed by its position in relevant_, so ties go to the lower world
    /// index) within the budget left after `mandatory` bits, marks chosen_ and resets the chosen entities'
    /// priorities. Returns the bits planned.
    std::int64_t choose(SnapshotInterest& client, std::int64_t mandatory);
    /// Whether this plan uses the area of interest (a radius, and a position per entity).
    [[nodiscard]] bool spatial() const {
        return config_.aoi_radius > 0 && positions_.size() == world_ids_.size();
    }

    SnapshotPlannerConfig config_;
    InterestGrid grid_;
    std::vector<std::uint32_t> world_ids_;  // this snapshot's entity ids, in world order
    std::span<const GridPoint> positions_{};
    std::span<const float> weights_{};
    std::vector<std::uint32_t> relevant_;
    std::vector<std::uint32_t> ids_;
    std::vector<float> weights_out_;
    std::vector<PriorityCandidate> candidates_;
    std::vector<std::uint8_t> chosen_;
};

/// Shared by all clients of a server: set_world() once per snapshot, then plan() and commit() per client.
/// Record needs `std::uint32_t id`, `snap` with ==, and ADL serialize (and optionally serialize_delta) on the
/// snap.
template <class Record>
class SnapshotPlanner : public SnapshotPlannerBase {
public:
    using Snap = std::remove_cvref_t<decltype(std::declval<Record&>().snap)>;  ///< one entity's value
    /// A game's prediction: `snap` advanced by `ticks` (0..kMaxPredictionTicks), deterministic.
    using PredictFn = Snap (*)(const Snap& snap, std::int32_t ticks);

    /// A planner with `config` (must be valid).
    explicit SnapshotPlanner(const SnapshotPlannerConfig& config) : SnapshotPlannerBase(config) {}

    /// Codes every entity against its baseline value advanced by `fn` (null: against the baseline value).
    void set_predictor(PredictFn fn) { predict_ = fn; }
    /// The server tick of the snapshots planned next (a baseline's prediction runs from its tick to this).
    void set_now(Tick tick) { now_ = tick; }

    /// This snapshot's world: every entity sorted by id, with its position and game weight (weights may be
    /// empty: all 1). `owner_view` (empty, or the same entities in the same order) is what the client that
    /// controls an entity receives of it, where `entities` is what every other client receives (a game's
    /// owner-only fields left out); one of another size or with other ids is ignored. The spans must stay
    /// valid until the last plan() of this snapshot.
    void set_world(std::span<const Record> entities, std::span<const GridPoint> positions,
                   std::span<const float> weights = {}, std::span<const Record> owner_view = {}) {
        world_ = entities;
        world_ids_.resize(entities.size());
        bool same_ids = owner_view.size() == entities.size();
        for (std::size_t i = 0; i < entities.size(); ++i) {
            world_ids_[i] = entities[i].id;
            same_ids = same_ids && owner_view[i].id == entities[i].id;
        }
        owner_world_ = same_ids ? owner_view : std::span<const Record>{};
        set_world_index(positions, weights);
    }

    /// Plans `client`'s next snapshot. `viewer` is the index in the world of the entity the client controls
    /// (-1: none; it is always sent first when it changed). `relevance` may be null.
    void plan(SnapshotClient<Record>& client, std::uint16_t sequence, int viewer, SnapshotPlan<Record>& out,
              RelevanceFn<Record> relevance = nullptr, void* user = nullptr, int client_id = 0) {
        out.held.clear();
        out.stale.clear();
        out.stats = {};
        const auto* base = client.window.baseline();
        out.baseline = base ? std::span<const Record>(base->entities) : std::span<const Record>{};
        out.baseline_age =
            base ? static_cast<std::uint8_t>(static_cast<std::uint16_t>(sequence - base->sequence)) : 0;
        out.stats.has_baseline = base != nullptr;
        out.reference.clear();
        out.prediction_ticks = 0;
        if (base != nullptr && predict_ != nullptr) {
            out.prediction_ticks = prediction_ticks(std::int64_t{now_ - base->tick});
            predict_records(out.baseline, out.prediction_ticks, predict_, out.reference);
        }
        const std::span<const Record> ref =
            out.reference.empty() ? out.baseline : std::span<const Record>(out.reference);

        // Relevant entities (ascending world indices) and their weights.
        if (relevance != nullptr) {
            const GameRelevance ctx{this, relevance, user, client_id, viewer};
            select_relevant(client, viewer, &GameRelevance::of, &ctx);
        } else {
            select_relevant(client, viewer, nullptr, nullptr);
        }
        out.stats.relevant = static_cast<std::uint32_t>(relevant_.size());

        // Merge with the baseline: unchanged and removed are decided; changed and entering become candidates.
        candidates_.clear();
        std::int64_t mandatory = 1 + static_cast<std::int64_t>(wire::bits_required(config_.max_entities - 1));
        std::size_t b = 0;
        const auto& bl = out.baseline;
        // select_relevant() gave the priorities exactly the relevant ids, in order: entity k's is at k.
        for (std::size_t k = 0; k < relevant_.size(); ++k) {
            const std::uint32_t idx = relevant_[k];
            const Record& e = entity(idx, viewer);
            while (b < bl.size() && bl[b].id < e.id) mandatory += 3, ++out.stats.removed, ++b;
            const bool forced = static_cast<int>(idx) == viewer;
            const float pri = client.priorities.priority_at(k);
            if (b < bl.size() && bl[b].id == e.id) {
                if (ref[b].snap == e.snap) {
                    mandatory += 1;
                    ++out.stats.unchanged;
                    client.priorities.reset_at(k);  // the client already holds this value
                } else {
                    mandatory += 3;  // as stale, if left out
                    const auto cost = 2 + delta_entity_bits(e.snap, ref[b].snap);
                    candidates_.push_back({static_cast<std::uint32_t>(k), pri,
                                           static_cast<std::uint32_t>(cost > 3 ? cost - 3 : 0), forced});
                }
                ++b;
            } else {
                const auto cost = entering_id_bits_max(e.id) + full_entity_bits(e.snap);
                candidates_.push_back(
                    {static_cast<std::uint32_t>(k), pri, static_cast<std::uint32_t>(cost), forced});
            }
        }
        for (; b < bl.size(); ++b) mandatory += 3, ++out.stats.removed;

        out.stats.estimated_bits = choose(client, mandatory);

        // What the client holds after decoding.
        b = 0;
        for (std::size_t r = 0; r < relevant_.size(); ++r) {
            const Record& e = entity(relevant_[r], viewer);
            while (b < bl.size() && bl[b].id < e.id) ++b;
            const bool in_base = b < bl.size() && bl[b].id == e.id;
            if (in_base && ref[b].snap == e.snap) {
                out.held.push_back(e);
            } else if (chosen_[r]) {
                out.held.push_back(e);
                if (in_base)
                    ++out.stats.changed;
                else
                    ++out.stats.entered;
            } else if (in_base) {
                out.held.push_back(bl[b]);
                out.stale.push_back(e.id);
                ++out.stats.stale;
            } else {
                ++out.stats.deferred;
            }
        }
        // The exact size, from the codec itself (the selection above used upper bounds).
        if (config_.measure_planned_bits) {
            wire::MeasureStream m;
            (void)serialize_entity_delta(m, out.baseline, out.held, out.stale, config_.max_entities, ref);
            out.stats.planned_bits = static_cast<std::int64_t>(m.bits_used());
        }
    }

    /// Stores the plan's view as snapshot `sequence` for `tick` in the client's window (after encoding it:
    /// the baseline span stays valid until then).
    void commit(SnapshotClient<Record>& client, std::uint16_t sequence, Tick tick,
                const SnapshotPlan<Record>& plan) {
        std::vector<Record>& slot = client.window.push(sequence, tick);
        slot.assign(plan.held.begin(), plan.held.end());
    }

private:
    /// A game relevance function bound to the client being planned, asked by world index.
    struct GameRelevance {
        const SnapshotPlanner* planner;
        RelevanceFn<Record> fn;
        void* user;
        int client_id;
        int viewer;
        static float of(const void* context, std::uint32_t index) {
            const auto& g = *static_cast<const GameRelevance*>(context);
            return g.fn(g.user, g.client_id, g.planner->entity(index, g.viewer));
        }
    };

    /// The world's entity `idx` as the client whose own entity is `viewer` receives it.
    const Record& entity(std::uint32_t idx, int viewer) const {
        return static_cast<int>(idx) == viewer && !owner_world_.empty() ? owner_world_[idx] : world_[idx];
    }

    std::span<const Record> world_{};
    std::span<const Record> owner_world_{};
    PredictFn predict_ = nullptr;
    Tick now_{};
};

}  // namespace rwd::sync
