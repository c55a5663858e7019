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
    /// Field-wise equality.
    friend constexpr bool operator==(const Input&, const Input&) = default;
};

/// Reads, writes or measures an Input in 58 bits; lossless for every input sanitize() accepts unchanged.
/// Writing an invalid input (axis -128, unknown buttons, view_delay > kMaxViewDelay) fails the stream.
template <class Stream>
bool serialize(Stream& s, Input& in) {
    using rwd::wire::serialize_bits;
    using rwd::wire::serialize_int;
    bool ok = serialize_int(s, in.move_x, static_cast<std::int8_t>(-kAxisMax), kAxisMax);
    ok = ok && serialize_int(s, in.move_y, static_cast<std::int8_t>(-kAxisMax), kAxisMax);
    std::uint32_t buttons = in.buttons;
    ok = ok && serialize_bits(s, buttons, kButtonBits);
    std::uint32_t aim = in.aim;
    ok = ok && serialize_bits(s, aim, 16);
    ok = ok && serialize_int(s, in.view_delay, std::uint8_t{0}, kMaxViewDelay);
    std::uint32_t fraction = in.view_fraction;
    ok = ok && serialize_bits(s, fraction, 16);
    if constexpr (Stream::is_reading) {
        if (!ok) return false;
        in.buttons = static_cast<std::uint8_t>(buttons);
        in.aim = static_cast<std::uint16_t>(aim);
        in.view_fraction = static_cast<std::uint16_t>(fraction);
    }
    return ok;
}

/// Clamps axes to [-127, 127], strips unknown buttons and caps view_delay; adds one to `violations` for
/// every field it had to change.
Input sanitize_input(const Input& in, std::uint32_t& violations);

}  // namespace arena
