/// P2PSession internals, simulation side: seats, advance, prediction, rollback, confirmation and checksums.
#pragma once

#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/session/rollback/time_sync.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rwd::rollback {

template <DeterministicGame G>
Result<std::unique_ptr<P2PSession<G>>> P2PSession<G>::create(transport::Transport& transport,
                                                             const P2PConfig& config, const State& initial) {
    if (Status s = config.validate(); !s.ok()) return s.error();
    if (G::kMaxPlayers < config.num_players)
        return Error{Errc::invalid_config, "num_players > G::kMaxPlayers"};
    return std::make_unique<P2PSession<G>>(transport, config, initial);
}

template <DeterministicGame G>
P2PSession<G>::P2PSession(transport::Transport& transport, const P2PConfig& config, const State& initial)
    : transport_(transport), cfg_(config), rng_(config.seed, 0x5eed), state_(initial) {
    nonce_ = rng_.next_u32() | 1u;  // never 0
    queues_.resize(kMaxSessionPlayers);
    ring_.assign(static_cast<std::size_t>(cfg_.max_prediction) + 1, Saved{kNullFrame, initial});
    delay_ = cfg_.input_delay;
    game_inputs_.assign(static_cast<std::size_t>(G::kMaxPlayers), Input{});
}

template <DeterministicGame G>
Status P2PSession<G>::add_local_player(int slot) {
    if (started_) return Error{Errc::invalid_argument, "players must be added before the first update"};
    if (slot < 0 || slot >= cfg_.num_players) return Error{Errc::invalid_argument, "slot out of range"};
    if (slots_[slot].kind != PlayerKind::none) return Errc::already_exists;
    slots_[slot] = Slot{PlayerKind::local, transport::kInvalidPeer, -1};
    return {};
}

template <DeterministicGame G>
Status P2PSession<G>::add_remote_player(int slot, transport::PeerId peer) {
    if (started_) return Error{Errc::invalid_argument, "players must be added before the first update"};
    if (slot < 0 || slot >= cfg_.num_players) return Error{Errc::invalid_argument, "slot out of range"};
    if (peer == transport::kInvalidPeer) return Error{Errc::invalid_argument, "invalid peer"};
    if (slots_[slot].kind != PlayerKind::none) return Errc::already_exists;
    slots_[slot] = Slot{PlayerKind::remote, peer, -1};
    return {};
}

template <DeterministicGame G>
Status P2PSession<G>::add_local_input(int slot, const Input& input) {
    if (slot < 0 || slot >= cfg_.num_players || slots_[slot].kind != PlayerKind::local) {
        return Error{Errc::invalid_argument, "not a local player"};
    }
    InputBits bits;
    if (!input_to_bits<G>(input, bits)) return Error{Errc::invalid_argument, "input does not serialize"};
    pending_[slot] = input;
    has_pending_[slot] = true;
    return {};
}

template <DeterministicGame G>
Status P2PSession<G>::set_input_delay(int frames) {
    if (frames < 0 || frames > kMaxInputDelay)
        return Error{Errc::invalid_argument, "input delay must be 0..30"};
    delay_ = frames;
    return {};
}

template <DeterministicGame G>
Frame P2PSession<G>::remote_confirmed() const {
    Frame c = std::numeric_limits<Frame>::max();
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind == PlayerKind::remote && !queues_[p].disconnected()) {
            c = std::min(c, queues_[p].last_confirmed());
        }
    }
    return c;
}

template <DeterministicGame G>
Frame P2PSession<G>::confirmed_frame() const {
    Frame c = std::min(remote_confirmed(), frame_ - 1);
    if (first_incorrect_ != kNullFrame) c = std::min(c, first_incorrect_ - 1);  // pending rollback: not final
    return c;
}

template <DeterministicGame G>
typename G::Input P2PSession<G>::input_for(int slot, Frame f) const {
    const detail::InputQueue<Input>& q = queues_[slot];
    if (slots_[slot].kind == PlayerKind::none) return Input{};
    if (q.known(f) && (q.disconnected() || q.stored(f))) return q.input_or(f, Input{});
    return predict_input<G>(q.last_input(), f - q.last_confirmed());
}

template <DeterministicGame G>
void P2PSession<G>::simulate(Frame f) {
    const std::uint64_t t0 = cfg_.clock.now_ns();
    Saved& s = ring_[static_cast<std::size_t>(f) % ring_.size()];
    s.frame = f;
    s.state = state_;
    const std::uint64_t t1 = cfg_.clock.now_ns();
    for (int p = 0; p < G::kMaxPlayers; ++p) {
        if (p < cfg_.num_players) {
            const Input in = input_for(p, f);
            queues_[p].set_used(f, in);
            game_inputs_[p] = in;
        } else {
            game_inputs_[p] = Input{};
        }
    }
    G::step(state_, std::span<const Input>(game_inputs_.data(), game_inputs_.size()), nullptr);
    const std::uint64_t t2 = cfg_.clock.now_ns();
    stats_.timing.save_ns += t1 - t0;
    stats_.timing.step_ns += t2 - t1;
    ++stats_.timing.saves;
    ++stats_.timing.steps;
}

template <DeterministicGame G>
void P2PSession<G>::note_incorrect(int slot, Frame f) {
    if (first_incorrect_ == kNullFrame || f < first_incorrect_) {
        first_incorrect_ = f;
        incorrect_link_ = slots_[slot].link;
    }
}

template <DeterministicGame G>
void P2PSession<G>::resolve_rollback() {
    if (first_incorrect_ == kNullFrame) return;
    Frame target = first_incorrect_;
    const int link = incorrect_link_;
    first_incorrect_ = kNullFrame;
    incorrect_link_ = -1;
    if (target >= frame_) return;
    // The ring holds frames frame_-max_prediction-1 .. frame_-1; a confirmed input can never be older than
    // that while the prediction window holds, but a remote disconnect report can be: clamp (best effort).
    target = std::max(target, frame_ - static_cast<Frame>(ring_.size()));
    const Saved& s = ring_[static_cast<std::size_t>(target) % ring_.size()];
    if (s.frame != target) return;  // nothing saved for it (cannot happen while the window holds)
    const std::uint64_t t0 = cfg_.clock.now_ns();
    state_ = s.state;
    const std::uint64_t t1 = cfg_.clock.now_ns();
    stats_.timing.load_ns += t1 - t0;
    ++stats_.timing.loads;
    const Frame depth = frame_ - target;
    for (Frame f = target; f < frame_; ++f) simulate(f);
    const std::uint64_t t2 = cfg_.clock.now_ns();
    stats_.timing.max_rollback_ns = std::max(stats_.timing.max_rollback_ns, t2 - t0);
    ++stats_.rollbacks;
    stats_.frames_resimulated += static_cast<std::uint64_t>(depth);
    const std::size_t bucket = std::min(static_cast<std::size_t>(depth), kRollbackHistogramSize - 1);
    stats_.timing.rollback_ns[bucket] += t2 - t0;
    ++stats_.rollback_depth[bucket];
    if (link >= 0 && link < static_cast<int>(links_.size())) {
        ++links_[link].rollbacks;
        ++links_[link].rollback_depth[bucket];
    }
}

template <DeterministicGame G>
bool P2PSession<G>::commit_local_inputs() {
    const Frame target = frame_ + delay_;
    const Frame next_free = last_local_frame_ + 1;
    bool any_local = false;
    bool all_same = true;
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind != PlayerKind::local) continue;
        any_local = true;
        if (!(pending_[p] == last_local_[p])) all_same = false;
    }
    if (!any_local) return true;
    // The ring must keep every input a peer has not acknowledged; refuse rather than overwrite one.
    Frame keep = oldest_needed();
    for (const detail::PeerLink& l : links_) {
        if (l.remote_role() == Role::player && l.state() != detail::PeerLink::State::disconnected) {
            keep = std::min(keep, l.remote_ack + 1);
        }
    }
    const Frame last = std::max(target, next_free);
    if (last - keep >= detail::InputQueue<Input>::kCapacity) return false;
    if (next_free > target && all_same) {
        // The delay was shortened: this input repeats the frames already queued, so dropping it merges two
        // equal frames and brings the real delay one frame closer to the target without losing anything.
        for (int p = 0; p < cfg_.num_players; ++p) has_pending_[p] = false;
        return true;
    }
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind != PlayerKind::local) continue;
        detail::InputQueue<Input>& q = queues_[p];
        for (Frame f = next_free; f < target; ++f)
            (void)q.push(f, last_local_[p], kNullFrame);  // longer delay: fill
        (void)q.push(last, pending_[p], kNullFrame);
        last_local_[p] = pending_[p];
        has_pending_[p] = false;
    }
    last_local_frame_ = last;
    return true;
}

template <DeterministicGame G>
AdvanceResult P2PSession<G>::advance(Micros now) {
    const std::uint64_t resimulated_before = stats_.frames_resimulated;
    update(now);  // receives late inputs and rolls back if they demand it
    AdvanceResult r;
    r.frame = frame_;
    r.rollback_frames = static_cast<int>(stats_.frames_resimulated - resimulated_before);
    if (!running_ || closed_) {
        r.status = AdvanceStatus::synchronizing;
        return r;
    }
    // Commit (and send) this frame's local input first, even if we cannot simulate yet: in lockstep the peers
    // wait for exactly this input, so holding it back while stalled would deadlock everyone.
    if (committed_for_ != frame_) {
        for (int p = 0; p < cfg_.num_players; ++p) {
            if (slots_[p].kind == PlayerKind::local && !has_pending_[p]) {
                r.status = AdvanceStatus::missing_local_input;
                return r;
            }
        }
        if (!commit_local_inputs()) {
            ++stats_.stalls_prediction;
            r.status = AdvanceStatus::prediction_threshold;
            return r;
        }
        committed_for_ = frame_;
        send_all(now, true);
    }
    const Frame rc = remote_confirmed();
    if (rc != std::numeric_limits<Frame>::max() &&
        static_cast<std::int64_t>(frame_) - rc > cfg_.max_prediction) {
        ++stats_.stalls_prediction;
        r.status = AdvanceStatus::prediction_threshold;
        return r;
    }
    if (cfg_.stall_frames_ahead > 0 && frames_ahead_ >= cfg_.stall_frames_ahead &&
        (last_stall_frame_ == kNullFrame || frame_ - last_stall_frame_ >= 10)) {
        last_stall_frame_ = frame_;  // backstop only: the speed change should normally prevent this
        ++stats_.stalls_time_sync;
        r.status = AdvanceStatus::time_sync_stall;
        return r;
    }
    simulate(frame_);
    r.frame = frame_;
    ++frame_;
    ++stats_.frames_advanced;
    r.frames_advanced = 1;
    process_confirmed();
    send_all(now, true);
    return r;
}

template <DeterministicGame G>
std::uint32_t P2PSession<G>::status_tag(Frame f) const {
    std::uint32_t h = 2166136261u;  // FNV-1a over the disconnects that happened before `f`
    for (int p = 0; p < cfg_.num_players; ++p) {
        const auto& q = queues_[p];
        if (!q.disconnected() || q.disconnect_frame() >= f) continue;
        const auto v =
            static_cast<std::uint32_t>(p) * 0x9E3779B1u ^ static_cast<std::uint32_t>(q.disconnect_frame());
        for (int k = 0; k < 4; ++k) h = (h ^ ((v >> (8 * k)) & 0xFFu)) * 16777619u;
    }
    return h;
}

template <DeterministicGame G>
void P2PSession<G>::process_confirmed() {
    const Frame c = confirmed_frame();
    for (Frame f = checked_through_ + 1; f <= c; ++f) {
        if (cfg_.max_spectators > 0 && history_end() == f) {
            for (int p = 0; p < cfg_.num_players; ++p) history_.push_back(input_for(p, f));
            // Bounded memory over a long match: the window slides; spectators behind it are dropped when
            // served.
            if (f + 1 - history_start_ > cfg_.spectator_history_frames) {
                history_.erase(history_.begin(), history_.begin() + cfg_.num_players);
                ++history_start_;
            }
        }
        if (cfg_.checksum_interval > 0 && f % cfg_.checksum_interval == 0) {
            std::uint64_t cs = 0;
            if (frame_checksum(f, cs)) {
                const ChecksumReport rep{f, cs, status_tag(f)};
                local_reports_.push_back(rep);
                if (local_reports_.size() > 32) local_reports_.pop_front();
                const State& after =
                    f + 1 == frame_ ? state_ : ring_[static_cast<std::size_t>(f + 1) % ring_.size()].state;
                snapshots_.push_back(Saved{f, after});
                if (snapshots_.size() > 8) snapshots_.pop_front();
                latest_report_ = rep;
                has_report_ = true;
                for (detail::PeerLink& l : links_) l.checksum_sends_left = 5;
            }
        }
        checked_through_ = f;
    }
    compare_checksums();
}

template <DeterministicGame G>
bool P2PSession<G>::frame_checksum(Frame f, std::uint64_t& out) const {
    if (f < 0 || f >= frame_) return false;
    if (f + 1 == frame_) {
        out = G::checksum(state_);
        return true;
    }
    const Saved& s = ring_[static_cast<std::size_t>(f + 1) % ring_.size()];
    if (s.frame != f + 1) return false;
    out = G::checksum(s.state);
    return true;
}

template <DeterministicGame G>
bool P2PSession<G>::confirmed_input(int slot, Frame f, Input& out) const {
    if (slot < 0 || slot >= cfg_.num_players || f < 0) return false;
    const auto& q = queues_[slot];
    if (slots_[slot].kind == PlayerKind::none || (q.disconnected() && f > q.disconnect_frame())) {
        out = Input{};
        return true;
    }
    if (!q.stored(f)) return false;
    out = q.confirmed(f);
    return true;
}

template <DeterministicGame G>
void P2PSession<G>::update_time_sync() {
    double ahead = 0.0;
    bool any = false;
    for (const detail::PeerLink& l : links_) {
        if (l.remote_role() != Role::player || !l.running() || !l.time_sync.has_samples()) continue;
        ahead = any ? std::max(ahead, l.time_sync.frames_ahead()) : l.time_sync.frames_ahead();
        any = true;
    }
    frames_ahead_ = ahead;
    time_scale_ =
        recommend_time_scale(ahead, cfg_.time_sync_gain, cfg_.time_sync_max_adjust, cfg_.time_sync_deadband);
    if (std::fabs(time_scale_ - reported_scale_) >= 0.005 || (time_scale_ == 1.0 && reported_scale_ != 1.0)) {
        reported_scale_ = time_scale_;
        ++stats_.time_sync_events;
        SessionEvent e;
        e.type = SessionEvent::Type::time_sync;
        e.frames_ahead = frames_ahead_;
        e.time_scale = time_scale_;
        push_event(e);
    }
}

template <DeterministicGame G>
bool P2PSession<G>::poll_event(SessionEvent& out) {
    if (events_.empty()) return false;
    out = events_.front();
    events_.pop_front();
    return true;
}

template <DeterministicGame G>
PlayerKind P2PSession<G>::player_kind(int slot) const {
    return slot >= 0 && slot < kMaxSessionPlayers ? slots_[slot].kind : PlayerKind::none;
}

template <DeterministicGame G>
SessionStats P2PSession<G>::stats() const {
    SessionStats s = stats_;
    s.frame = frame_;
    s.confirmed_frame = confirmed_frame();
    s.frames_ahead = frames_ahead_;
    s.time_scale = time_scale_;
    s.malformed = stats_.malformed;
    s.spectator_history = static_cast<std::uint64_t>(history_end() - history_start_);
    for (const detail::PeerLink& l : links_) s.malformed += l.malformed;
    const double elapsed = running_ ? (last_now_ - running_since_).seconds() : 0.0;
    s.resimulated_per_second = elapsed > 0.0 ? static_cast<double>(stats_.frames_resimulated) / elapsed : 0.0;
    return s;
}

}  // namespace rwd::rollback
