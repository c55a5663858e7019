/// P2PSession internals, desync side: checksum comparison, forensic state transfer, per-peer statistics.
#pragma once

#include <rewind/session/rollback/p2p_session.hpp>

#include <algorithm>
#include <limits>

namespace rwd::rollback {

template <DeterministicGame G>
void P2PSession<G>::compare_checksums() {
    for (std::size_t li = 0; li < links_.size(); ++li) {
        detail::PeerLink& l = links_[li];
        auto& remote = l.remote_reports;
        for (std::size_t i = 0; i < remote.size();) {
            const ChecksumReport r = remote[i];
            const auto it = std::find_if(local_reports_.begin(), local_reports_.end(),
                                         [&](const ChecksumReport& c) { return c.frame == r.frame; });
            if (it == local_reports_.end()) {
                // Not confirmed here yet (keep it), or older than anything we still hold (drop it).
                const bool stale = !local_reports_.empty() && r.frame < local_reports_.front().frame;
                if (stale || r.frame > checked_through_ + 100000) {
                    remote.erase(remote.begin() + static_cast<std::ptrdiff_t>(i));
                } else {
                    ++i;
                }
                continue;
            }
            remote.erase(remote.begin() + static_cast<std::ptrdiff_t>(i));
            // Compare only under the same disconnect history: a report made before a peer learned of a
            // disconnect describes a timeline that was since rewritten, not a desync.
            if (it->status_tag != r.status_tag) continue;
            ++stats_.checksums_compared;
            if (it->checksum == r.checksum) continue;
            ++stats_.desyncs;
            SessionEvent e;
            e.type = SessionEvent::Type::desync_detected;
            e.peer = l.peer();
            for (int p = 0; p < cfg_.num_players; ++p) {
                if ((l.remote_players() >> p) & 1u) {
                    e.player = p;
                    break;
                }
            }
            e.frame = r.frame;
            e.local_checksum = it->checksum;
            e.remote_checksum = r.checksum;
            push_event(e);
            DesyncReport rep;
            rep.frame = r.frame;
            rep.player = e.player;
            rep.peer = l.peer();
            rep.local_checksum = it->checksum;
            rep.remote_checksum = r.checksum;
            const auto snap = std::find_if(snapshots_.begin(), snapshots_.end(),
                                           [&](const Saved& sv) { return sv.frame == r.frame; });
            if (snap != snapshots_.end())
                rep.local_state = state_to_bytes<G>(snap->state, rep.local_serialized);
            if (reports_.size() < 16) reports_.push_back(std::move(rep));
            if (l.forensic_frame == kNullFrame && l.running()) {
                l.forensic_frame = r.frame;
                Message req;
                req.type = MsgType::state_request;
                req.state_frame = r.frame;
                (void)l.send(transport_, sender_, req, last_now_, transport::Delivery::reliable_ordered);
            }
        }
    }
}

template <DeterministicGame G>
void P2PSession<G>::handle_forensics(int link, const Message& msg, Micros now) {
    detail::PeerLink& l = links_[link];
    if (msg.type == MsgType::state_request) {
        const auto it = std::find_if(snapshots_.begin(), snapshots_.end(),
                                     [&](const Saved& s) { return s.frame == msg.state_frame; });
        if (it == snapshots_.end() || l.forensic_sent) return;  // one answer per peer: no amplification
        l.forensic_sent = true;
        bool serialized = false;
        const std::vector<std::uint8_t> bytes = state_to_bytes<G>(it->state, serialized);
        const std::size_t chunk = std::min(kMaxStateChunk, transport_.max_message_size() - 32);
        for (std::size_t off = 0; off < bytes.size() || off == 0; off += chunk) {
            Message c;
            c.type = MsgType::state_chunk;
            c.state_frame = msg.state_frame;
            c.state_checksum = G::checksum(it->state);
            c.state_serialized = serialized;
            c.state_total = static_cast<std::uint32_t>(bytes.size());
            c.state_offset = static_cast<std::uint32_t>(off);
            const std::size_t len = std::min(chunk, bytes.size() - off);
            c.state_bytes.assign(bytes.begin() + static_cast<std::ptrdiff_t>(off),
                                 bytes.begin() + static_cast<std::ptrdiff_t>(off + len));
            (void)l.send(transport_, sender_, c, now, transport::Delivery::reliable_ordered);
            if (bytes.empty()) break;
        }
        return;
    }
    // state_chunk: only for a transfer we asked for; sizes were bounded by the decoder (<= kMaxStateBytes).
    if (msg.state_frame != l.forensic_frame) return;
    if (l.forensic_bytes.size() != msg.state_total) {
        l.forensic_bytes.assign(msg.state_total, 0);
        l.forensic_received = 0;
    }
    std::copy(msg.state_bytes.begin(), msg.state_bytes.end(), l.forensic_bytes.begin() + msg.state_offset);
    l.forensic_received += static_cast<std::uint32_t>(msg.state_bytes.size());
    if (l.forensic_received < msg.state_total) return;
    for (DesyncReport& r : reports_) {
        if (r.complete || r.frame != msg.state_frame || r.peer != l.peer()) continue;
        r.remote_state = l.forensic_bytes;
        r.remote_serialized = msg.state_serialized;
        r.complete = true;
        State remote{};
        const auto it = std::find_if(snapshots_.begin(), snapshots_.end(),
                                     [&](const Saved& s) { return s.frame == r.frame; });
        if constexpr (DescribesDiff<G>) {
            if (it != snapshots_.end() && r.remote_serialized &&
                state_from_bytes<G>(r.remote_state, remote)) {
                G::describe_diff(it->state, remote, r.diff);
            }
        }
        if (r.diff.empty()) r.diff = byte_diff(r.local_state, r.remote_state);
    }
    l.forensic_frame = kNullFrame;
}

template <DeterministicGame G>
std::vector<PeerStatsRb> P2PSession<G>::peer_stats() const {
    std::vector<PeerStatsRb> out;
    for (const detail::PeerLink& l : links_) {
        PeerStatsRb s;
        s.peer = l.peer();
        for (int p = 0; p < cfg_.num_players; ++p) {
            if ((l.remote_players() >> p) & 1u) {
                s.player = p;
                break;
            }
        }
        s.synchronized = l.state() != detail::PeerLink::State::syncing;
        s.connected = l.state() != detail::PeerLink::State::disconnected;
        s.interrupted = l.interrupted();
        s.ping = l.ping();
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

}  // namespace rwd::rollback
