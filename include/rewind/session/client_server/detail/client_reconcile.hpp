/// Client<G> member definitions, part 2: reconciliation, the own player (cached), correction smoothing,
/// interpolation and the render list (via client_impl.hpp).
#pragma once

#include <algorithm>
#include <cmath>

namespace rwd::client_server {

template <class G>
std::optional<typename G::EntitySnapshot> Client<G>::own_in(std::span<const EntityRecord> entities) const {
    const int slot = core_.slot();
    if (slot < 0) return std::nullopt;
    return hooks::record_of<G>(entities, G::player_entity(slot));
}

template <class G>
std::optional<typename G::EntitySnapshot> Client<G>::own_entity() const {
    // Without G::capture_entity this captures the whole world: do it once per predicted state (every change
    // of state_ calls predicted_state_changed()), not once per question.
    if (!own_fresh_ || own_slot_ != core_.slot()) {
        const int slot = core_.slot();
        own_ = slot >= 0 ? hooks::capture_entity<G>(state_, G::player_entity(slot), scratch_) : std::nullopt;
        own_fresh_ = true;
        own_slot_ = core_.slot();
    }
    return own_;
}

template <class G>
std::optional<typename G::EntitySnapshot> Client<G>::smoothed_own_entity() const {
    auto p = own_entity();
    const sync::Offset3 o = smoother_.offset();
    if (!p || (o.x == 0.0 && o.y == 0.0 && o.z == 0.0)) return p;
    return hooks::with_render_offset<G>(*p, std::array<double, 3>{o.x, o.y, o.z});
}

template <class G>
double Client<G>::keep_drawn_player(const std::optional<EntitySnapshot>& predicted_before) {
    // The prediction just moved from predicted_before to where it is now. Draw = prediction + offset, so
    // adding (before - after) to the offset keeps the drawn player exactly where it was; the offset then
    // decays. If the offset that needs is longer than snap_distance_m, the smoother clears it instead: the
    // drawn player snaps.
    const auto after = own_entity();
    if (!predicted_before || !after) {
        smoother_.reset();  // no player before or after: nothing was drawn to stay continuous with
        return 0.0;
    }
    const std::array<double, 3> a = hooks::render_position_m<G>(*predicted_before);
    const std::array<double, 3> b = hooks::render_position_m<G>(*after);
    const sync::Offset3 o = smoother_.offset();
    const sync::Offset3 needed{o.x + a[0] - b[0], o.y + a[1] - b[1], o.z + a[2] - b[2]};
    if (a == b) return smoother_.magnitude();
    const std::uint64_t snapped = smoother_.stats().snapped;
    smoother_.on_correction(sync::Offset3{a[0] - b[0], a[1] - b[1], a[2] - b[2]});
    if (smoother_.stats().snapped != snapped) ++core_.adapter_stats().snaps;
    return std::sqrt(needed.x * needed.x + needed.y * needed.y + needed.z * needed.z);
}

template <class G>
void Client<G>::reconcile(const Snapshot& snap, Micros now) {
    ClientStats& stats = core_.adapter_stats();
    ++stats.reconciliations;
    const auto auth = own_in(snap.entities);
    std::optional<EntitySnapshot> predicted;
    if (snap.has_input) predicted = history_.own_at(snap.last_input_tick, core_.slot(), scratch_);
    const auto predicted_before = own_entity();

    // Rebuild the world from the server's and replay every input it has not applied yet.
    const Tick tick = core_.tick();
    State s;
    G::restore(s, std::span<const EntityRecord>(snap.entities));
    Tick start = has_first_input_ ? first_input_tick_ : tick;
    if (snap.has_input) {
        if (snap.last_input_tick < tick) history_.remember(snap.last_input_tick, s, core_.slot(), scratch_);
        if (snap.last_input_tick + 1 > start) start = snap.last_input_tick + 1;
    }
    if (tick - start > static_cast<std::int32_t>(kHistory) - 1)
        start = tick - (static_cast<std::int32_t>(kHistory) - 1);
    for (Tick t = start; t < tick; ++t) {
        predict_one(s, t);
        ++stats.replayed_ticks;
    }
    state_ = s;
    predicted_state_changed();

    const std::uint64_t snaps_before = stats.snaps;
    const double drawn_offset_m = keep_drawn_player(predicted_before);  // other players' moves may shift ours
    if (!predicted || !auth) return;
    const std::uint32_t fields = hooks::diff_fields<G>(*predicted, *auth);
    if (fields == 0) return;
    Correction c;
    c.tick = snap.last_input_tick;
    c.predicted = *predicted;
    c.authoritative = *auth;
    c.fields = fields;
    c.error_q = hooks::position_error_q<G>(*predicted, *auth);
    c.error_m = static_cast<double>(c.error_q) * hooks::meters_per_unit<G>();
    c.drawn_offset_m = drawn_offset_m;
    c.snapped = stats.snaps != snaps_before;
    ++stats.corrections;
    stats.last_error_m = c.error_m;
    stats.max_error_m = std::max(stats.max_error_m, c.error_m);
    core_.note_correction(now);
    corrections_.push_back(c);
    if (corrections_.size() > core_.config().correction_log_size) corrections_.pop_front();
}

template <class G>
void Client<G>::update_render_time(Micros now) {
    if (!core_.clock().ready()) return;
    if (has_render_sample_ && now == render_sampled_at_)
        return;  // one sample per frame: update() and render share it
    has_render_sample_ = true;
    render_sampled_at_ = now;
    sample_ = interp_.sample(now);
    render_time_ = sample_.sampled_time;
    ClientStats& stats = core_.adapter_stats();
    stats.interp_delay_ticks = interp_.delay_ticks();
    stats.interp_buffer_ticks = interp_.depth(now);
    stats.interp_starvations = interp_.stats().starvations;
    stats.extrapolated_frames = interp_.stats().extrapolated_samples;
    stats.held_frames = interp_.stats().capped_samples;
    if (interp_.size() > 0) {
        const double beyond = sample_.sampled_time - sync::FracTick{interp_.newest_tick(), 0.0};
        stats.max_extrapolation_seen_ticks = std::max(stats.max_extrapolation_seen_ticks, beyond);
    }
}

template <class G>
const std::vector<typename Client<G>::RenderEntity>& Client<G>::render_entities(Micros now) {
    if (netrec_) netrec_->note_render(now);
    update_render_time(now);
    render_.clear();
    const int slot = core_.slot();
    const std::uint32_t own_id = slot >= 0 ? G::player_entity(slot) : 0xFFFFFFFFu;
    if (sample_.from && sample_.to) {
        // Both lists are sorted by id: merge. An entity only in the later one has just appeared: draw it
        // there.
        const auto& a = *sample_.from;
        const auto& b = *sample_.to;
        std::size_t i = 0;
        for (const EntityRecord& e : b) {
            if (e.id == own_id) continue;
            while (i < a.size() && a[i].id < e.id) ++i;
            const bool both = i < a.size() && a[i].id == e.id;
            render_.push_back(RenderEntity{
                e.id, both ? hooks::interpolate<G>(a[i].snap, e.snap, sample_.t) : e.snap, false});
        }
    }
    if (core_.phase() == ClientPhase::playing)
        if (auto own = smoothed_own_entity()) render_.push_back(RenderEntity{own_id, *own, true});
    return render_;
}

template <class G>
std::vector<EntityBufferStats> Client<G>::entity_buffer_stats() const {
    std::vector<EntityBufferStats> out;
    if (interp_.size() == 0) return out;
    const int slot = core_.slot();
    const Tick newest = interp_.newest_tick();
    const double newest_depth = core_.stats().interp_buffer_ticks;  // newest buffered tick - render tick
    // From the newest snapshot back: the first one an entity appears in is its newest.
    for (int i = interp_.size() - 1; i >= 0; --i) {
        const double depth = newest_depth - static_cast<double>(newest - interp_.tick_at(i));
        for (const EntityRecord& e : interp_.snapshot_at(i)) {
            if (slot >= 0 && e.id == G::player_entity(slot)) continue;
            auto it =
                std::lower_bound(out.begin(), out.end(), e.id,
                                 [](const EntityBufferStats& b, std::uint32_t id) { return b.id < id; });
            if (it == out.end() || it->id != e.id) out.insert(it, EntityBufferStats{e.id, depth});
        }
    }
    return out;
}

}  // namespace rwd::client_server
