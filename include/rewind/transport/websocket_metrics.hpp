/// The WebSocket transport's endpoint counters as Prometheus families (rewind_websocket_*).
#pragma once

#include <rewind/core/metrics_text.hpp>
#include <rewind/transport/websocket_transport.hpp>

namespace rwd::transport {

/// Appends `counters` (WebSocketTransport::counters()) to `out`.
void write_metrics(MetricsText& out, const WebSocketCounters& counters);

}  // namespace rwd::transport
