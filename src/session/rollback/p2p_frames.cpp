/// P2PCore frames: which input each frame uses, advance, rollback decisions, confirmation, time sync, stats.
#include "session/rollback/p2p_core_impl.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rwd::rollback::detail {

FrameInput P2PCore::Impl::frame_input(int slot, Frame f) const {
    const InputQueue& q = queues_[slot];
    if (slots_[slot].kind == PlayerKind::none || q.neutral(f)) return FrameInput{};
    if (q.known(f)) return q.stored(f) ? FrameInput{&q.confirmed(f), false, 0} : FrameInput{};
    return FrameInput{q.last_input(), true, f - q.last_confirmed()};
}

const InputBits& P2PCore::Impl::final_bits(int slot, Frame f) const {
    // Only asked for confirmed frames, whose inputs are final (a prediction's base stands in otherwise).
    const FrameInput in = frame_input(slot, f);
    return in.bits != nullptr ? *in.bits : neutral_;
}

bool P2PCore::Impl::confirmed_input(int slot, Frame f, const InputBits*& out) const {
    if (slot < 0 || slot >= cfg_.num_players || f < 0) return false;
    const InputQueue& q = queues_[slot];
    if (slots_[slot].kind == PlayerKind::none || q.neutral(f)) {
        out = nullptr;
        return true;
    }
    if (!q.stored(f)) return false;
    out = &q.confirmed(f);
    return true;
}

Frame P2PCore::Impl::remote_confirmed() const {
    Frame c = std::numeric_limits<Frame>::max();
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind != PlayerKind::remote) continue;
        const InputQueue& q = queues_[p];
        if (!q.disconnected()) {
            c = std::min(c, q.last_confirmed());
        } else if (!leave_agreed(p)) {
            c = std::min(c, q.disconnect_frame());
        }
    }
    return c;
}

bool P2PCore::Impl::leave_agreed(int slot) const {
    const InputQueue& q = queues_[slot];
    for (const PeerLink& l : links_) {
        if (l.remote_role() != Role::player || !l.running() || !l.ack_known ||
            ((l.remote_players() >> slot) & 1u) != 0)
            continue;  // (a joiner reports nothing before its first input)
        const PlayerStatus& r = l.reported[slot];
        if (!r.disconnected || r.join_frame != q.join_frame()) return false;
    }
    return true;
}

Frame P2PCore::Impl::confirmed_frame() const {
    Frame c = std::min(remote_confirmed(), frame_ - 1);
    if (first_incorrect_ != kNullFrame) c = std::min(c, first_incorrect_ - 1);  // pending rollback: not final
    return c;
}

void P2PCore::Impl::simulate(Frame f) {
    const SimTiming t = game_.simulate(f);
    stats_.timing.save_ns += t.save_ns;
    stats_.timing.step_ns += t.step_ns;
    ++stats_.timing.saves;
    ++stats_.timing.steps;
}

void P2PCore::Impl::note_incorrect(int slot, Frame f) {
    if (first_incorrect_ == kNullFrame || f < first_incorrect_) {
        first_incorrect_ = f;
        incorrect_link_ = slots_[slot].link;
    }
}

void P2PCore::Impl::resolve_rollback() {
    if (first_incorrect_ == kNullFrame) return;
    Frame target = first_incorrect_;
    const int link = incorrect_link_;
    first_incorrect_ = kNullFrame;
    incorrect_link_ = -1;
    if (target >= frame_) return;
    // The ring holds frames oldest_saved() .. frame_-1; a confirmed input can never be older than the
    // prediction window, and a leave report is rewritten back to the ring's start at most (leave_agreed()
    // keeps every peer waiting within it until all agree).
    target = std::max(target, oldest_saved());
    const std::uint64_t t0 = cfg_.clock.now_ns();
    if (!game_.load(target)) return;  // nothing saved for it (cannot happen while the window holds)
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

AdvanceResult P2PCore::Impl::advance(Micros now) {
    const std::uint64_t resimulated_before = stats_.frames_resimulated;
    update(now);  // receives late inputs and rolls back if they demand it
    AdvanceResult r;
    r.frame = frame_;
    r.rollback_frames = static_cast<int>(stats_.frames_resimulated - resimulated_before);
    if (!running_ || closed_) {
        r.status = AdvanceStatus::synchronizing;
        return r;
    }
    if (joining_ && frame_ + delay_ < join_frame_) return catch_up(now);
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
    if (cfg_.stall_frames_ahead > 0 && frames_ahead_ >= cfg_.stall_frames_ahead + jitter_frames() &&
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

void P2PCore::Impl::process_confirmed() {
    const Frame c = confirmed_frame();
    for (Frame f = checked_through_ + 1; f <= c; ++f) {
        if (cfg_.max_spectators > 0 && history_end() == f) {
            for (int p = 0; p < cfg_.num_players; ++p) history_.push_back(final_bits(p, f));
            // Bounded memory over a long match: the window slides; spectators behind it are dropped when
            // served.
            if (f + 1 - history_start_ > cfg_.spectator_history_frames) {
                history_.erase(history_.begin(), history_.begin() + cfg_.num_players);
                ++history_start_;
            }
        }
        if (cfg_.checksum_interval > 0 && f % cfg_.checksum_interval == 0) {
            std::uint64_t cs = 0;
            if (game_.checksum_after(f, cs)) {
                const ChecksumReport rep{f, cs, status_tag(f)};
                local_reports_.push_back(rep);
                if (local_reports_.size() > 32) local_reports_.pop_front();
                game_.keep_snapshot(f);
                latest_report_ = rep;
                has_report_ = true;
                for (PeerLink& l : links_) l.checksum_sends_left = 5;
            }
        }
        checked_through_ = f;
    }
    compare_checksums();
}

void P2PCore::Impl::update_time_sync() {
    double ahead = 0.0;
    bool any = false;
    for (const PeerLink& l : links_) {
        if (l.remote_role() != Role::player || !l.running() || !l.time_sync.has_samples()) continue;
        ahead = any ? std::max(ahead, l.time_sync.frames_ahead()) : l.time_sync.frames_ahead();
        any = true;
    }
    frames_ahead_ = ahead;
    // On a jittery link the advantage estimates are that many frames noisy, and every peer, taking the most
    // it is ahead of any other, would think itself ahead and slow down: the noise widens the deadband.
    const double deadband = std::max(cfg_.time_sync_deadband, static_cast<double>(jitter_frames()));
    time_scale_ = recommend_time_scale(ahead, cfg_.time_sync_gain, cfg_.time_sync_max_adjust, deadband);
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

SessionStats P2PCore::Impl::stats() const {
    SessionStats s = stats_;
    s.frame = frame_;
    s.confirmed_frame = confirmed_frame();
    s.frames_ahead = frames_ahead_;
    s.time_scale = time_scale_;
    s.malformed = stats_.malformed;
    s.spectator_history = static_cast<std::uint64_t>(history_end() - history_start_);
    for (const PeerLink& l : links_) s.malformed += l.malformed;
    const double elapsed = running_ ? (last_now_ - running_since_).seconds() : 0.0;
    s.resimulated_per_second = elapsed > 0.0 ? static_cast<double>(stats_.frames_resimulated) / elapsed : 0.0;
    return s;
}

std::vector<PeerStatsRb> P2PCore::Impl::peer_stats() const {
    std::vector<PeerStatsRb> out;
    for (const PeerLink& l : links_) {
        PeerStatsRb s;
        s.peer = l.peer();
        s.player = first_player(l);
        s.synchronized = l.state() != PeerLink::State::syncing;
        s.connected = l.state() != PeerLink::State::disconnected;
        s.interrupted = l.interrupted();
        s.ping = l.ping();
        s.ping_deviation = l.ping_deviation();
        if (l.remote_role() == Role::player) {
            const double half_rtt_frames = l.ping().seconds() / 2.0 / cfg_.frame_duration.seconds();
            s.frames_behind =
                l.remote_frame == kNullFrame
                    ? 0.0
                    : static_cast<double>(frame_) - (static_cast<double>(l.remote_frame) + half_rtt_frames);
            Frame last = std::numeric_limits<Frame>::max();
            for (int p = 0; p < cfg_.num_players; ++p) {
                if ((l.remote_players() >> p) & 1u) last = std::min(last, queues_[p].last_confirmed());
            }
            s.last_received_frame = last == std::numeric_limits<Frame>::max() ? kNullFrame : last;
        } else {
            s.frames_behind = static_cast<double>(checked_through_) - static_cast<double>(l.remote_ack);
            s.last_received_frame = l.remote_ack;
        }
        s.kbps_sent = l.send_rate.kbps();
        s.kbps_received = l.recv_rate.kbps();
        s.bytes_sent = l.bytes_sent;
        s.bytes_received = l.bytes_received;
        s.packets_sent = l.packets_sent;
        s.packets_received = l.packets_received;
        s.malformed = l.malformed;
        s.rollbacks = l.rollbacks;
        s.rollback_depth = l.rollback_depth;
        out.push_back(s);
    }
    return out;
}

}  // namespace rwd::rollback::detail
