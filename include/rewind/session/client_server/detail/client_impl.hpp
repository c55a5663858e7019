/// Client<G> member definitions, part 1: construction, what the core asks of the game side (snapshot
/// entities, prediction restarts, predicted ticks) and the one place Input becomes bits (included by
/// client.hpp).
#pragma once

#include <rewind/session/client_server/detail/encoded_input.hpp>
#include <rewind/session/client_server/packets.hpp>

#include <algorithm>
#include <array>
#include <utility>

namespace rwd::client_server {

namespace detail {
/// The interpolation-buffer config derived from the client config.
inline sync::InterpolationBufferConfig interp_config(const ClientConfig& c) {
    sync::InterpolationBufferConfig ic;
    ic.tick_rate_hz = c.tick_rate_hz;
    ic.interval_multiplier = c.interp_delay_snapshots;
    ic.max_extrapolation_ticks = static_cast<double>(c.max_extrapolation_ticks);
    return ic;
}
/// The correction smoother's config derived from the client config.
inline sync::VisualSmootherConfig smoother_config(const ClientConfig& c) {
    sync::VisualSmootherConfig vc;
    vc.time_constant = c.smoothing_time;
    vc.snap_distance_m = c.snap_distance_m;
    vc.rest_distance_m = std::min(vc.rest_distance_m, c.snap_distance_m / 2);
    return vc;
}
}  // namespace detail

template <class G>
Client<G>::Client(transport::Transport& transport, const ClientConfig& config)
    : core_(transport, config, G::kMaxPlayers, *this, message_table<G>()),
      interp_(detail::interp_config(config)),
      smoother_(detail::smoother_config(config)) {}

template <class G>
bool Client<G>::read_snapshot_entities(wire::ReadStream& s, const SnapshotHeader& head,
                                       bool& baseline_missing) {
    // The baseline it names comes from what we decoded before.
    return receiver_.read_entities(s, head.sequence, head.server_tick, incoming_, baseline_missing);
}

template <class G>
void Client<G>::accept_snapshot(const SnapshotHeader& head, bool reconcile_now, Micros now) {
    static_cast<SnapshotHeader&>(incoming_) = head;
    // Where each entity's value is from: this snapshot, or for one the byte budget left out, the snapshot
    // whose value the client keeps showing (the last one that carried it, else the baseline).
    refreshed_next_.clear();
    for (const EntityRecord& e : incoming_.entities) {
        Tick from = head.server_tick;
        if (std::find(incoming_.stale.begin(), incoming_.stale.end(), e.id) != incoming_.stale.end()) {
            const auto it =
                std::lower_bound(latest_.entities.begin(), latest_.entities.end(), e.id,
                                 [](const EntityRecord& r, std::uint32_t id) { return r.id < id; });
            const auto k = static_cast<std::size_t>(it - latest_.entities.begin());
            from = it != latest_.entities.end() && it->id == e.id && k < refreshed_.size()
                       ? refreshed_[k]
                       : receiver_.baseline_tick();
        }
        refreshed_next_.push_back(from);
    }
    std::swap(refreshed_, refreshed_next_);
    receiver_.accept(incoming_,
                     latest_.entities);  // keep it as a baseline; stale entities show their newest value
    interp_.push(head.server_tick, incoming_.entities, now);
    has_render_sample_ = false;  // the sample's pointers die with a push: sample again
    std::swap(latest_, incoming_);
    if (!reconcile_now) return;
    // A provisional state may still be replaced by the server's replay of a late input: correcting to it
    // would move the player twice (there and back). Wait for a final one, but not for long.
    const int hold = core_.config().provisional_hold_ticks;
    const std::int32_t since = latest_.server_tick - last_reconciled_tick_;
    if (latest_.provisional && has_reconciled_ && since >= 0 && since < hold) {
        ++core_.adapter_stats().reconciles_deferred;
        return;
    }
    has_reconciled_ = true;
    last_reconciled_tick_ = latest_.server_tick;
    reconcile_due_ = true;  // at the end of update(), after this update's ticks
}

template <class G>
void Client<G>::restart_prediction(bool was_playing) {
    // The clock jumped: the prediction restarts from the newest snapshot at the new tick.
    const auto predicted_before = was_playing ? own_entity() : std::nullopt;
    reconcile_due_ = false;  // rebuilt from the newest snapshot here
    inputs_.reset();
    history_.reset();
    G::restore(state_, std::span<const EntityRecord>(latest_.entities));
    predicted_state_changed();
    has_first_input_ = false;
    keep_drawn_player(predicted_before);
}

template <class G>
void Client<G>::sample_render_time(Micros now) {
    update_render_time(now);
}

template <class G>
void Client<G>::predict_one(State& s, Tick t) {
    std::array<Input, G::kMaxPlayers> in{};  // remote players: the game's guess (neutral by default)
    const int slot = core_.slot();
    if constexpr (HasRemoteInput<G>) {
        if (core_.config().predict_remote_inputs)
            for (int i = 0; i < G::kMaxPlayers; ++i)
                if (i != slot) in[static_cast<std::size_t>(i)] = hooks::remote_input<G>(s, i);
    }
    const Input* own = inputs_.find(t);
    if (slot >= 0 && own) in[static_cast<std::size_t>(slot)] = *own;
    hooks::step<G>(s, std::span<const Input>(in));
    history_.remember(t, s, slot, scratch_);
}

template <class G>
bool Client<G>::predict_tick(Tick t, EncodedInput& out) {
    Input in = input_;
    if constexpr (HasLagCompensation<G>)
        if (G::fires(in)) G::set_view_time(in, t, render_time_.view_time());
    inputs_.insert(t, in);
    if (!has_first_input_) {
        has_first_input_ = true;
        first_input_tick_ = t;
    }
    predict_one(state_, t);
    if constexpr (HasShotStamp<G>) {
        // Where the shot left from on this screen: what the server fires from when its shooter is close.
        if (G::fires(in)) {
            G::stamp_shot(in, state_, core_.slot());
            if (Input* kept = inputs_.find(t)) *kept = in;
        }
    }
    predicted_state_changed();
    return encode_input(in, out);  // the one place the local Input becomes bits for the core
}

}  // namespace rwd::client_server

#include <rewind/session/client_server/detail/client_reconcile.hpp>
