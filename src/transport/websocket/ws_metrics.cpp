// write_metrics for WebSocketCounters: connections, refusals by reason, refused messages and frames, the
// backlog rule's replacements, bytes.
#include <rewind/transport/websocket_metrics.hpp>

namespace rwd::transport {

namespace {

double u(std::uint64_t v) { return static_cast<double>(v); }

}  // namespace

void write_metrics(MetricsText& out, const WebSocketCounters& c) {
    out.counter("rewind_websocket_connections_accepted_total", "WebSocket clients seated (the accept sent).",
                u(c.connections_accepted));
    out.family("rewind_websocket_connects_refused_total", MetricType::counter,
               "WebSocket connections refused, by reason.");
    out.sample(u(c.refused_full), {{"reason", "full"}});
    out.sample(u(c.refused_protocol), {{"reason", "protocol"}});
    out.sample(u(c.handshake_failures), {{"reason", "handshake_failed"}});
    out.family("rewind_websocket_refused_total", MetricType::counter,
               "Connections closed for what they sent, by layer: a rewind message (text, empty, unknown "
               "class, oversize, misplaced control) or a frame the WebSocket layer refused.");
    out.sample(u(c.messages_refused), {{"layer", "message"}});
    out.sample(u(c.protocol_errors), {{"layer", "frame"}});
    out.counter("rewind_websocket_unreliable_replaced_total",
                "Unreliable messages replaced by a newer one while their peer was backed up.",
                u(c.unreliable_replaced));
    out.counter("rewind_websocket_backlog_drops_total",
                "Peers dropped because their reliable backlog grew over the limit.", u(c.backlog_drops));
    out.counter("rewind_websocket_sent_messages_total",
                "WebSocket messages written (control messages included).", u(c.messages_sent));
    out.counter("rewind_websocket_received_messages_total", "WebSocket messages read.",
                u(c.messages_received));
    out.counter("rewind_websocket_sent_bytes_total", "WebSocket frame bytes sent, frame headers included.",
                u(c.bytes_sent));
    out.counter("rewind_websocket_received_bytes_total",
                "WebSocket frame bytes received, frame headers included.", u(c.bytes_received));
}

}  // namespace rwd::transport
