// SimEndpoint's receive path, the trust boundary: header and message parsing, handshake packets, acks and
// reliable reassembly of datagrams from any address.
#include "transport/sim_endpoint.hpp"

#include <bit>
#include <optional>
#include <utility>

namespace rwd::transport::sim {

void SimEndpoint::receive(Micros now, const Address& from, std::span<const std::uint8_t> bytes) {
    Peer* p = find(from);
    // No honest endpoint sends more than the network's MTU; a larger datagram (the link's own MTU may be
    // higher) is malformed, so a peer cannot fill the receive window with up to 64 KiB per message.
    const auto header = bytes.size() <= config_.mtu ? read_header(bytes) : std::nullopt;
    if (!header) {
        malformed(p);
        return;
    }
    if (p != nullptr) count_received(*p, *header, bytes);
    switch (header->type) {
        case PacketType::connect_request:
            if (p == nullptr) {
                if (!accept_incoming_ || peers_.size() >= max_peers_) {
                    const std::uint8_t reason = static_cast<std::uint8_t>(DisconnectReason::refused);
                    send_control(now, from, PacketType::connect_refuse, std::span(&reason, 1));
                    return;
                }
                p = &add_peer(from, false);
            }
            p->last_heard = now;
            if (!p->connected) {  // a new incoming peer, or both sides connecting to each other at once
                p->connected = true;
                TransportEvent e;
                e.type = TransportEvent::Type::connected;
                e.peer = p->id;
                events_.push_back(std::move(e));
            }
            send_control(now, from, PacketType::connect_accept);
            return;
        case PacketType::connect_accept:
            if (p == nullptr) return;
            p->last_heard = now;
            if (!p->connected) {
                p->connected = true;
                TransportEvent e;
                e.type = TransportEvent::Type::connected;
                e.peer = p->id;
                events_.push_back(std::move(e));
            }
            return;
        case PacketType::connect_refuse:
            if (p != nullptr && !p->connected) remove_peer(p->id, DisconnectReason::refused, true);
            return;
        case PacketType::disconnect:
            if (p != nullptr) remove_peer(p->id, DisconnectReason::remote, true);
            return;
        case PacketType::data:
            if (p == nullptr) {
                wire_.count_unknown_sender();
                return;
            }
            receive_data(now, *p, *header, bytes);
            return;
    }
}

void SimEndpoint::receive_data(Micros now, Peer& p, const Header& h, std::span<const std::uint8_t> bytes) {
    if (!read_messages(bytes, messages_)) {
        malformed(&p);
        return;
    }
    if (!p.connected) {  // the accept was lost or overtaken: data from the server completes the handshake
        p.connected = true;
        TransportEvent e;
        e.type = TransportEvent::Type::connected;
        e.peer = p.id;
        events_.push_back(std::move(e));
    }
    p.last_heard = now;
    record_received(p, h.seq);
    const bool fresh = ack_is_fresh(p, h);
    if (h.ack_valid) process_acks(now, p, h, fresh);
    for (const MessageView& m : messages_) {
        if (m.reliable) {
            deliver_reliable(p, m.id, m.data);
            continue;
        }
        TransportEvent e;
        e.type = TransportEvent::Type::message;
        e.peer = p.id;
        e.delivery = Delivery::unreliable;
        e.data.assign(m.data.begin(), m.data.end());
        events_.push_back(std::move(e));
    }
}

void SimEndpoint::record_received(Peer& p, Seq16 seq) {
    p.ack_pending = true;
    if (!p.have_received) {
        p.have_received = true;
        p.remote_latest = seq;
        p.remote_bits = 0;
        return;
    }
    const std::int32_t d = seq_diff(seq, p.remote_latest);
    if (d > 0) {
        if (d < 32)
            p.remote_bits =
                (p.remote_bits << static_cast<unsigned>(d)) | (1u << static_cast<unsigned>(d - 1));
        else
            p.remote_bits = d == 32 ? (1u << 31u) : 0u;
        p.remote_latest = seq;
    } else if (d < 0 && d >= -32) {
        p.remote_bits |= 1u << static_cast<unsigned>(-d - 1);
    }
}

bool SimEndpoint::ack_is_fresh(Peer& p, const Header& h) {
    // The peer answers a packet in the update that received it. Its next packets repeat the same ack until a
    // newer packet of ours arrives (e.g. its keepalive after our packet's first answer was lost), and those
    // later copies have waited. So only the first packet to carry an ack gives an RTT sample: the packet
    // right before it (seq - 1) arrived and carried another ack. If that packet is missing, skip the sample.
    const bool fresh = p.have_peer_packet && h.ack_valid && seq_diff(h.seq, p.peer_packet_seq) == 1 &&
                       (!p.peer_packet_ack_valid || p.peer_packet_ack != h.ack);
    if (!p.have_peer_packet || seq_greater(h.seq, p.peer_packet_seq)) {
        p.have_peer_packet = true;
        p.peer_packet_seq = h.seq;
        p.peer_packet_ack_valid = h.ack_valid;
        p.peer_packet_ack = h.ack;
    }
    return fresh;
}

void SimEndpoint::process_acks(Micros now, Peer& p, const Header& h, bool fresh) {
    // Bit i: the packet h.ack - i (bit 0 is h.ack itself, the others come from ack_bits).
    std::uint64_t acked = (std::uint64_t{h.ack_bits} << 1u) | 1u;
    while (acked != 0) {
        const auto i = static_cast<unsigned>(std::countr_zero(acked));
        acked &= acked - 1;
        const auto seq = static_cast<Seq16>(h.ack - i);
        SentPacket* sp = p.sent.find(seq);  // an ack of a packet never sent finds nothing
        if (sp == nullptr || !sp->used || sp->seq != seq || sp->acked) continue;
        SentPacket& s = *sp;
        s.acked = true;
        // Only a fresh newest ack is an RTT sample: a packet acked through ack_bits, or by a repeated ack,
        // waited on the peer's side for a later packet (a lost answer, its keepalive interval when idle), and
        // that wait is not round-trip time.
        if (i == 0 && fresh) p.rtt.add(now - s.sent_at);
        for (std::uint16_t id : s.reliable_ids) {
            if (p.reliable_out.empty()) break;
            const auto index = static_cast<std::uint16_t>(id - p.reliable_out.front().id);
            if (index < p.reliable_out.size()) p.reliable_out[index].acked = true;
        }
    }
    while (!p.reliable_out.empty() && p.reliable_out.front().acked) {
        p.reliable_out.pop_front();
        p.quiet.valid = false;  // the window moved: has_due() scans again
    }
}

void SimEndpoint::deliver_reliable(Peer& p, std::uint16_t id, std::span<const std::uint8_t> data) {
    const std::int32_t ahead = seq_diff(id, p.next_expected);
    if (ahead < 0 || ahead >= static_cast<std::int32_t>(kReceiveWindow))
        return;  // old duplicate / beyond window
    InSlot& slot = p.received.at(id);
    if (!slot.used) {
        slot.used = true;
        slot.id = id;
        slot.data.assign(data.begin(), data.end());
    }
    for (;;) {
        InSlot* found = p.received.find(p.next_expected);
        if (found == nullptr || !found->used || found->id != p.next_expected) break;
        InSlot& next = *found;
        TransportEvent e;
        e.type = TransportEvent::Type::message;
        e.peer = p.id;
        e.delivery = Delivery::reliable_ordered;
        e.data = std::move(next.data);
        events_.push_back(std::move(e));
        next = InSlot{};
        ++p.next_expected;
    }
}

void SimEndpoint::malformed(Peer* p) {
    wire_.count_malformed();
    if (p != nullptr && ++p->malformed >= config_.max_malformed) disconnect(p->id, DisconnectReason::kicked);
}

}  // namespace rwd::transport::sim
