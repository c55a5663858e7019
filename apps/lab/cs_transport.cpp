// The transport figures of a client-server pass: wire bandwidth with IP headers, and on a stream its
// retransmissions, head-of-line waits and replaced unreliable messages.
#include "cs_match_impl.hpp"

#include <algorithm>

namespace lab {

namespace {
constexpr std::size_t kUdpIpBytes = 28;  // what a datagram adds on the wire (LinkConfig::packet_overhead)
}  // namespace

void Match::finish_transport() {
    TransportFigures& t = fig_.transport;
    t.transport = cfg_.stream ? "websocket" : "udp";
    double down_bytes = 0, up_bytes = 0;
    for (const Seat& s : seats_) {
        if (cfg_.stream) {
            const auto down = net_->stream_counters(server_addr_, s.addr);
            const auto up = net_->stream_counters(s.addr, server_addr_);
            if (down) {
                down_bytes += static_cast<double>(down->wire_bytes);
                t.replaced_down += down->unreliable_replaced;
                t.segments_down += down->segments;
                t.retransmissions_down += down->retransmissions;
                t.held_back_down += down->held_back;
                t.max_held_back_ms =
                    std::max(t.max_held_back_ms, static_cast<double>(down->max_held_back.count) / 1000.0);
            }
            if (up) {
                up_bytes += static_cast<double>(up->wire_bytes);
                t.replaced_up += up->unreliable_replaced;
                t.retransmissions_up += up->retransmissions;
                t.max_held_back_ms =
                    std::max(t.max_held_back_ms, static_cast<double>(up->max_held_back.count) / 1000.0);
            }
            continue;
        }
        // A datagram link bills every packet it was handed (lost ones too) with the UDP/IP header.
        const auto down = net_->link_counters(server_addr_, s.addr);
        const auto up = net_->link_counters(s.addr, server_addr_);
        if (down) down_bytes += static_cast<double>(down->bytes_submitted + down->submitted * kUdpIpBytes);
        if (up) up_bytes += static_cast<double>(up->bytes_submitted + up->submitted * kUdpIpBytes);
    }
    // Over the whole pass, connection included, per client.
    const double client_s = static_cast<double>(seats_.size()) * cfg_.duration_s;
    if (client_s > 0) {
        t.wire_kbps_down = down_bytes * 8.0 / 1000.0 / client_s;
        t.wire_kbps_up = up_bytes * 8.0 / 1000.0 / client_s;
    }
}

}  // namespace lab
