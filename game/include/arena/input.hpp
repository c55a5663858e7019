/// One player's input for one tick: quantized move axes, aim, buttons and the view time for lag compensation.
#pragma once

#include <cstdint>

#include <rewind/wire/serialize.hpp>

#include "arena/constants.hpp"

namespace arena {

/// Button bits of Input::buttons.
enum Button : std::uint8_t {
    kFire = 1u << 0u,     ///< primary fire: the hitscan rifle (held = automatic)
    kAltFire = 1u << 1u,  ///< secondary fire: the projectile launcher
    kReload = 1u << 2u,   ///< start reloading the rifle
    kDash = 1u << 3u,     ///< short burst of speed in the move (or aim) direction
};
/// Every defined button bit; anything else is stripped by sanitize().
inline constexpr std::uint8_t kAllButtons = kFire | kAltFire | kReload | kDash;
/// Bits the wire spends on buttons.
inline constexpr int kButtonBits = 4;
/// Largest magnitude of a move axis (127 = full deflection, 1.0).
inline constexpr std::int8_t kAxisMax = 127;

/// One player's input for one tick. Default-constructed = neutral (stand still, aim east, nothing pressed).
struct Input {
    std::int8_t move_x = 0;           ///< right/left axis in [-127, 127] (127 = 1.0)
    std::int8_t move_y = 0;           ///< up/down axis in [-127, 127]
    std::uint8_t buttons = 0;         ///< Button bits
    std::uint8_t view_delay = 0;      ///< ticks between this input's tick and the older tick the player saw
    std::uint16_t aim = 0;            ///< aim angle, 65536 = full turn, 0 = +x
    std::uint16_t view_fraction = 0;  ///< how far the view was between view tick and the next, Q16
    bool has_origin = false;          ///< a rifle shot's origin_x/y are set (only with kFire: stamp_shot)
    std::uint16_t origin_x = 0;       ///< where the shooter's client predicted it stood before this tick, x
    std::uint16_t origin_y = 0;       ///< ... and y (grid units)
    /// Field-wise equality.
    friend constexpr bool operator==(const Input&, const Input&) = default;
};

/// Reads, writes or measures an Input: 58 bits, one more with kFire (has_origin) and 32 more with an origin;
/// lossless for every input sanitize() accepts unchanged. Writing an invalid input (axis -128, unknown
/// buttons, view_delay > kMaxViewDelay, an origin without kFire) fails the stream.
/// Defined and instantiated for every library stream (RWD_WIRE_FOR_EACH_STREAM) in input_codec.cpp.
template <class Stream>
bool serialize(Stream& s, Input& in);

/// Clamps axes to [-127, 127], strips unknown buttons, caps view_delay and drops an origin without kFire;
/// adds one to `violations` for every field it had to change.
Input sanitize_input(const Input& in, std::uint32_t& violations);

}  // namespace arena
