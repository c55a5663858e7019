// LinkArgs: the relay's impairment options for one direction, turned into a LinkConfig (no CLI parsing here).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace relay {

/// Impairment knobs as given on the command line; unset ones leave the base config alone.
struct LinkArgs {
    std::optional<std::string> profile;  ///< a named profile (link_profile) used as the base
    std::optional<double> latency_ms;    ///< mean one-way delay
    std::optional<double> jitter_ms;     ///< standard deviation of the delay
    std::optional<double> loss_pct;      ///< independent random loss, percent
    std::optional<double> burst_pct;     ///< per-packet chance of entering a loss burst, percent
    std::optional<double> burst_len;     ///< mean burst length in packets (every packet in a burst is lost)
    std::optional<double> dup_pct;       ///< duplication, percent
    std::optional<double> reorder_pct;   ///< reordering, percent
    std::optional<double> reorder_delay_ms;       ///< extra delay of a reordered packet
    std::optional<std::uint32_t> bandwidth_kbps;  ///< bottleneck rate, 0 = unlimited
};

/// The config of one direction: `direction.profile`, else `common.profile`, else a perfect link; then the
/// knobs of `common`, then those of `direction` on top. invalid_argument for an unknown profile,
/// invalid_config when the result does not validate.
[[nodiscard]] rwd::Result<rwd::transport::LinkConfig> build_link(const LinkArgs& common,
                                                                 const LinkArgs& direction);

}  // namespace relay
