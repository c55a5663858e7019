// build_link: profile first, then the knobs shared by both directions, then the per-direction ones.
#include "relay/link_args.hpp"

#include <cmath>

namespace relay {

namespace {

rwd::Micros millis(double ms) { return rwd::Micros{static_cast<std::int64_t>(std::llround(ms * 1000.0))}; }

void apply(const LinkArgs& a, rwd::transport::LinkConfig& c) {
    if (a.latency_ms) c.latency = millis(*a.latency_ms);
    if (a.jitter_ms) c.jitter = millis(*a.jitter_ms);
    if (a.loss_pct) c.loss = *a.loss_pct / 100.0;
    if (a.burst_pct) {
        c.burst.p_good_to_bad = *a.burst_pct / 100.0;
        c.burst.loss_in_bad = 1.0;
        c.burst.loss_in_good = 0.0;
    }
    if (a.burst_len) c.burst.p_bad_to_good = *a.burst_len > 0.0 ? 1.0 / *a.burst_len : -1.0;  // <= 0: invalid
    if (a.dup_pct) c.duplicate = *a.dup_pct / 100.0;
    if (a.reorder_pct) c.reorder = *a.reorder_pct / 100.0;
    if (a.reorder_delay_ms) c.reorder_delay = millis(*a.reorder_delay_ms);
    if (a.bandwidth_kbps) c.bandwidth_kbps = *a.bandwidth_kbps;
}

}  // namespace

rwd::Result<rwd::transport::LinkConfig> build_link(const LinkArgs& common, const LinkArgs& direction) {
    rwd::transport::LinkConfig c;
    const std::optional<std::string>& profile = direction.profile ? direction.profile : common.profile;
    if (profile) {
        auto p = rwd::transport::link_profile(*profile);
        if (!p) return p.error();
        c = p.value();
    }
    apply(common, c);
    apply(direction, c);
    if (rwd::Status s = c.validate(); !s) return s.error();
    return c;
}

}  // namespace relay
