/// P2PSession internals, network side: links, message handling, sending inputs, disconnects and forensics.
#pragma once

#include <rewind/session/rollback/p2p_session.hpp>

#include <algorithm>
#include <cmath>

namespace rwd::rollback {

template <DeterministicGame G>
Status P2PSession<G>::add_spectator(transport::PeerId peer) {
    if (peer == transport::kInvalidPeer || find_link(peer) >= 0)
        return Error{Errc::invalid_argument, "bad peer"};
    if (num_spectators() >= cfg_.max_spectators) return Errc::too_many_peers;
    detail::LinkParams lp{cfg_.sync_roundtrips,
                          cfg_.sync_retry,
                          cfg_.disconnect_notice,
                          cfg_.disconnect_timeout,
                          cfg_.keepalive_interval,
                          cfg_.quality_interval,
                          cfg_.session_tag,
                          static_cast<std::uint8_t>(cfg_.num_players),
                          Role::player,
                          0};
    links_.emplace_back(peer, Role::spectator, std::uint8_t{0}, false, lp, nonce_, rng_.next_u64(),
                        running_since_);
    return {};
}

template <DeterministicGame G>
int P2PSession<G>::num_spectators() const {
    int n = 0;
    for (const detail::PeerLink& l : links_) {
        n += l.remote_role() == Role::spectator && l.state() != detail::PeerLink::State::disconnected ? 1 : 0;
    }
    return n;
}

template <DeterministicGame G>
int P2PSession<G>::find_link(transport::PeerId peer) const {
    for (std::size_t i = 0; i < links_.size(); ++i) {
        if (links_[i].peer() == peer) return static_cast<int>(i);
    }
    return -1;
}

template <DeterministicGame G>
void P2PSession<G>::start(Micros now) {
    started_ = true;
    std::uint8_t local_mask = 0;
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind == PlayerKind::local)
            local_mask = static_cast<std::uint8_t>(local_mask | (1u << p));
    }
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
        detail::LinkParams lp{cfg_.sync_roundtrips,
                              cfg_.sync_retry,
                              cfg_.disconnect_notice,
                              cfg_.disconnect_timeout,
                              cfg_.keepalive_interval,
                              cfg_.quality_interval,
                              cfg_.session_tag,
                              static_cast<std::uint8_t>(cfg_.num_players),
                              Role::player,
                              local_mask};
        links_.emplace_back(s.peer, Role::player, mask, true, lp, nonce_, rng_.next_u64(), now);
        s.link = static_cast<int>(links_.size()) - 1;
    }
    // Slots no one claimed stay empty (neutral input) and are treated as confirmed.
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind == PlayerKind::none) (void)queues_[p].disconnect(kNullFrame);
    }
}

template <DeterministicGame G>
void P2PSession<G>::update(Micros now) {
    if (!started_) start(now);
    if (closed_) return;
    last_now_ = now;
    if (cfg_.drive_transport) transport_.update(now);
    receive(now);
    for (std::size_t i = 0; i < links_.size(); ++i) {
        links_[i].poll(transport_, sender_, now, link_events_);
        handle_link_events(static_cast<int>(i), now);
    }
    if (!running_) {
        bool all = true;
        for (const detail::PeerLink& l : links_) {
            if (l.remote_role() == Role::player && l.state() == detail::PeerLink::State::syncing) all = false;
        }
        if (all) {
            running_ = true;
            running_since_ = now;
            push_event(SessionEvent{SessionEvent::Type::running});
        }
    }
    resolve_rollback();
    process_confirmed();
    update_time_sync();
    send_all(now, false);
    if (cfg_.drive_transport) transport_.update(now);
}

template <DeterministicGame G>
void P2PSession<G>::receive(Micros now) {
    transport::TransportEvent ev;
    Message msg;
    while (transport_.poll(ev)) {
        const int link = find_link(ev.peer);
        if (ev.type == transport::TransportEvent::Type::disconnected) {
            if (link >= 0 && links_[link].state() != detail::PeerLink::State::disconnected) {
                links_[link].disconnect();
                link_events_.push_back({detail::LinkEvent::Type::disconnected});
                handle_link_events(link, now);
            }
            continue;
        }
        if (ev.type != transport::TransportEvent::Type::message) continue;
        if (!decode_message(ev.data, msg).ok()) {
            if (link >= 0) {
                ++links_[link].malformed;
            } else {
                ++stats_.malformed;
            }
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

template <DeterministicGame G>
void P2PSession<G>::handle_unknown(transport::PeerId peer, const Message& msg, Micros now) {
    // A stranger may only become a spectator, by handshaking, and only while there is room.
    if (msg.type != MsgType::sync_request || msg.role != Role::spectator ||
        num_spectators() >= cfg_.max_spectators) {
        ++stats_.malformed;
        return;
    }
    detail::LinkParams lp{cfg_.sync_roundtrips,
                          cfg_.sync_retry,
                          cfg_.disconnect_notice,
                          cfg_.disconnect_timeout,
                          cfg_.keepalive_interval,
                          cfg_.quality_interval,
                          cfg_.session_tag,
                          static_cast<std::uint8_t>(cfg_.num_players),
                          Role::player,
                          0};
    detail::PeerLink link(peer, Role::spectator, 0, false, lp, nonce_, rng_.next_u64(), now);
    int index = -1;
    for (std::size_t i = 0; i < links_.size(); ++i) {  // reuse the entry of a spectator that left
        if (links_[i].remote_role() == Role::spectator &&
            links_[i].state() == detail::PeerLink::State::disconnected) {
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

template <DeterministicGame G>
void P2PSession<G>::handle_message(int link, const Message& msg, Micros now) {
    detail::PeerLink& l = links_[link];
    if (!l.on_message(transport_, sender_, msg, now, link_events_)) {
        ++l.malformed;
        link_events_.clear();
        return;
    }
    handle_link_events(link, now);
    if (msg.type == MsgType::input && l.running()) handle_input(link, msg, now);
    if (msg.type == MsgType::state_request || msg.type == MsgType::state_chunk)
        handle_forensics(link, msg, now);
}

template <DeterministicGame G>
void P2PSession<G>::handle_input(int link, const Message& msg, Micros now) {
    detail::PeerLink& l = links_[link];
    l.recv_rate.sample(now, l.bytes_received);
    if (l.remote_role() == Role::spectator) {
        // A spectator only acknowledges the confirmed history it has; it cannot ack what we never had.
        const Frame have = history_end() - 1;
        if (msg.ack > have || !msg.streams.empty()) {
            ++l.malformed;
            return;
        }
        l.remote_ack = std::max(l.remote_ack, msg.ack);
        return;
    }
    // Validate everything before applying anything: acks of inputs we never sent, streams for slots the peer
    // does not play, and inputs that do not deserialize make the whole packet malformed.
    if (msg.ack > last_local_frame_) {
        ++l.malformed;
        return;
    }
    for (const InputStream& st : msg.streams) {
        if (((l.remote_players() >> st.player) & 1u) == 0) {
            ++l.malformed;
            return;
        }
    }
    l.remote_ack = std::max(l.remote_ack, msg.ack);
    l.remote_frame = msg.sender_frame;
    // Frame advantage: where the peer is now (its frame plus half a round trip) minus where we are, in 64
    // bits.
    const double half_rtt_frames = l.ping().seconds() / 2.0 / cfg_.frame_duration.seconds();
    const auto local_adv = static_cast<std::int64_t>(
        std::llround(static_cast<double>(msg.sender_frame) + half_rtt_frames - static_cast<double>(frame_)));
    l.last_local_advantage = local_adv;
    l.time_sync.add_local(local_adv);
    l.time_sync.add_remote(msg.advantage);
    for (int p = 0; p < msg.num_status && p < cfg_.num_players; ++p) {
        if (msg.status[p].disconnected && slots_[p].kind == PlayerKind::remote)
            apply_disconnect(p, msg.status[p].last_frame);
    }
    if (msg.has_checksum) {
        l.remote_reports.push_back(msg.checksum);
        if (l.remote_reports.size() > 32) l.remote_reports.erase(l.remote_reports.begin());
    }
    Input in{};
    for (const InputStream& st : msg.streams) {
        detail::InputQueue<Input>& q = queues_[st.player];
        if (q.disconnected()) continue;
        for (std::size_t i = 0; i < st.inputs.size(); ++i) {
            const Frame f = st.start + static_cast<Frame>(i);
            if (f <= q.last_confirmed()) continue;  // duplicate
            if (!bits_to_input<G>(st.inputs[i], in)) {
                ++l.malformed;
                break;
            }
            if (!q.push(f, in, oldest_needed())) break;  // a gap or too far ahead: it will be sent again
            if (f < frame_) {
                const Input* used = q.used(f);
                if (used == nullptr || !(*used == in)) note_incorrect(st.player, f);
            }
        }
    }
}

template <DeterministicGame G>
void P2PSession<G>::handle_link_events(int link, Micros now) {
    (void)now;
    detail::PeerLink& l = links_[link];
    const bool spectator = l.remote_role() == Role::spectator;
    for (const detail::LinkEvent& le : link_events_) {
        SessionEvent e;
        e.peer = l.peer();
        for (int p = 0; p < cfg_.num_players; ++p) {
            if ((l.remote_players() >> p) & 1u) {
                e.player = p;
                break;
            }
        }
        switch (le.type) {
            case detail::LinkEvent::Type::synchronizing:
                e.type = SessionEvent::Type::synchronizing;
                e.count = le.count;
                e.total = le.total;
                break;
            case detail::LinkEvent::Type::synchronized:
                e.type = spectator ? SessionEvent::Type::spectator_joined : SessionEvent::Type::synchronized;
                break;
            case detail::LinkEvent::Type::interrupted:
                e.type = SessionEvent::Type::interrupted;
                e.timeout_in = le.timeout_in;
                break;
            case detail::LinkEvent::Type::resumed:
                e.type = SessionEvent::Type::resumed;
                break;
            case detail::LinkEvent::Type::disconnected:
                e.type = spectator ? SessionEvent::Type::spectator_left : SessionEvent::Type::disconnected;
                e.reason = LeaveReason::left;
                break;
        }
        if (spectator &&
            (e.type == SessionEvent::Type::interrupted || e.type == SessionEvent::Type::resumed ||
             e.type == SessionEvent::Type::synchronizing)) {
            continue;  // a spectator's hiccups are not the players' business
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

template <DeterministicGame G>
void P2PSession<G>::apply_disconnect(int slot, Frame last) {
    detail::InputQueue<Input>& q = queues_[slot];
    // We cannot un-confirm more than the save ring covers; and a report can only lower what we know.
    last = std::min(std::max(last, oldest_needed()),
                    q.disconnected() ? q.disconnect_frame() : q.last_confirmed());
    if (!q.disconnect(last)) return;
    if (slots_[slot].link >= 0) links_[slots_[slot].link].disconnect();
    if (last + 1 < frame_) note_incorrect(slot, last + 1);
    // Everything confirmed after `last` is recomputed with neutral input: forget checksums and history of it.
    if (checked_through_ > last) checked_through_ = last;
    while (!local_reports_.empty() && local_reports_.back().frame > last) local_reports_.pop_back();
    while (!snapshots_.empty() && snapshots_.back().frame > last) snapshots_.pop_back();
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

template <DeterministicGame G>
void P2PSession<G>::disconnect_player(int slot) {
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

template <DeterministicGame G>
void P2PSession<G>::close(Micros now) {
    if (closed_) return;
    for (detail::PeerLink& l : links_) {
        Message m;
        m.type = MsgType::goodbye;
        (void)l.send(transport_, sender_, m, now);
        l.disconnect();
    }
    if (cfg_.drive_transport) transport_.update(now);
    closed_ = true;
}

template <DeterministicGame G>
void P2PSession<G>::send_all(Micros now, bool force) {
    for (detail::PeerLink& l : links_) {
        if (!l.running()) continue;
        if (!force && now - l.last_send() < cfg_.resend_interval) continue;
        if (l.remote_role() == Role::player) {
            send_player_inputs(l, now);
        } else {
            send_spectator_inputs(l, now);
        }
    }
}

template <DeterministicGame G>
void P2PSession<G>::send_player_inputs(detail::PeerLink& l, Micros now) {
    Message m;
    m.type = MsgType::input;
    Frame ack = std::numeric_limits<Frame>::max();
    for (int p = 0; p < cfg_.num_players; ++p) {
        if ((l.remote_players() >> p) & 1u) ack = std::min(ack, queues_[p].last_confirmed());
    }
    m.ack = ack == std::numeric_limits<Frame>::max() ? kNullFrame : ack;
    m.sender_frame = frame_;
    m.advantage = saturate_advantage(l.last_local_advantage);
    m.num_status = static_cast<std::uint8_t>(cfg_.num_players);
    for (int p = 0; p < cfg_.num_players; ++p) {
        const auto& q = queues_[p];
        const bool gone = slots_[p].kind != PlayerKind::none && q.disconnected();
        m.status[p] = PlayerStatus{gone, gone ? q.disconnect_frame() : kNullFrame};
    }
    if (has_report_ && l.checksum_sends_left > 0) {
        m.has_checksum = true;
        m.checksum = latest_report_;
        --l.checksum_sends_left;
    }
    const Frame from = std::max<Frame>(l.remote_ack + 1, 0);
    const std::int64_t budget = static_cast<std::int64_t>(transport_.max_message_size()) * 8 -
                                static_cast<std::int64_t>(measure_message(m)) - 64;
    std::int64_t used = 0;
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind != PlayerKind::local) continue;
        m.streams.push_back(InputStream{static_cast<std::uint8_t>(p), from, {}});
    }
    // Add frames one at a time to every stream until the datagram would overflow.
    std::vector<InputBits> prev(m.streams.size());
    for (Frame f = from; f <= last_local_frame_ && !m.streams.empty(); ++f) {
        if (f - from >= static_cast<Frame>(kMaxInputsPerStream) || !queues_[m.streams[0].player].stored(f))
            break;
        std::int64_t cost = 0;
        std::vector<InputBits> cur(m.streams.size());
        for (std::size_t i = 0; i < m.streams.size(); ++i) {
            (void)input_to_bits<G>(queues_[m.streams[i].player].confirmed(f), cur[i]);
            cost += 48 + static_cast<std::int64_t>(input_bits_cost(prev[i], cur[i]));
        }
        if (used + cost > budget) break;
        used += cost - 48 * static_cast<std::int64_t>(m.streams.size());
        for (std::size_t i = 0; i < m.streams.size(); ++i) m.streams[i].inputs.push_back(cur[i]);
        prev = cur;
    }
    std::erase_if(m.streams, [](const InputStream& s) { return s.inputs.empty(); });
    l.last_acked_sent = m.ack;
    (void)l.send(transport_, sender_, m, now);
}

template <DeterministicGame G>
void P2PSession<G>::send_spectator_inputs(detail::PeerLink& l, Micros now) {
    Message m;
    m.type = MsgType::input;
    m.sender_frame = std::max(checked_through_, Frame{0});
    const auto n = static_cast<std::size_t>(cfg_.num_players);
    const Frame have = history_end();
    const Frame from = std::max<Frame>(l.remote_ack + 1, 0);
    if (from < history_start_) {
        drop_spectator(l, now);  // the inputs it needs next have left the window: it can never catch up
        return;
    }
    if (from < have) {
        const std::int64_t budget = static_cast<std::int64_t>(transport_.max_message_size()) * 8 -
                                    static_cast<std::int64_t>(measure_message(m)) - 64 -
                                    48 * static_cast<std::int64_t>(n);
        std::int64_t used = 0;
        for (std::size_t p = 0; p < n; ++p)
            m.streams.push_back(InputStream{static_cast<std::uint8_t>(p), from, {}});
        std::vector<InputBits> prev(n);
        std::vector<InputBits> cur(n);
        for (Frame f = from; f < have && f - from < static_cast<Frame>(kMaxInputsPerStream); ++f) {
            std::int64_t cost = 0;
            for (std::size_t p = 0; p < n; ++p) {
                (void)input_to_bits<G>(history_[static_cast<std::size_t>(f - history_start_) * n + p],
                                       cur[p]);
                cost += static_cast<std::int64_t>(input_bits_cost(prev[p], cur[p]));
            }
            if (used + cost > budget) break;
            used += cost;
            for (std::size_t p = 0; p < n; ++p) m.streams[p].inputs.push_back(cur[p]);
            prev = cur;
        }
        if (m.streams[0].inputs.empty()) m.streams.clear();
    }
    (void)l.send(transport_, sender_, m, now);
}

template <DeterministicGame G>
void P2PSession<G>::drop_spectator(detail::PeerLink& l, Micros now) {
    // Reliable, so the spectator learns why it was dropped rather than only timing out.
    Message m;
    m.type = MsgType::goodbye;
    m.reason = LeaveReason::too_far_behind;
    (void)l.send(transport_, sender_, m, now, transport::Delivery::reliable_ordered);
    l.disconnect();
    ++stats_.spectators_dropped;
    SessionEvent e;
    e.type = SessionEvent::Type::spectator_left;
    e.peer = l.peer();
    e.reason = LeaveReason::too_far_behind;
    push_event(e);
}

}  // namespace rwd::rollback
