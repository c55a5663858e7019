/// P2PCore links: starting the peer links, receiving and dispatching messages, link events, disconnects,
/// close.
#include "session/rollback/p2p_core_impl.hpp"

#include <algorithm>

namespace rwd::rollback::detail {

LinkParams P2PCore::Impl::link_params(std::uint8_t local_players) const {
    return LinkParams{cfg_.sync_roundtrips,
                      cfg_.sync_retry,
                      cfg_.disconnect_notice,
                      cfg_.disconnect_timeout,
                      cfg_.keepalive_interval,
                      cfg_.quality_interval,
                      cfg_.session_tag,
                      static_cast<std::uint8_t>(cfg_.num_players),
                      Role::player,
                      local_players};
}

Status P2PCore::Impl::add_spectator(transport::PeerId peer) {
    if (peer == transport::kInvalidPeer || find_link(peer) >= 0)
        return Error{Errc::invalid_argument, "bad peer"};
    if (num_spectators() >= cfg_.max_spectators) return Errc::too_many_peers;
    links_.emplace_back(peer, Role::spectator, std::uint8_t{0}, false, link_params(0), nonce_,
                        rng_.next_u64(), running_since_);
    return {};
}

int P2PCore::Impl::num_spectators() const {
    int n = 0;
    for (const PeerLink& l : links_) {
        n += l.remote_role() == Role::spectator && l.state() != PeerLink::State::disconnected ? 1 : 0;
    }
    return n;
}

int P2PCore::Impl::find_link(transport::PeerId peer) const {
    int found = -1;  // a live link first: a peer may come back on a transport id its ended link had
    for (std::size_t i = 0; i < links_.size(); ++i) {
        if (links_[i].peer() != peer) continue;
        if (links_[i].state() != PeerLink::State::disconnected) return static_cast<int>(i);
        found = static_cast<int>(i);
    }
    return found;
}

int P2PCore::Impl::first_player(const PeerLink& l) const {
    for (int p = 0; p < cfg_.num_players; ++p) {
        if ((l.remote_players() >> p) & 1u) return p;
    }
    return -1;
}

void P2PCore::Impl::start(Micros now) {
    started_ = true;
    const std::uint8_t mine = local_mask();
    for (int p = 0; p < cfg_.num_players; ++p) {
        Slot& s = slots_[p];
        if (s.kind != PlayerKind::remote) continue;
        s.link = find_link(s.peer);
        if (s.link >= 0) continue;
        std::uint8_t mask = 0;
        for (int q = 0; q < cfg_.num_players; ++q) {
            if (slots_[q].kind == PlayerKind::remote && slots_[q].peer == s.peer)
                mask = static_cast<std::uint8_t>(mask | (1u << q));
        }
        links_.emplace_back(s.peer, Role::player, mask, true, link_params(mine), nonce_, rng_.next_u64(),
                            now);
        s.link = static_cast<int>(links_.size()) - 1;
    }
    // Slots no one claimed stay empty (neutral input) and are treated as confirmed.
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind == PlayerKind::none) (void)queues_[p].disconnect(kNullFrame);
    }
}

void P2PCore::Impl::update(Micros now) {
    if (!started_) start(now);
    if (closed_) return;
    last_now_ = now;
    if (cfg_.drive_transport) transport_.update(now);
    receive(now);
    for (std::size_t i = 0; i < links_.size(); ++i) {
        links_[i].poll(transport_, sender_, now, link_events_);
        handle_link_events(static_cast<int>(i));
    }
    poll_join(now);
    if (running_) expire_joins(now);
    if (!running_ && !joining_) {  // a joiner runs once its state is loaded
        bool all = true;
        for (const PeerLink& l : links_) {
            if (l.remote_role() == Role::player && l.state() == PeerLink::State::syncing) all = false;
        }
        if (all) {
            adapt_input_delay(now, true);  // the handshake measured the links: size the delay before frame 0
            running_ = true;
            running_since_ = now;
            push_event(SessionEvent{SessionEvent::Type::running});
        }
    }
    resolve_rollback();
    process_confirmed();
    update_time_sync();
    if (running_) adapt_input_delay(now, false);
    send_all(now, false);
    if (cfg_.drive_transport) transport_.update(now);
}

void P2PCore::Impl::receive(Micros now) {
    transport::TransportEvent ev;
    Message msg;
    while (transport_.poll(ev)) {
        const int link = find_link(ev.peer);
        if (ev.type == transport::TransportEvent::Type::disconnected) {
            if (link >= 0 && links_[link].state() != PeerLink::State::disconnected) {
                links_[link].disconnect();
                link_events_.push_back({LinkEvent::Type::disconnected});
                handle_link_events(link);
            }
            continue;
        }
        if (ev.type != transport::TransportEvent::Type::message) continue;
        // Untrusted bytes: a datagram that does not decode is counted against its link (or the session) and
        // dropped whole.
        if (!decode_message(ev.data, msg).ok()) {
            if (link >= 0) {
                ++links_[link].malformed;
            } else {
                ++stats_.malformed;
            }
            continue;
        }
        if (link >= 0 && links_[link].state() == PeerLink::State::disconnected &&
            links_[link].remote_role() == Role::player && msg.type == MsgType::sync_request) {
            handle_unknown(ev.peer, msg, now);  // a player coming back on the transport id it left with
            continue;
        }
        if (link >= 0) {
            links_[link].bytes_received += ev.data.size() + transport_.header_bytes();
            handle_message(link, msg, now);
        } else {
            handle_unknown(ev.peer, msg, now);
        }
    }
}

void P2PCore::Impl::handle_unknown(transport::PeerId peer, const Message& msg, Micros now) {
    // A stranger may join an open slot, or become a spectator while there is room, by handshaking.
    if (accept_joiner(peer, msg, now)) return;
    if (msg.type != MsgType::sync_request || msg.role != Role::spectator ||
        num_spectators() >= cfg_.max_spectators) {
        ++stats_.malformed;
        return;
    }
    PeerLink link(peer, Role::spectator, 0, false, link_params(0), nonce_, rng_.next_u64(), now);
    int index = -1;
    for (std::size_t i = 0; i < links_.size(); ++i) {  // reuse the entry of a spectator that left
        if (links_[i].remote_role() == Role::spectator &&
            links_[i].state() == PeerLink::State::disconnected) {
            links_[i] = link;
            index = static_cast<int>(i);
            break;
        }
    }
    if (index < 0) {
        links_.push_back(link);
        index = static_cast<int>(links_.size()) - 1;
    }
    handle_message(index, msg, now);
}

void P2PCore::Impl::handle_message(int link, const Message& msg, Micros now) {
    PeerLink& l = links_[link];
    if (!l.on_message(transport_, sender_, msg, now, link_events_)) {
        ++l.malformed;
        link_events_.clear();
        return;
    }
    handle_link_events(link);
    if (msg.type == MsgType::input && l.running()) handle_input(link, msg, now);
    if (msg.type == MsgType::state_request || msg.type == MsgType::state_chunk)
        handle_forensics(link, msg, now);
    if (msg.type == MsgType::join_request && l.running()) handle_join_request(link, now);
    if (msg.type == MsgType::join_state && l.running()) handle_join_state(link, msg, now);
}

void P2PCore::Impl::handle_link_events(int link) {
    PeerLink& l = links_[link];
    const bool spectator = l.remote_role() == Role::spectator;
    for (const LinkEvent& le : link_events_) {
        SessionEvent e;
        e.peer = l.peer();
        e.player = first_player(l);
        switch (le.type) {
            case LinkEvent::Type::synchronizing:
                e.type = SessionEvent::Type::synchronizing;
                e.count = le.count;
                e.total = le.total;
                break;
            case LinkEvent::Type::synchronized:
                e.type = spectator ? SessionEvent::Type::spectator_joined : SessionEvent::Type::synchronized;
                break;
            case LinkEvent::Type::interrupted:
                e.type = SessionEvent::Type::interrupted;
                e.timeout_in = le.timeout_in;
                break;
            case LinkEvent::Type::resumed:
                e.type = SessionEvent::Type::resumed;
                break;
            case LinkEvent::Type::disconnected:
                e.type = spectator ? SessionEvent::Type::spectator_left : SessionEvent::Type::disconnected;
                e.reason = LeaveReason::left;
                break;
        }
        if (spectator &&
            (e.type == SessionEvent::Type::interrupted || e.type == SessionEvent::Type::resumed ||
             e.type == SessionEvent::Type::synchronizing)) {
            continue;  // a spectator's hiccups are not the players' business
        }
        if (e.type == SessionEvent::Type::disconnected && joining_ && !join_done_) {
            push_event(e);  // the sponsor's statuses decide who left before the state arrives
            continue;
        }
        if (e.type == SessionEvent::Type::disconnected) {
            for (int p = 0; p < cfg_.num_players; ++p) {
                if (((l.remote_players() >> p) & 1u) == 0) continue;
                apply_disconnect(p, queues_[p].last_confirmed());
                SessionEvent d = e;
                d.player = p;
                d.frame = queues_[p].disconnect_frame();
                push_event(d);
            }
            continue;
        }
        push_event(e);
    }
    link_events_.clear();
}

void P2PCore::Impl::apply_disconnect(int slot, Frame last) {
    InputQueue& q = queues_[slot];
    // We cannot un-confirm more than the save ring covers; and a report can only lower what we know.
    last = std::min(std::max(last, oldest_saved() - 1),
                    q.disconnected() ? q.disconnect_frame() : q.last_confirmed());
    if (q.join_frame() != kNullFrame)
        last = std::max(last, q.join_frame() - 1);  // a joiner leaves after its gap
    const bool was_here = !q.disconnected();
    if (!q.disconnect(last)) return;
    // Only the player who was here loses its link (a lower report for one who left keeps a joiner's link).
    if (was_here && slots_[slot].link >= 0) links_[slots_[slot].link].disconnect();
    rewrite_after(slot, last);
}

void P2PCore::Impl::rewrite_after(int slot, Frame last) {
    if (last + 1 < frame_) note_incorrect(slot, last + 1);
    // Everything confirmed after `last` is recomputed with neutral input: forget checksums and history of it.
    if (checked_through_ > last) {
        checked_through_ = last;
        SessionEvent e;
        e.type = SessionEvent::Type::rewritten;
        e.player = slot;
        e.frame = last + 1;
        push_event(e);
    }
    while (!local_reports_.empty() && local_reports_.back().frame > last) local_reports_.pop_back();
    game_.forget_snapshots_after(last);
    if (history_end() > last + 1) {
        if (last + 1 >= history_start_) {
            history_.resize(static_cast<std::size_t>(last + 1 - history_start_) *
                            static_cast<std::size_t>(cfg_.num_players));
        } else {  // older than the window (cannot happen while it outlasts max_prediction): start it afresh
            history_.clear();
            history_start_ = last + 1;
        }
    }
}

void P2PCore::Impl::disconnect_player(int slot) {
    if (slot < 0 || slot >= cfg_.num_players || slots_[slot].kind != PlayerKind::remote) return;
    if (queues_[slot].disconnected()) return;
    apply_disconnect(slot, queues_[slot].last_confirmed());
    SessionEvent e;
    e.type = SessionEvent::Type::disconnected;
    e.player = slot;
    e.peer = slots_[slot].peer;
    e.frame = queues_[slot].disconnect_frame();
    push_event(e);
}

void P2PCore::Impl::close(Micros now) {
    if (closed_) return;
    for (PeerLink& l : links_) {
        Message m;
        m.type = MsgType::goodbye;
        (void)l.send(transport_, sender_, m, now);
        l.disconnect();
    }
    if (cfg_.drive_transport) transport_.update(now);
    closed_ = true;
}

}  // namespace rwd::rollback::detail
