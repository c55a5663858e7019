/// The ENet transport's endpoint counters as Prometheus families (rewind_transport_*), next to the session's.
#pragma once

#include <rewind/core/metrics_text.hpp>
#include <rewind/transport/enet_transport.hpp>

namespace rwd::transport {

/// Appends `counters` (EnetTransport::counters()) to `out`.
void write_metrics(MetricsText& out, const EnetCounters& counters);

}  // namespace rwd::transport
