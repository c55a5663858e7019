/// P2PCore input exchange: local inputs into the queues, remote inputs out of messages, inputs to send.
#include "session/rollback/p2p_core_impl.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rwd::rollback::detail {

Status P2PCore::Impl::add_local_input(int slot, const InputBits& bits) {
    if (slot < 0 || slot >= cfg_.num_players || slots_[slot].kind != PlayerKind::local) {
        return Error{Errc::invalid_argument, "not a local player"};
    }
    pending_[slot] = bits;
    has_pending_[slot] = true;
    return {};
}

void P2PCore::Impl::handle_input(int link, const Message& msg, Micros now) {
    PeerLink& l = links_[link];
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
    if (joining_ && !join_done_) return;  // nothing to take in before the state arrives
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
    // A joiner's first message says where its state starts: from there it needs our inputs.
    l.remote_ack = l.ack_known ? std::max(l.remote_ack, msg.ack) : msg.ack;
    l.ack_known = true;
    l.remote_frame = msg.sender_frame;
    // Frame advantage: where the peer is now (its frame plus half a round trip) minus where we are, in 64
    // bits.
    const double half_rtt_frames = l.ping().seconds() / 2.0 / cfg_.frame_duration.seconds();
    const auto local_adv = static_cast<std::int64_t>(
        std::llround(static_cast<double>(msg.sender_frame) + half_rtt_frames - static_cast<double>(frame_)));
    l.last_local_advantage = local_adv;
    l.time_sync.add_local(local_adv);
    l.time_sync.add_remote(msg.advantage);
    // Statuses before inputs: a join announced in this message applies to the inputs it carries.
    for (int p = 0; p < msg.num_status && p < cfg_.num_players; ++p) {
        l.reported[p] = msg.status[p];
        apply_status(p, msg.status[p], now);
    }
    if (msg.has_checksum) {
        l.remote_reports.push_back(msg.checksum);
        if (l.remote_reports.size() > 32) l.remote_reports.erase(l.remote_reports.begin());
    }
    for (const InputStream& st : msg.streams) {
        InputQueue& q = queues_[st.player];
        if (q.disconnected()) continue;
        for (std::size_t i = 0; i < st.inputs.size(); ++i) {
            const Frame f = st.start + static_cast<Frame>(i);
            if (f <= q.last_confirmed()) continue;  // duplicate
            // The bits are attacker-controlled: only those the game decodes to a canonical Input are queued.
            if (!check_(st.inputs[i])) {
                ++l.malformed;
                break;
            }
            if (!q.push(f, st.inputs[i], oldest_needed())) break;  // a gap or too far ahead: it comes again
            if (f < frame_) {
                // Canonical bits are equal exactly when the inputs are, so bits tell a misprediction apart.
                const InputBits* used = q.used(f);
                if (used == nullptr || !(*used == st.inputs[i])) note_incorrect(st.player, f);
            }
        }
    }
}

bool P2PCore::Impl::commit_local_inputs() {
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
    for (const PeerLink& l : links_) {
        if (l.remote_role() == Role::player && l.state() != PeerLink::State::disconnected && l.ack_known) {
            keep = std::min(keep, l.remote_ack + 1);
        }
    }
    const Frame last = std::max(target, next_free);
    if (last - keep >= InputQueue::kCapacity) return false;
    if (next_free > target && all_same) {
        // The delay was shortened: this input repeats the frames already queued, so dropping it merges two
        // equal frames and brings the real delay one frame closer to the target without losing anything.
        for (int p = 0; p < cfg_.num_players; ++p) has_pending_[p] = false;
        return true;
    }
    for (int p = 0; p < cfg_.num_players; ++p) {
        if (slots_[p].kind != PlayerKind::local) continue;
        InputQueue& q = queues_[p];
        for (Frame f = next_free; f < target; ++f)
            (void)q.push(f, last_local_[p], kNullFrame);  // longer delay
        (void)q.push(last, pending_[p], kNullFrame);
        last_local_[p] = pending_[p];
        has_pending_[p] = false;
    }
    last_local_frame_ = last;
    return true;
}

void P2PCore::Impl::send_all(Micros now, bool force) {
    if (joining_ && !join_done_) return;  // a joiner's statuses and acks mean nothing before its state
    for (PeerLink& l : links_) {
        if (!l.running()) continue;
        if (!force && now - l.last_send() < cfg_.resend_interval) continue;
        if (l.remote_role() == Role::player) {
            send_player_inputs(l, now);
        } else {
            send_spectator_inputs(l, now);
        }
    }
}

void P2PCore::Impl::send_player_inputs(PeerLink& l, Micros now) {
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
    for (int p = 0; p < cfg_.num_players; ++p) m.status[p] = status_of(p);
    if (has_report_ && l.checksum_sends_left > 0) {
        m.has_checksum = true;
        m.checksum = latest_report_;
        --l.checksum_sends_left;
    }
    // A joiner's inputs start at its join frame.
    const Frame from = std::max<Frame>(l.remote_ack + 1, joining_ ? join_frame_ : 0);
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
        for (std::size_t i = 0; i < m.streams.size(); ++i) {
            const InputBits& cur = queues_[m.streams[i].player].confirmed(f);
            cost += 48 + static_cast<std::int64_t>(input_bits_cost(prev[i], cur));
        }
        if (used + cost > budget) break;
        used += cost - 48 * static_cast<std::int64_t>(m.streams.size());
        for (std::size_t i = 0; i < m.streams.size(); ++i) {
            prev[i] = queues_[m.streams[i].player].confirmed(f);
            m.streams[i].inputs.push_back(prev[i]);
        }
    }
    std::erase_if(m.streams, [](const InputStream& s) { return s.inputs.empty(); });
    l.last_acked_sent = m.ack;
    (void)l.send(transport_, sender_, m, now);
}

void P2PCore::Impl::send_spectator_inputs(PeerLink& l, Micros now) {
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
        for (Frame f = from; f < have && f - from < static_cast<Frame>(kMaxInputsPerStream); ++f) {
            const std::size_t row = static_cast<std::size_t>(f - history_start_) * n;
            std::int64_t cost = 0;
            for (std::size_t p = 0; p < n; ++p)
                cost += static_cast<std::int64_t>(input_bits_cost(prev[p], history_[row + p]));
            if (used + cost > budget) break;
            used += cost;
            for (std::size_t p = 0; p < n; ++p) {
                prev[p] = history_[row + p];
                m.streams[p].inputs.push_back(prev[p]);
            }
        }
        if (m.streams[0].inputs.empty()) m.streams.clear();
    }
    (void)l.send(transport_, sender_, m, now);
}

void P2PCore::Impl::drop_spectator(PeerLink& l, Micros now) {
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

}  // namespace rwd::rollback::detail
