// The client's colours (RGB), shared with the screenshot test so it can look for walls and players by colour.
#pragma once

#include <array>
#include <cstdint>

namespace apps::palette {

/// An opaque colour.
struct Rgb {
    std::uint8_t r, g, b;
};

inline constexpr Rgb kBackground{22, 26, 34};    ///< the floor
inline constexpr Rgb kGrid{34, 40, 52};          ///< 4 m grid lines
inline constexpr Rgb kWall{122, 128, 146};       ///< wall boxes
inline constexpr Rgb kOwnPlayer{72, 208, 120};   ///< the local (predicted) player
inline constexpr Rgb kProjectile{255, 168, 40};  ///< launcher projectiles
inline constexpr Rgb kTracer{255, 240, 120};     ///< hitscan shot tracers
inline constexpr Rgb kGhost{235, 235, 255};      ///< server-authoritative ghost outlines
inline constexpr Rgb kHpGood{90, 220, 90};       ///< HP bar, filled part
inline constexpr Rgb kHpBad{200, 50, 50};        ///< HP bar, missing part
inline constexpr Rgb kOwnRing{130, 255, 180};    ///< the ring that marks the local player, alive or dead
inline constexpr Rgb kDeathText{255, 72,
                                96};  ///< "killed by ... respawn in ..." while the local player is dead
inline constexpr Rgb kHitMarker{255, 255,
                                255};  ///< the cross over a player the local player hit (server-confirmed)
inline constexpr Rgb kKillMarker{255, 60, 60};  ///< the same when the hit killed
inline constexpr Rgb kWarnText{255, 196, 64};   ///< "connection interrupted" while the server is silent
inline constexpr Rgb kEndText{255, 110, 70};    ///< the title of the screen shown once the session ended
/// Remote players, by slot modulo the table size.
inline constexpr std::array<Rgb, 6> kOthers{
    {{232, 88, 80}, {86, 150, 240}, {222, 120, 230}, {240, 200, 70}, {80, 220, 220}, {240, 140, 90}}};

}  // namespace apps::palette
