/// ViewTime and RewoundTargets: the lag-compensation vocabulary shared by the game contract and the sync
/// layer.
#pragma once

#include <rewind/core/tick.hpp>

#include <array>
#include <cstdint>

namespace rwd {

/// What a client was rendering when it acted: the tick pair (from, from + 1) its interpolation was between
/// and the fraction of the way from `from` to `from + 1`, in units of 1/65536. Sent by the client, so
/// untrusted: the server clamps it (sync::HitboxHistory::clamp) before use.
struct ViewTime {
    Tick from{};                     ///< the earlier tick of the pair
    std::uint16_t fraction_q16 = 0;  ///< 0 = exactly `from`, 65535 = almost `from + 1`

    friend constexpr bool operator==(const ViewTime&, const ViewTime&) = default;
};

/// Hitboxes of every target as one shooter saw them, filled by the server from its hitbox history.
/// In G::step(), when `rewound && rewound->active[s]`, shooter s tests targets at `targets[s][t]`, those with
/// `seen[s][t]` only.
template <class G>
struct RewoundTargets {
    std::array<bool, G::kMaxPlayers> active{};  ///< shooter s uses rewound targets this tick
    /// [shooter][target]: the target's hitbox at the shooter's clamped view time.
    std::array<std::array<typename G::Hitbox, G::kMaxPlayers>, G::kMaxPlayers> targets{};
    /// [shooter][target]: whether the target was in the world the shooter's screen showed at its view time
    /// (the client-server session clears it for a player the server had not sent that client, such as one
    /// outside its area of interest). A target not seen neither takes nor blocks the shooter's shot:
    /// G::step() skips it. Every target counts as seen unless the session knows better.
    std::array<std::array<bool, G::kMaxPlayers>, G::kMaxPlayers> seen{};
};

}  // namespace rwd
