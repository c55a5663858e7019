/// The soak runs' knobs (clients, simulated duration, sampling) and the hostile network they run on.
#pragma once

#include <rewind/core/time.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstdint>

namespace soak {

/// What one soak run does; the defaults are the short version that `make test` runs.
struct SoakOptions {
    std::uint64_t seed = 20240601;  ///< network and bot seed (printed; replay a run with --seed)
    int cs_clients = 12;            ///< bot clients against the server
    double cs_minutes = 2.0;        ///< simulated minutes of the client-server soak (0: skip it)
    int rb_peers = 4;               ///< rollback peers
    double rb_minutes = 2.0;        ///< simulated minutes of the rollback soak (0: skip it)
    double sample_seconds = 10.0;   ///< simulated seconds between memory samples
    double heap_slack = 0.05;       ///< allowed heap growth of the late half over the early half (fraction)
    std::int64_t heap_slack_bytes = 512 * 1024;  ///< plus this much, for allocator noise
};

/// The soak network, each direction: 300 ms latency, 100 ms jitter, 25 % loss, 25 % duplicates,
/// 10 % reordering.
inline rwd::transport::LinkConfig soak_link() {
    rwd::transport::LinkConfig l;
    l.latency = rwd::Micros{300'000};
    l.jitter = rwd::Micros{100'000};
    l.loss = 0.25;
    l.duplicate = 0.25;
    l.reorder = 0.10;
    return l;
}

}  // namespace soak
