/// SnapshotSender<G>: the server's end of delta-coded, interest-managed snapshots.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/session/client_server/detail/server_core.hpp>
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>
#include <rewind/session/client_server/snapshot_config.hpp>
#include <rewind/session/client_server/stats.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_hooks.hpp>
#include <rewind/sync/entity_delta.hpp>
#include <rewind/sync/snapshot_planner.hpp>
#include <rewind/sync/snapshot_window.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <span>
#include <vector>

namespace rwd::client_server {

/// Optional hook: G::entity_position(snap) -> sync::GridPoint (grid units) for the area of interest.
template <class G>
concept HasEntityPosition = requires(const typename G::EntitySnapshot& e) {
    { G::entity_position(e) } -> std::convertible_to<sync::GridPoint>;
};
/// Fallback: an EntitySnapshot with integer members x and y in grid units.
template <class G>
concept HasEntityXY = requires(const typename G::EntitySnapshot& e) {
    { e.x } -> std::convertible_to<std::int32_t>;
    { e.y } -> std::convertible_to<std::int32_t>;
};
/// Optional hook: G::replication_weight(snap) -> float, the game's priority weight of an entity (default 1).
template <class G>
concept HasReplicationWeight = requires(const typename G::EntitySnapshot& e) {
    { G::replication_weight(e) } -> std::convertible_to<float>;
};
/// Whether the area of interest can be used with G (it needs positions).
template <class G>
inline constexpr bool kHasPositions = HasEntityPosition<G> || HasEntityXY<G>;

/// The server's end: one planner shared by all seats, one window and priority set per seat. Per snapshot:
/// begin(world) once, then write(slot, ...) -> send -> commit(slot, ...) per seated client.
template <ReplicatedGame G>
class SnapshotSender {
public:
    using EntityRecord = typename G::EntityRecord;  ///< one entity with its id
    /// A sender for `max_clients` seats with `config` (must be valid).
    SnapshotSender(const SnapshotConfig& config, int max_clients)
        : config_(config),
          planner_(planner_config(config)),
          clients_(static_cast<std::size_t>(std::max(max_clients, 0))),
          coded_ratio_(clients_.size(), 1.0) {
        for (auto& c : clients_) c.reset(static_cast<std::size_t>(config.window));
        if constexpr (HasEntityPrediction<G>)
            if (config.predicted_deltas) planner_.set_predictor(&G::predict_entity);
        if constexpr (HasSnapshotModel<G>)
            if (config.trained_model) range_.model = &G::snapshot_model();
        range_.trainer = config.range_trainer;
        std::array<std::uint8_t, 8> buffer{};  // an empty section is a few bits
        wire::WriteStream w{std::span<std::uint8_t>(buffer)};
        SnapshotEntities<EntityRecord> empty;
        (void)write_snapshot_entities(w, empty);
        empty_section_bits_ = w.bits_used();
    }

    /// A new client took `slot`: no baseline, no priorities.
    void reset(int slot) {
        clients_.at(static_cast<std::size_t>(slot)).reset(static_cast<std::size_t>(config_.window));
        coded_ratio_.at(static_cast<std::size_t>(slot)) = 1.0;
    }
    /// Whether the newest snapshot sent to `slot` carried entity `id` (what that client can see now).
    [[nodiscard]] bool holds(int slot, std::uint32_t id) const {
        const auto& w = clients_.at(static_cast<std::size_t>(slot)).window;
        if (!w.has_newest()) return false;
        const auto* e = w.find(w.newest_sequence());
        if (e == nullptr) return false;
        const auto it = std::lower_bound(e->entities.begin(), e->entities.end(), id,
                                         [](const EntityRecord& r, std::uint32_t v) { return r.id < v; });
        return it != e->entities.end() && it->id == id;
    }
    /// The entities `slot` drew at a time between `tick` and `tick + 1`: those of the first snapshot sent to
    /// it for a later tick (sorted by id), or nullptr when that snapshot is no longer (or not yet) in its
    /// window.
    [[nodiscard]] const std::vector<EntityRecord>* drawn_after(int slot, Tick tick) const {
        const auto* e = clients_.at(static_cast<std::size_t>(slot)).window.first_after(tick);
        return e ? &e->entities : nullptr;
    }
    /// The client in `slot` acknowledged the snapshot of `tick` (untrusted).
    void ack(int slot, Tick tick) { (void)clients_.at(static_cast<std::size_t>(slot)).window.ack(tick); }
    /// Optional relevance filter/weight (null: area of interest only).
    void set_relevance(sync::RelevanceFn<EntityRecord> fn, void* user) {
        relevance_ = fn;
        relevance_user_ = user;
    }

    /// This snapshot's world, every entity sorted by id (must stay alive until the last commit).
    void begin(const std::vector<EntityRecord>& world) {
        world_ = &world;
        positions_.clear();
        weights_.clear();
        remote_.clear();
        for (const EntityRecord& e : world) {
            if constexpr (HasEntityPosition<G>)
                positions_.push_back(G::entity_position(e.snap));
            else if constexpr (HasEntityXY<G>)
                positions_.push_back(sync::GridPoint{static_cast<std::int32_t>(e.snap.x),
                                                     static_cast<std::int32_t>(e.snap.y)});
            if constexpr (HasReplicationWeight<G>)
                weights_.push_back(static_cast<float>(G::replication_weight(e.snap)));
            if constexpr (HasRemoteView<G>) {
                remote_.push_back(e);
                remote_.back().snap = G::remote_view(e.snap);
            }
        }
        if constexpr (HasRemoteView<G>)
            planner_.set_world(std::span<const EntityRecord>(remote_), positions_, weights_,
                               std::span<const EntityRecord>(world));
        else
            planner_.set_world(std::span<const EntityRecord>(world), positions_, weights_);
    }

    /// Writes the entity section of `slot`'s snapshot (whose header `head`, `head_bits` long, is already in
    /// `s`): the relevant entities, delta-coded against the client's acknowledged baseline, by priority
    /// within `budget_bytes` for the whole message. Fills `out`; false with the stream's error when it
    /// cannot.
    bool write(int slot, const SnapshotHeader& head, std::size_t head_bits, std::size_t budget_bytes,
               wire::WriteStream& s, SnapshotSectionStats& out) {
        auto& client = clients_.at(static_cast<std::size_t>(slot));
        // Bits outside the entity list: the header, plus an empty section less its one "nothing enters" bit.
        header_bits_ = head_bits + empty_section_bits_ - 1;
        // Leave room for the byte padding; the header always goes. The planner prices entities in bit-packed
        // bits: a range-coded list takes about coded_ratio_ of those, so the budget is scaled by it.
        const auto budget_bits =
            static_cast<std::int64_t>(budget_bytes * 8) - static_cast<std::int64_t>(header_bits_) - 7;
        double& ratio = coded_ratio_.at(static_cast<std::size_t>(slot));
        const double scale = config_.range_coded ? 1.0 / ratio : 1.0;
        planner_.set_budget_bits(
            std::max<std::int64_t>(static_cast<std::int64_t>(static_cast<double>(budget_bits) * scale), 0));
        const std::uint32_t own = G::player_entity(slot);
        const auto& w = *world_;
        const auto it = std::lower_bound(w.begin(), w.end(), own,
                                         [](const EntityRecord& e, std::uint32_t id) { return e.id < id; });
        const int viewer = it != w.end() && it->id == own ? static_cast<int>(it - w.begin()) : -1;
        planner_.set_now(head.server_tick);
        planner_.plan(client, head.sequence, viewer, plan_, relevance_, relevance_user_, slot);
        if (!write_entity_section(s, plan_.baseline_age, plan_.baseline, plan_.held, plan_.stale,
                                  std::span<const EntityRecord>(plan_.reference),
                                  config_.range_coded ? &range_ : nullptr))
            return false;
        if (config_.range_coded && range_.writer && range_.writer->ok() &&
            plan_.stats.planned_bits >= kMinRatioSampleBits) {
            // The list went range-coded (a list that did not fit fell back to packing): learn the ratio.
            const double sample = static_cast<double>(range_.writer->bytes_used() * 8) /
                                  static_cast<double>(plan_.stats.planned_bits);
            ratio = std::clamp(ratio + (sample - ratio) / 8.0, kMinCodedRatio, kMaxCodedRatio);
        }
        out.relevant = plan_.stats.relevant;
        out.left_out = plan_.stats.stale + plan_.stats.deferred;
        out.has_baseline = plan_.stats.has_baseline;
        out.header_bits = header_bits_;
        if (config_.measure_previous_codec) {
            // The same section under the previous codec, to measure what the new one saves.
            out.unpredicted_bytes = (head_bits + previous_codec_bits() + 7) / 8;
        }
        return true;
    }

    /// The snapshot last written for `slot` went out: what it made the client hold may become a baseline.
    void commit(int slot, const SnapshotHeader& head) {
        planner_.commit(clients_.at(static_cast<std::size_t>(slot)), head.sequence, head.server_tick, plan_);
    }

    /// What the last write() decided.
    [[nodiscard]] const sync::SnapshotPlanStats& last_plan() const { return plan_.stats; }
    /// Bits of the last prepared packet outside its entity list (type, header, baseline age, padding
    /// excluded).
    [[nodiscard]] std::size_t last_header_bits() const { return header_bits_; }

    /// The planner config derived from `c` for G's grid units.
    static sync::SnapshotPlannerConfig planner_config(const SnapshotConfig& c) {
        sync::SnapshotPlannerConfig p;
        p.window = static_cast<std::size_t>(c.window);
        const double units = 1.0 / hooks::meters_per_unit<G>();
        p.aoi_radius = kHasPositions<G> ? static_cast<std::int64_t>(std::llround(c.aoi_radius_m * units)) : 0;
        p.grid.cell_size = static_cast<std::int32_t>(std::clamp(std::round(c.cell_size_m * units), 1.0, 2e9));
        p.priority.near_weight = c.near_weight;
        p.priority.far_weight = c.far_weight;
        p.max_entities = kMaxSnapshotEntities;
        // Only a range-coded list needs the bit-packed size before it is written (to learn coded_ratio_); a
        // bit-packed list is written right after the plan, and nothing reads the figure.
        p.measure_planned_bits = c.range_coded;
        return p;
    }

private:
    // Bits of the last plan's section as the previous codec (bit-packed, against the plain baseline) writes
    // it: written for real into a scratch buffer that grows until it fits, so that the game's codec runs on
    // no stream type of its own for this figure.
    std::size_t previous_codec_bits() {
        if (previous_codec_scratch_.empty()) previous_codec_scratch_.resize(4096);
        for (;;) {
            wire::WriteStream w{std::span<std::uint8_t>(previous_codec_scratch_)};
            const bool ok =
                write_entity_section(w, plan_.baseline_age, plan_.baseline, plan_.held, plan_.stale);
            if (ok || w.error() != Errc::out_of_space) return w.bits_used();
            previous_codec_scratch_.resize(previous_codec_scratch_.size() * 2);
        }
    }

    // The coded-to-packed ratio: learned over ~8 snapshots from lists of at least 64 packed bits, and held
    // to [0.25, 1.5] (a coder never needs much more than packing; a ratio far below what was seen would let
    // one snapshot overspend the budget many times over before it is corrected).
    static constexpr std::int64_t kMinRatioSampleBits = 64;
    static constexpr double kMinCodedRatio = 0.25;
    static constexpr double kMaxCodedRatio = 1.5;

    SnapshotConfig config_;
    sync::SnapshotPlanner<EntityRecord> planner_;
    std::vector<sync::SnapshotClient<EntityRecord>> clients_;
    std::vector<double> coded_ratio_;  // per seat: range-coded list bits / bit-packed bits, 1 until measured
    const std::vector<EntityRecord>* world_ = nullptr;
    std::vector<sync::GridPoint> positions_;
    std::vector<float> weights_;
    std::vector<EntityRecord> remote_;  // the world as clients other than an entity's owner receive it
    RangeSectionScratch range_;         // the range coder of the entity lists
    sync::SnapshotPlan<EntityRecord> plan_;
    sync::RelevanceFn<EntityRecord> relevance_ = nullptr;
    void* relevance_user_ = nullptr;
    std::size_t header_bits_ = 0;
    std::vector<std::uint8_t> previous_codec_scratch_;  // previous_codec_bits()
    std::size_t empty_section_bits_ = 0;                // an entity section with nothing in it
};

}  // namespace rwd::client_server
