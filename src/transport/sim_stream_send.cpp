// SimEndpoint on a stream (SimSocket::stream): WebSocket frame sizes, the backlog, and the policy that keeps
// unreliable messages from queueing behind each other (docs/PROTOCOL.md, "Transport (WebSocket)").
#include "transport/sim_endpoint.hpp"
#include "transport/websocket/ws_message.hpp"

#include <algorithm>
#include <utility>

namespace rwd::transport::sim {

Link& SimEndpoint::link_of(Peer& p) {
    if (p.link == nullptr) p.link = &wire_.link(address_, p.address);
    return *p.link;
}

std::size_t SimEndpoint::frame_size(std::size_t message_bytes, bool masked) const {
    const std::size_t framed = 1 + message_bytes;  // the class byte, then the message (ws::frame)
    return framed + ws::frame_overhead(framed, masked);
}

std::size_t SimEndpoint::unwritten_bytes(const Peer& p) const {
    std::size_t n = 0;
    for (const auto& m : p.unreliable_out) n += frame_size(m.size(), masks_to(p));
    for (const OutMessage& m : p.reliable_out)
        if (!m.sent) n += frame_size(m.data.size(), masks_to(p));
    return n;
}

bool SimEndpoint::backed_up(Peer& p) {
    return unwritten_bytes(p) > config_.stream.max_backlog_bytes ||
           wire_.stream_in_loss_state(now_, link_of(p));
}

bool SimEndpoint::hold_if_backed_up(Peer& p, std::span<const std::uint8_t> data) {
    // While one is held a newer one replaces it (it never overtakes it); it is written once not backed up.
    if (!p.has_held && !backed_up(p)) return false;
    if (p.has_held) wire_.count_replaced(link_of(p));
    p.held.assign(data.begin(), data.end());
    p.has_held = true;
    return true;
}

void SimEndpoint::release_held(Peer& p) {
    if (!p.has_held || backed_up(p)) return;
    std::vector<std::uint8_t> b = wire_.buffer();
    b.assign(p.held.begin(), p.held.end());
    p.unreliable_out.push_back(std::move(b));
    p.has_held = false;
}

void SimEndpoint::measure_stream_loss(Peer& p) {
    const StreamCounters c = wire_.stream_counters(link_of(p));
    const std::uint64_t sent = c.transmissions - p.seen_transmissions;
    const std::uint64_t resent = std::min(sent, c.retransmissions - p.seen_retransmissions);
    for (std::uint64_t i = 0; i < sent; ++i) p.stream_loss.add(i < resent);
    p.seen_transmissions = c.transmissions;
    p.seen_retransmissions = c.retransmissions;
    p.stats.loss = p.stream_loss.fraction();
}

void SimEndpoint::count_received(Peer& p, const Header& h, std::span<const std::uint8_t> bytes) {
    std::size_t frames = 1, frame_bytes = bytes.size();
    if (stream_) {
        // What the receiving socket reads: the sender's frames (masked when the sender connected).
        const bool masked = !p.outgoing;
        frames = 0;
        frame_bytes = 0;
        if (h.type != PacketType::data) {
            frames = 1;
            frame_bytes = frame_size(1 + bytes.size() - kHeaderBytes, masked);
        } else if (read_messages(bytes, messages_)) {
            for (const MessageView& m : messages_) {
                ++frames;
                frame_bytes += frame_size(m.data.size(), masked);
            }
        }
    }
    p.stats.bytes_received += frame_bytes;
    p.stats.packets_received += frames;
    p.rate_received.add(frame_bytes);
}

}  // namespace rwd::transport::sim
