// rewind_limit(): one client's lag-compensation limit from its measured latency and its bounded claims.
#include <rewind/sync/rewind_limit.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace rwd::sync {
namespace {

constexpr std::int64_t kMaxTime = 10'000'000;  // 10 s: far beyond any history, small enough to never overflow

Micros ticks_to_micros(double ticks, int tick_rate_hz) {
    return Micros{static_cast<std::int64_t>(std::llround(ticks * 1e6 / tick_rate_hz))};
}

}  // namespace

Status LagCompensationConfig::validate() const {
    if (tick_rate_hz < 1 || tick_rate_hz > 1000)
        return Error{Errc::invalid_config, "tick_rate_hz not in 1..1000"};
    if (max_compensated_rtt.count < 0 || max_compensated_rtt.count > 2'000'000)
        return Error{Errc::invalid_config, "max_compensated_rtt not in 0..2 s"};
    if (max_interpolation_delay.count < 0 || max_interpolation_delay.count > 1'000'000)
        return Error{Errc::invalid_config, "max_interpolation_delay not in 0..1 s"};
    if (!(jitter_margin_factor >= 0.0 && jitter_margin_factor <= 16.0))
        return Error{Errc::invalid_config, "jitter_margin_factor not in 0..16"};
    if (max_jitter_margin.count < 0 || max_jitter_margin.count > 1'000'000)
        return Error{Errc::invalid_config, "max_jitter_margin not in 0..1 s"};
    if (!(quantization_ticks >= 0.0 && quantization_ticks <= 4.0))
        return Error{Errc::invalid_config, "quantization_ticks not in 0..4"};
    if (!(max_extra_input_lead_ticks >= 0.0 && max_extra_input_lead_ticks <= 16.0))
        return Error{Errc::invalid_config, "max_extra_input_lead_ticks not in 0..16"};
    return {};
}

Micros LagCompensationConfig::longest_limit(int max_input_buffer_ticks) const {
    ClientLatency worst;
    worst.rtt = Micros{kMaxTime};
    worst.rtt_jitter = Micros{kMaxTime};
    worst.interpolation_delay = Micros{kMaxTime};
    worst.input_buffer_ticks = max_input_buffer_ticks;
    worst.input_lead_ticks = 1e9;
    return rewind_limit(*this, worst).total;
}

RewindLimit rewind_limit(const LagCompensationConfig& config, const ClientLatency& client) {
    RewindLimit r;
    const int hz = std::clamp(config.tick_rate_hz, 1, 1000);
    // The RTT is the server's own measurement; the cap is the policy (beyond it the shooter leads).
    const Micros rtt{std::clamp<std::int64_t>(client.rtt.count, 0, kMaxTime)};
    r.rtt_capped = rtt > config.max_compensated_rtt;
    r.compensated_rtt = std::min(rtt, config.max_compensated_rtt);
    // The interpolation delay is the client's word: bounded by what the server allows, whatever it says.
    r.interpolation_clamped =
        client.interpolation_delay.count < 0 || client.interpolation_delay > config.max_interpolation_delay;
    r.interpolation_delay = Micros{
        std::clamp<std::int64_t>(client.interpolation_delay.count, 0, config.max_interpolation_delay.count)};
    // The buffer the server asked for; a client whose inputs arrive earlier than that (measured, so real) is
    // compensated for that lead too, up to a bound: it is still easing a resync surplus away.
    const double target = std::clamp(client.input_buffer_ticks, 0, 64);
    const double measured = std::isfinite(client.input_lead_ticks) ? client.input_lead_ticks : 0.0;
    const double buffer =
        std::clamp(measured, target, target + std::clamp(config.max_extra_input_lead_ticks, 0.0, 16.0));
    r.input_buffer = ticks_to_micros(buffer, hz);
    const double margin = config.jitter_margin_factor *
                          static_cast<double>(std::clamp<std::int64_t>(client.rtt_jitter.count, 0, kMaxTime));
    r.jitter_margin =
        std::min(Micros{static_cast<std::int64_t>(std::llround(margin))}, config.max_jitter_margin);
    r.quantization = ticks_to_micros(config.quantization_ticks, hz);
    r.total = Micros{r.compensated_rtt.count + r.interpolation_delay.count + r.input_buffer.count +
                     r.jitter_margin.count + r.quantization.count};
    r.max_rewind_q16 = r.total.count * hz * 65536 / 1'000'000;
    return r;
}

LagCompensation::LagCompensation(LagCompensationConfig config) : config_(config) {
    assert(config_.validate().ok());
}

RewindLimit LagCompensation::limit_for(const ClientLatency& client) {
    const RewindLimit r = rewind_limit(config_, client);
    ++stats_.limits;
    if (r.interpolation_clamped) ++stats_.interpolation_clamped;
    if (r.rtt_capped) ++stats_.rtt_capped;
    return r;
}

}  // namespace rwd::sync
