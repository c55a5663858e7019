/// Client<G> member definitions, part 2: snapshots, reconciliation, correction smoothing and interpolation
/// (via client_impl.hpp).
#pragma once

#include <algorithm>
#include <cmath>

namespace rwd::client_server {

template <ReplicatedGame G>
std::optional<typename G::EntitySnapshot> Client<G>::own_in(std::span<const EntityRecord> entities) const {
    if (slot_ < 0) return std::nullopt;
    const std::uint32_t id = G::player_entity(slot_);
    auto it = std::lower_bound(entities.begin(), entities.end(), id,
                               [](const EntityRecord& e, std::uint32_t v) { return e.id < v; });
    if (it == entities.end() || it->id != id) return std::nullopt;
    return it->snap;
}

template <ReplicatedGame G>
std::optional<typename G::EntitySnapshot> Client<G>::own_entity() const {
    G::capture(state_, scratch_);
    return own_in(scratch_);
}

template <ReplicatedGame G>
std::optional<typename G::EntitySnapshot> Client<G>::smoothed_own_entity() const {
    auto p = own_entity();
    const sync::Offset3 o = smoother_.offset();
    if (!p || (o.x == 0.0 && o.y == 0.0 && o.z == 0.0)) return p;
    return G::with_render_offset(*p, std::array<double, 3>{o.x, o.y, o.z});
}

template <ReplicatedGame G>
double Client<G>::carry_view(const std::optional<EntitySnapshot>& predicted_before) {
    // The prediction just moved from predicted_before to where it is now. Draw = prediction + offset, so
    // adding (before - after) to the offset keeps the drawn player exactly where it was; the offset then
    // decays. If the offset that needs is longer than snap_distance_m, the smoother clears it instead: the
    // view snaps.
    const auto after = own_entity();
    if (!predicted_before || !after) {
        smoother_.reset();  // no player before or after: nothing was drawn to stay continuous with
        return 0.0;
    }
    const std::array<double, 3> a = G::render_position_m(*predicted_before);
    const std::array<double, 3> b = G::render_position_m(*after);
    const sync::Offset3 o = smoother_.offset();
    const sync::Offset3 needed{o.x + a[0] - b[0], o.y + a[1] - b[1], o.z + a[2] - b[2]};
    if (a == b) return smoother_.magnitude();
    const std::uint64_t snapped = smoother_.stats().snapped;
    smoother_.on_correction(sync::Offset3{a[0] - b[0], a[1] - b[1], a[2] - b[2]});
    if (smoother_.stats().snapped != snapped) ++stats_.snaps;
    return std::sqrt(needed.x * needed.x + needed.y * needed.y + needed.z * needed.z);
}

template <ReplicatedGame G>
void Client<G>::on_snapshot(Snapshot& snap, Micros now) {
    if (has_snapshot_ && snap.server_tick <= newest_snapshot_tick_) {
        ++stats_.snapshots_stale;  // reordered or duplicated: a newer state is already in
        return;
    }
    ++stats_.snapshots_received;
    // Loss from sequence numbers: expected = span of sequences seen, received = count (window halves as it
    // ages).
    if (!has_seq_) {
        has_seq_ = true;
        newest_seq_ = snap.sequence;
        seq_expected_window_ = seq_received_window_ = 1;
    } else {
        const std::int32_t d = seq_diff(snap.sequence, newest_seq_);
        if (d > 0) {
            seq_expected_window_ += static_cast<std::uint64_t>(d);
            newest_seq_ = snap.sequence;
        }
        ++seq_received_window_;
        if (seq_expected_window_ >= 120) {
            stats_.loss = 1.0 - std::min(1.0, static_cast<double>(seq_received_window_) /
                                                  static_cast<double>(seq_expected_window_));
            seq_expected_window_ /= 2;
            seq_received_window_ /= 2;
        }
    }

    // The snapshot holds the state after tick X and leaves the server right after it ran X, when the server's
    // clock reads X + 1: that is the stamp clock sync wants.
    clock_.on_server_tick(snap.server_tick + 1, now);
    // The echo carries the low 32 bits of our send time; the difference is taken modulo 2^32 (71 minutes).
    const auto since_ping =
        static_cast<std::uint32_t>(static_cast<std::uint32_t>(now.count) - snap.pong_time);
    if (snap.pong_time != 0 && since_ping < 10'000'000u)
        clock_.on_pong(now - Micros{since_ping}, now, Micros{snap.pong_hold_us});
    const double tick_us = 1e6 / config_.tick_rate_hz;
    if (snap.has_input) {
        stats_.server_input_offset_ticks = snap.arrival_offset_us / tick_us;
        clock_.on_input_offset(stats_.server_input_offset_ticks);
    }
    stats_.server_input_buffer_depth = snap.input_buffer_depth;
    stats_.server_tick_drift =
        clock_.estimated_server_tick(now) -
        sync::FracTick::at(snap.server_tick, clock_.rtt().seconds() * config_.tick_rate_hz / 2);

    receiver_.accept(snap,
                     latest_.entities);  // keep it as a baseline; stale entities show their newest value
    has_snapshot_ = true;
    newest_snapshot_tick_ = snap.server_tick;
    interp_.push(snap.server_tick, snap.entities, now);
    has_view_time_ = false;  // the sample's pointers die with a push: sample again
    std::swap(latest_, snap);
    if (phase_ == ClientPhase::playing) reconcile(latest_, now);
}

template <ReplicatedGame G>
void Client<G>::reconcile(const Snapshot& snap, Micros now) {
    ++stats_.reconciliations;
    const auto auth = own_in(snap.entities);
    std::optional<EntitySnapshot> predicted;
    if (snap.has_input)
        if (const State* at = states_.find(snap.last_input_tick)) {
            G::capture(*at, scratch_);
            predicted = own_in(scratch_);
        }
    const auto predicted_before = own_entity();

    // Rebuild the world from the server's and replay every input it has not applied yet.
    State s;
    G::restore(s, std::span<const EntityRecord>(snap.entities));
    Tick start = has_first_input_ ? first_input_tick_ : tick_;
    if (snap.has_input) {
        if (snap.last_input_tick < tick_)
            if (State* at = states_.insert(snap.last_input_tick)) *at = s;
        if (snap.last_input_tick + 1 > start) start = snap.last_input_tick + 1;
    }
    if (tick_ - start > static_cast<std::int32_t>(kHistory) - 1)
        start = tick_ - (static_cast<std::int32_t>(kHistory) - 1);
    for (Tick t = start; t < tick_; ++t) {
        predict_one(s, t);
        ++stats_.replayed_ticks;
    }
    state_ = s;

    const std::uint64_t snaps_before = stats_.snaps;
    const double view_offset_m = carry_view(predicted_before);  // other players' moves may shift ours too
    if (!predicted || !auth) return;
    const std::uint32_t fields = G::diff_fields(*predicted, *auth);
    if (fields == 0) return;
    Correction c;
    c.tick = snap.last_input_tick;
    c.predicted = *predicted;
    c.authoritative = *auth;
    c.fields = fields;
    c.error_q = G::position_error_q(*predicted, *auth);
    c.error_m = static_cast<double>(c.error_q) * G::kMetersPerUnit;
    c.view_offset_m = view_offset_m;
    c.snapped = stats_.snaps != snaps_before;
    ++stats_.corrections;
    stats_.last_error_m = c.error_m;
    stats_.max_error_m = std::max(stats_.max_error_m, c.error_m);
    correction_times_.push_back(now);
    corrections_.push_back(c);
    if (corrections_.size() > config_.correction_log_size) corrections_.pop_front();
}

template <ReplicatedGame G>
void Client<G>::update_view(Micros now) {
    if (!clock_.ready()) return;
    if (has_view_time_ && now == view_sampled_at_)
        return;  // one sample per frame: update() and render share it
    has_view_time_ = true;
    view_sampled_at_ = now;
    sample_ = interp_.sample(now);
    view_ = sample_.sampled_time;
    stats_.interp_delay_ticks = interp_.delay_ticks();
    stats_.interp_buffer_ticks = interp_.depth(now);
    stats_.interp_starvations = interp_.stats().starvations;
    stats_.extrapolated_frames = interp_.stats().extrapolated_samples;
    stats_.held_frames = interp_.stats().capped_samples;
    if (interp_.size() > 0) {
        const double beyond = sample_.sampled_time - sync::FracTick{interp_.newest_tick(), 0.0};
        stats_.max_extrapolation_seen_ticks = std::max(stats_.max_extrapolation_seen_ticks, beyond);
    }
}

template <ReplicatedGame G>
const std::vector<typename Client<G>::RenderEntity>& Client<G>::render_entities(Micros now) {
    update_view(now);
    render_.clear();
    const std::uint32_t own_id = slot_ >= 0 ? G::player_entity(slot_) : 0xFFFFFFFFu;
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
            render_.push_back(
                RenderEntity{e.id, both ? G::interpolate(a[i].snap, e.snap, sample_.t) : e.snap, false});
        }
    }
    if (phase_ == ClientPhase::playing)
        if (auto own = smoothed_own_entity()) render_.push_back(RenderEntity{own_id, *own, true});
    return render_;
}

template <ReplicatedGame G>
std::vector<EntityBufferStats> Client<G>::entity_buffer_stats() const {
    std::vector<EntityBufferStats> out;
    for (const EntityRecord& e : latest_.entities)
        if (slot_ < 0 || e.id != G::player_entity(slot_))
            out.push_back(EntityBufferStats{e.id, stats_.interp_buffer_ticks});
    return out;
}

}  // namespace rwd::client_server
