// write_metrics for EnetCounters: datagrams, garbage, refusals, the challenge's drops and bytes.
#include <rewind/transport/enet_metrics.hpp>

namespace rwd::transport {

namespace {

double u(std::uint64_t v) { return static_cast<double>(v); }

}  // namespace

void write_metrics(MetricsText& out, const EnetCounters& c) {
    out.counter("rewind_transport_datagrams_received_total", "UDP datagrams that reached the socket.",
                u(c.datagrams_received));
    out.counter("rewind_transport_datagrams_ignored_total",
                "Datagrams dropped as garbage: too short, unknown peer slot, wrong address or session.",
                u(c.datagrams_ignored));
    out.counter("rewind_transport_challenges_answered_total",
                "Connection challenges answered with a cookie (stateless, before any peer slot).",
                u(c.challenges_answered));
    out.family("rewind_transport_connects_dropped_total", MetricType::counter,
               "Connection requests dropped before taking a peer slot, by reason.");
    out.sample(u(c.connects_unverified), {{"reason", "unverified"}});
    out.sample(u(c.connects_half_open_limited), {{"reason", "half_open_limited"}});
    out.family("rewind_transport_connects_refused_total", MetricType::counter,
               "Connection attempts refused by the transport, by reason.");
    out.sample(u(c.refused_full), {{"reason", "full"}});
    out.sample(u(c.refused_protocol), {{"reason", "protocol"}});
    out.counter("rewind_transport_messages_dropped_total",
                "Received messages dropped: bad channel, oversize or the hold queue full.",
                u(c.messages_dropped));
    out.counter("rewind_transport_sent_bytes_total", "UDP payload bytes sent, ENet headers included.",
                u(c.bytes_sent));
    out.counter("rewind_transport_received_bytes_total", "UDP payload bytes received, ENet headers included.",
                u(c.bytes_received));
}

}  // namespace rwd::transport
