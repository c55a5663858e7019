/// P2PCore desync exchange: checksum reports compared with peers, forensic state transfer over the reliable
/// channel.
#include "session/rollback/p2p_core_impl.hpp"

#include <algorithm>

namespace rwd::rollback::detail {

std::uint32_t P2PCore::Impl::status_tag(Frame f) const {
    std::uint32_t h = 2166136261u;  // FNV-1a over the leaves and joins that happened before `f`
    const auto mix = [&h](std::uint32_t v) {
        for (int k = 0; k < 4; ++k) h = (h ^ ((v >> (8 * k)) & 0xFFu)) * 16777619u;
    };
    for (int p = 0; p < cfg_.num_players; ++p) {
        const InputQueue& q = queues_[p];
        const auto slot = static_cast<std::uint32_t>(p) * 0x9E3779B1u;
        if (q.join_frame() != kNullFrame) {  // the previous player's leave, and the join
            if (q.gap_last() < f) mix(slot ^ static_cast<std::uint32_t>(q.gap_last()));
            if (q.join_frame() <= f) mix(slot ^ 0x80000000u ^ static_cast<std::uint32_t>(q.join_frame()));
        }
        if (q.disconnected() && q.disconnect_frame() < f)
            mix(slot ^ static_cast<std::uint32_t>(q.disconnect_frame()));
    }
    return h;
}

void P2PCore::Impl::compare_checksums() {
    for (PeerLink& l : links_) {
        std::vector<ChecksumReport>& remote = l.remote_reports;
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
            e.player = first_player(l);
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
            StateBytes local;
            if (game_.snapshot_bytes(r.frame, local)) {
                rep.local_state = std::move(local.bytes);
                rep.local_serialized = local.serialized;
            }
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

void P2PCore::Impl::handle_forensics(int link, const Message& msg, Micros now) {
    PeerLink& l = links_[link];
    if (msg.type == MsgType::state_request) {
        if (l.forensic_sent) return;  // one answer per peer: no amplification
        StateBytes state;
        if (!game_.snapshot_bytes(msg.state_frame, state)) return;
        l.forensic_sent = true;
        const std::vector<std::uint8_t>& bytes = state.bytes;
        const std::size_t chunk = std::min(kMaxStateChunk, transport_.max_message_size() - 32);
        for (std::size_t off = 0; off < bytes.size() || off == 0; off += chunk) {
            Message c;
            c.type = MsgType::state_chunk;
            c.state_frame = msg.state_frame;
            c.state_checksum = state.checksum;
            c.state_serialized = state.serialized;
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
        game_.describe_diff(r, r.diff);
        if (r.diff.empty()) r.diff = byte_diff(r.local_state, r.remote_state);
    }
    l.forensic_frame = kNullFrame;
}

}  // namespace rwd::rollback::detail
