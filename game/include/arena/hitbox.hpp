/// A player's hit circle as recorded for lag compensation.
#pragma once

#include <cstdint>

namespace arena {

/// One target's hit circle at some moment (grid units); trivially copyable so the server can keep a history.
struct Hitbox {
    std::int32_t x = 0;  ///< centre x
    std::int32_t y = 0;  ///< centre y
    std::int32_t r = 0;  ///< radius
    bool alive = false;  ///< only living players can be hit
};

}  // namespace arena
