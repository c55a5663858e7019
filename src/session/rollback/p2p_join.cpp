/// P2PCore late join and rejoin: open slots, the sponsor's answer (join frame and state), join statuses and
/// their expiry, the joiner's load and fast-forward.
#include "session/rollback/p2p_core_impl.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rwd::rollback::detail {

std::uint8_t P2PCore::Impl::local_mask() const {
    std::uint8_t mask = 0;
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind == PlayerKind::local) mask = static_cast<std::uint8_t>(mask | (1u << p));
    }
    return mask;
}

bool P2PCore::Impl::slot_open_for_join(int slot) const {
    if (slot < 0 || slot >= cfg_.num_players) return false;
    const Slot& s = slots_[slot];
    if (s.kind == PlayerKind::local) return false;
    if (s.link >= 0 && links_[s.link].state() != PeerLink::State::disconnected)
        return false;  // its player (or a joiner that handshook first) is here
    const InputQueue& q = queues_[slot];
    if (s.kind == PlayerKind::none) return open_[slot];
    if (q.disconnected()) return cfg_.rejoin || open_[slot];
    return join_waiting_[slot];  // a join was announced and its player has not spoken yet
}

bool P2PCore::Impl::accept_joiner(transport::PeerId peer, const Message& msg, Micros now) {
    if (msg.type != MsgType::sync_request || msg.role != Role::player || !running_ || closed_) return false;
    const std::uint8_t mask = msg.players_mask;
    if (mask == 0 || (mask & (mask - 1)) != 0) return false;  // one slot per joining machine
    int slot = 0;
    while (((mask >> slot) & 1u) == 0) ++slot;
    if (!slot_open_for_join(slot)) return false;
    PeerLink link(peer, Role::player, mask, false, link_params(local_mask()), nonce_, rng_.next_u64(), now);
    link.ack_known = false;  // it tells us in its first input message where its state starts
    link.joiner = true;
    // Reuse the ended link of a machine that played this slot alone: bounded however often the slot changes
    // hands (a machine that played several slots keeps its entry, so its other slots stay routed).
    int index = -1;
    for (std::size_t i = 0; i < links_.size() && index < 0; ++i) {
        if (links_[i].state() == PeerLink::State::disconnected && links_[i].remote_role() == Role::player &&
            links_[i].remote_players() == mask)
            index = static_cast<int>(i);
    }
    if (index >= 0) {
        links_[index] = link;
    } else {
        links_.push_back(link);
        index = static_cast<int>(links_.size()) - 1;
    }
    slots_[slot].link = index;
    slots_[slot].peer = peer;
    handle_message(index, msg, now);
    return true;
}

PlayerStatus P2PCore::Impl::status_of(int slot) const {
    PlayerStatus st;
    if (slots_[slot].kind == PlayerKind::none) return st;
    const InputQueue& q = queues_[slot];
    st.disconnected = q.disconnected();
    st.last_frame = q.disconnected() ? q.disconnect_frame() : kNullFrame;
    st.join_frame = q.join_frame();
    st.gap_last = q.join_frame() != kNullFrame ? q.gap_last() : kNullFrame;
    return st;
}

void P2PCore::Impl::lower_gap(int slot, Frame last) {
    last = std::max(last, oldest_saved() - 1);
    if (queues_[slot].lower_gap(last)) rewrite_after(slot, last);
}

void P2PCore::Impl::apply_status(int slot, const PlayerStatus& st, Micros now) {
    const Slot& s = slots_[slot];
    InputQueue& q = queues_[slot];
    if (s.kind == PlayerKind::local) {
        // The others gave this session's join up (its first input came too late): it cannot play on alone.
        if (joining_ && join_done_ && slot == join_slot_ && st.join_frame == join_frame_ && st.disconnected)
            fail_join(now, "the others gave the join up");
        return;
    }
    if (s.kind == PlayerKind::none && !(open_[slot] && st.join_frame != kNullFrame)) return;  // an empty slot
    if (st.join_frame != kNullFrame && st.join_frame > q.join_frame()) {
        if (!cfg_.rejoin && !open_[slot]) return;  // this match lets nobody in that slot
        begin_join(slot, st.join_frame, st.gap_last);
        if (q.join_frame() != st.join_frame) return;  // refused (cannot happen with a valid status)
    } else if (st.join_frame != q.join_frame()) {
        // A report from before the newest join: only what it says about the previous player's leave counts.
        if (st.join_frame == q.previous_join() && st.disconnected) lower_gap(slot, st.last_frame);
        return;
    }
    if (q.join_frame() != kNullFrame) lower_gap(slot, st.gap_last);
    if (st.disconnected && s.kind == PlayerKind::remote) apply_disconnect(slot, st.last_frame);
}

void P2PCore::Impl::begin_join(int slot, Frame join, Frame gap_last) {
    InputQueue& q = queues_[slot];
    if (!q.disconnected() || gap_last < q.disconnect_frame()) apply_disconnect(slot, gap_last);
    if (!q.rejoin(join)) return;
    // Frames from `join` on were simulated with neutral input for the slot: from now on they are predictions
    // (from neutral, so nothing changes until the joiner's real inputs arrive and differ).
    slots_[slot].kind = PlayerKind::remote;
    for (std::size_t i = 0; i < links_.size(); ++i) {
        const PeerLink& l = links_[i];
        if (l.joiner && l.remote_players() == (1u << slot) && l.state() != PeerLink::State::disconnected) {
            slots_[slot].link = static_cast<int>(i);
            slots_[slot].peer = l.peer();
        }
    }
    join_waiting_[slot] = true;
    join_blocked_[slot] = false;
    ++stats_.joins;
    SessionEvent e;
    e.type = SessionEvent::Type::player_joined;
    e.player = slot;
    e.peer = slots_[slot].peer;
    e.frame = join;
    push_event(e);
}

void P2PCore::Impl::expire_joins(Micros now) {
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (!join_waiting_[p]) continue;
        const InputQueue& q = queues_[p];
        if (q.disconnected() || q.last_confirmed() >= q.join_frame()) {
            join_waiting_[p] = false;  // it played (or left)
            continue;
        }
        // Only the time this peer is held up by the missing joiner counts: the others stall at most
        // join_timeout for a joiner that never shows up, whatever the state transfer took before.
        if (frame_ - q.last_confirmed() <= cfg_.max_prediction) {
            join_blocked_[p] = false;
            continue;
        }
        if (!join_blocked_[p]) {
            join_blocked_[p] = true;
            join_deadline_[p] = now + cfg_.join_timeout;
        }
        if (now < join_deadline_[p]) continue;
        join_waiting_[p] = false;
        ++stats_.joins_expired;
        disconnect_player(p);  // its slot stays neutral from the join frame on
    }
}

void P2PCore::Impl::handle_join_request(int link, Micros now) {
    PeerLink& l = links_[link];
    if (!l.joiner) {
        ++l.malformed;
        return;
    }
    if (l.join_answered || !running_) return;  // a repeat of an answered request, or too early
    const int slot = first_player(l);
    if (slot < 0 || slots_[slot].link != link) return;
    const InputQueue& q = queues_[slot];
    if (!q.disconnected() || join_waiting_[slot]) return;  // another sponsor's join is under way
    // Decide only when every other player reports the slot empty too, in the same join epoch. (Their leave
    // frames may still differ by the frames a lower report arrived too late to rewrite: the joiner takes this
    // peer's, and the checksum tags keep such timelines apart.)
    const PlayerStatus mine = status_of(slot);
    for (std::size_t i = 0; i < links_.size(); ++i) {
        const PeerLink& o = links_[i];
        if (static_cast<int>(i) == link || o.remote_role() != Role::player || !o.running() || !o.ack_known)
            continue;  // (a joiner that has not sent its first input reports nothing yet)
        const PlayerStatus& theirs = o.reported[slot];
        if (theirs.disconnected != mine.disconnected || theirs.join_frame != mine.join_frame)
            return;  // the joiner asks again
    }
    // The state: the newest checksummed confirmed frame (every peer compares the joiner's checksum of it),
    // else the newest confirmed one. Every slot's leave must lie at or before it (no one else has the
    // inputs of a player who left).
    StateBytes sb;
    Frame after = kNullFrame;
    if (!local_reports_.empty() &&
        frame_ - local_reports_.back().frame < 64 &&  // the peers' input rings must still hold S + 1
        game_.snapshot_bytes(local_reports_.back().frame, sb) && sb.serialized) {
        after = local_reports_.back().frame;
    } else {
        const Frame c = confirmed_frame();
        if (c < 0 || !game_.saved_bytes(c + 1, sb) || !sb.serialized) return;
        after = c;
    }
    if (sb.bytes.size() > kMaxStateBytes) return;
    for (int p = 0; p < cfg_.num_players; ++p) {
        const PlayerStatus st = status_of(p);
        if ((st.disconnected && st.last_frame > after) ||
            (st.join_frame != kNullFrame && st.gap_last > after))
            return;  // no one else has the inputs of a player who left after S: a newer frame comes soon
        if (st.disconnected && slots_[p].kind == PlayerKind::remote && !leave_agreed(p))
            return;  // the leave may still move earlier, before S
    }
    // The join frame lies after every input this peer has sent: a peer that holds our input of a frame got
    // the join with it (statuses ride in the same message, before the inputs), so no one confirmed it with
    // the slot neutral. A round trip plus a margin gives the joiner time to load and catch up.
    const auto rtt_frames = static_cast<Frame>(std::ceil(l.ping().seconds() / cfg_.frame_duration.seconds()));
    const Frame join =
        std::max(last_local_frame_, frame_ + delay_) + 1 + rtt_frames + cfg_.join_margin_frames;
    begin_join(slot, join, q.disconnect_frame());
    if (queues_[slot].join_frame() != join) return;
    l.join_answered = true;
    l.remote_ack = after;  // the joiner's queues start after the state
    l.ack_known = true;
    ++stats_.joins_sponsored;
    Message m;
    m.type = MsgType::join_state;
    m.join_slot = static_cast<std::uint8_t>(slot);
    m.join_frame = join;
    m.num_status = static_cast<std::uint8_t>(cfg_.num_players);
    for (int p = 0; p < cfg_.num_players; ++p) m.status[p] = status_of(p);
    m.state_frame = after;
    m.state_checksum = sb.checksum;
    m.state_serialized = true;
    m.state_total = static_cast<std::uint32_t>(sb.bytes.size());
    std::size_t off = 0;
    do {
        const std::size_t n = std::min(kMaxStateChunk, sb.bytes.size() - off);
        m.state_offset = static_cast<std::uint32_t>(off);
        m.state_bytes.assign(sb.bytes.begin() + static_cast<std::ptrdiff_t>(off),
                             sb.bytes.begin() + static_cast<std::ptrdiff_t>(off + n));
        (void)l.send(transport_, sender_, m, now, transport::Delivery::reliable_ordered);
        off += n;
    } while (off < sb.bytes.size());
}

void P2PCore::Impl::poll_join(Micros now) {
    if (!joining_ || join_done_) return;
    if (sponsor_link_ >= 0 && links_[sponsor_link_].state() == PeerLink::State::disconnected) {
        sponsor_link_ = -1;  // the sponsor left before its state arrived: ask another peer
        transfer_frame_ = kNullFrame;
        transfer_received_ = 0;
    }
    if (sponsor_link_ < 0) {
        for (std::size_t i = 0; i < links_.size(); ++i) {
            if (links_[i].remote_role() == Role::player && links_[i].running()) {
                sponsor_link_ = static_cast<int>(i);
                break;
            }
        }
    }
    if (sponsor_link_ < 0 || transfer_frame_ != kNullFrame || now < next_join_request_) return;
    Message m;
    m.type = MsgType::join_request;
    (void)links_[sponsor_link_].send(transport_, sender_, m, now);
    next_join_request_ = now + cfg_.sync_retry;
}

void P2PCore::Impl::handle_join_state(int link, const Message& msg, Micros now) {
    PeerLink& l = links_[link];
    if (!joining_ || join_done_ || link != sponsor_link_ || msg.join_slot != join_slot_ ||
        msg.num_status != cfg_.num_players || !msg.state_serialized) {
        ++l.malformed;
        return;
    }
    if (msg.state_offset == 0 && transfer_received_ == 0) {
        transfer_frame_ = msg.state_frame;
        join_frame_ = msg.join_frame;
        transfer_bytes_.assign(msg.state_total, 0);
    }
    // Reliable and ordered: each piece continues the last, all describe one state.
    if (msg.state_frame != transfer_frame_ || msg.join_frame != join_frame_ ||
        msg.state_total != transfer_bytes_.size() || msg.state_offset != transfer_received_) {
        ++l.malformed;
        return;
    }
    std::copy(msg.state_bytes.begin(), msg.state_bytes.end(),
              transfer_bytes_.begin() + static_cast<std::ptrdiff_t>(transfer_received_));
    transfer_received_ += static_cast<std::uint32_t>(msg.state_bytes.size());
    if (transfer_received_ == transfer_bytes_.size()) finish_join(link, msg, now);
}

void P2PCore::Impl::finish_join(int link, const Message& msg, Micros now) {
    std::uint64_t loaded = 0;
    if (!game_.load_bytes(transfer_bytes_, loaded)) {
        ++links_[link].malformed;
        fail_join(now, "the sponsor's state does not deserialize");
        return;
    }
    const Frame after = transfer_frame_;
    const Frame next = after + 1;
    if (loaded != msg.state_checksum) {  // the game's serialize() loses something, or the bytes are bad
        ++stats_.desyncs;
        DesyncReport rep;
        rep.frame = after;
        rep.player = first_player(links_[link]);
        rep.peer = links_[link].peer();
        rep.local_checksum = loaded;
        rep.remote_checksum = msg.state_checksum;
        reports_.push_back(rep);
        SessionEvent e;
        e.type = SessionEvent::Type::desync_detected;
        e.peer = rep.peer;
        e.player = rep.player;
        e.frame = after;
        e.local_checksum = loaded;
        e.remote_checksum = msg.state_checksum;
        push_event(e);
    }
    // Every slot as the sponsor sees it, exactly (the checksum tags depend on the leave and join frames).
    for (int p = 0; p < cfg_.num_players; ++p) {
        InputQueue& q = queues_[p];
        q = InputQueue{};
        q.start_at(next);
        const PlayerStatus& st = msg.status[p];
        if (slots_[p].kind == PlayerKind::none) {
            (void)q.disconnect(kNullFrame);
            continue;
        }
        if (st.join_frame != kNullFrame) {
            (void)q.disconnect(st.gap_last);
            (void)q.rejoin(st.join_frame);
            if (q.last_confirmed() < after) q.start_at(next);
        }
        if (st.disconnected) (void)q.disconnect(st.last_frame);
        if (p != join_slot_ && st.disconnected && slots_[p].link >= 0) links_[slots_[p].link].disconnect();
    }
    // Nothing of ours was sent before the join frame: every peer has it all up to there.
    for (PeerLink& pl : links_) {
        if (pl.remote_role() == Role::player) pl.remote_ack = std::max(pl.remote_ack, join_frame_ - 1);
    }
    frame_ = next;
    checked_through_ = after;
    history_.clear();
    history_start_ = next;
    last_local_frame_ = join_frame_ - 1;
    last_local_.fill(neutral_);
    committed_for_ = kNullFrame;
    join_done_ = true;
    running_ = true;
    running_since_ = now;
    adapt_input_delay(now, true);
    push_event(SessionEvent{SessionEvent::Type::running});
    SessionEvent j;
    j.type = SessionEvent::Type::joined;
    j.player = join_slot_;
    j.frame = after;
    j.peer = links_[link].peer();
    push_event(j);
    // The loaded state joins the checksum exchange: every peer compares its own checksum of that frame.
    if (cfg_.checksum_interval > 0 && after % cfg_.checksum_interval == 0) {
        const ChecksumReport rep{after, loaded, status_tag(after)};
        local_reports_.push_back(rep);
        game_.keep_snapshot(after);
        latest_report_ = rep;
        has_report_ = true;
        for (PeerLink& pl : links_) pl.checksum_sends_left = 5;
    }
    transfer_bytes_.clear();
    transfer_bytes_.shrink_to_fit();
}

void P2PCore::Impl::fail_join(Micros now, const char* why) {
    if (closed_) return;
    logf(cfg_.logger, LogLevel::error, "join of slot %d failed: %s", join_slot_, why);
    SessionEvent e;
    e.type = SessionEvent::Type::disconnected;  // this session's own player is out of the match
    e.player = join_slot_;
    e.frame = join_frame_ - 1;
    e.reason = LeaveReason::left;
    push_event(e);
    close(now);
}

Frame P2PCore::Impl::catch_up_target() const {
    Frame target = frame_ + 1;
    for (const PeerLink& l : links_) {
        if (l.remote_role() != Role::player || !l.running() || l.remote_frame == kNullFrame) continue;
        const double half_rtt_frames = l.ping().seconds() / 2.0 / cfg_.frame_duration.seconds();
        target = std::max(target, l.remote_frame + static_cast<Frame>(std::lround(half_rtt_frames)));
    }
    return target;
}

AdvanceResult P2PCore::Impl::catch_up(Micros now) {
    // Frames before the join need no local input: fast-forward towards the peers, a bounded number per call
    // (one per call once level with them), within the prediction window.
    AdvanceResult r;
    const Frame target = catch_up_target();
    const int most = frame_ + 1 < target ? cfg_.join_catch_up_frames : 1;
    while (r.frames_advanced < most && frame_ + delay_ < join_frame_) {
        const Frame rc = remote_confirmed();
        if (rc != std::numeric_limits<Frame>::max() &&
            static_cast<std::int64_t>(frame_) - rc > cfg_.max_prediction)
            break;
        simulate(frame_);
        r.frame = frame_;
        ++frame_;
        ++stats_.frames_advanced;
        ++stats_.catch_up_frames;
        ++r.frames_advanced;
    }
    if (r.frames_advanced == 0) {
        ++stats_.stalls_prediction;
        r.status = AdvanceStatus::prediction_threshold;
        r.frame = frame_;
    }
    process_confirmed();
    send_all(now, true);
    return r;
}

}  // namespace rwd::rollback::detail
