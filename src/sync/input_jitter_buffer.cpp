// InputJitterBufferConfig::validate(): the non-template part of the server's per-client input queue.
#include <rewind/sync/input_jitter_buffer.hpp>

namespace rwd::sync {

Status InputJitterBufferConfig::validate() const {
    if (tick_rate_hz < 1 || tick_rate_hz > 1000)
        return Error{Errc::invalid_config, "tick_rate_hz not in 1..1000"};
    if (buffer_ticks < 1 || buffer_ticks > 16)
        return Error{Errc::invalid_config, "buffer_ticks not in 1..16"};
    if (max_queue < 1 || max_queue > 32) return Error{Errc::invalid_config, "max_queue not in 1..32"};
    if (max_future_ticks < 1 || max_future_ticks >= InputJitterBuffer<int>::kWindow)
        return Error{Errc::invalid_config, "max_future_ticks not in 1..63"};
    if (max_inputs_per_packet < 1 || max_inputs_per_packet > 16)
        return Error{Errc::invalid_config, "max_inputs_per_packet not in 1..16"};
    if (!(offset_smoothing > 0.0 && offset_smoothing <= 1.0))
        return Error{Errc::invalid_config, "offset_smoothing not in (0, 1]"};
    if (!(packets_per_second > 0.0 && packets_per_second <= 1e6))
        return Error{Errc::invalid_config, "packets_per_second not in (0, 1e6]"};
    if (!(burst_packets >= 1.0 && burst_packets <= 1e6))
        return Error{Errc::invalid_config, "burst_packets not in 1..1e6"};
    return {};
}

}  // namespace rwd::sync
