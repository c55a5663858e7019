/// SpectatorConfig: the knobs of a SpectatorSession.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>

#include <cstdint>

namespace rwd::rollback {

/// The knobs of a SpectatorSession.
struct SpectatorConfig {
    int num_players = 2;         ///< must match the host's session
    int catchup_threshold = 6;   ///< frames behind the host before running faster
    int max_catchup_frames = 8;  ///< most frames simulated in one advance() while catching up
    int sync_roundtrips = 5;     ///< handshake round trips
    Micros sync_retry{200'000};  ///< handshake repeat interval (also while the host does not exist yet)
    Micros disconnect_notice{500'000};     ///< silence before `interrupted`
    Micros disconnect_timeout{2'000'000};  ///< silence before the host counts as gone
    Micros keepalive_interval{100'000};    ///< idle link keepalive
    Micros ack_interval{16'000};           ///< acknowledgements are sent at least this often
    Micros quality_interval{200'000};      ///< ping interval
    std::uint32_t session_tag = 0;         ///< must match the host's
    std::uint64_t seed = 1;                ///< seeds the handshake nonces
    bool drive_transport = true;           ///< call transport.update(now) inside update()

    /// invalid_config with a description of the first bad value.
    [[nodiscard]] Status validate() const;
};

}  // namespace rwd::rollback
