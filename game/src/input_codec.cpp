/// The arena's input codec, compiled once for every stream type rewind serializes with.
#include <cstdint>

#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream_list.hpp>

#include "arena/input.hpp"

namespace arena {

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
    // The origin travels with rifle shots only; anything else must not carry one.
    bool has_origin = in.has_origin;
    std::uint32_t ox = in.origin_x;
    std::uint32_t oy = in.origin_y;
    if ((buttons & kFire) != 0) {
        ok = ok && rwd::wire::serialize_bool(s, has_origin);
        if (has_origin) {
            ok = ok && serialize_bits(s, ox, 16);
            ok = ok && serialize_bits(s, oy, 16);
        }
    } else if constexpr (Stream::is_writing) {
        ok = ok && !has_origin;
    } else {
        has_origin = false;
    }
    if constexpr (Stream::is_reading) {
        if (!ok) return false;
        in.buttons = static_cast<std::uint8_t>(buttons);
        in.aim = static_cast<std::uint16_t>(aim);
        in.view_fraction = static_cast<std::uint16_t>(fraction);
        in.has_origin = has_origin;
        in.origin_x = has_origin ? static_cast<std::uint16_t>(ox) : std::uint16_t{0};
        in.origin_y = has_origin ? static_cast<std::uint16_t>(oy) : std::uint16_t{0};
    }
    return ok;
}

#define ARENA_INPUT_CODEC(S) template bool serialize<S>(S&, Input&);
RWD_WIRE_FOR_EACH_STREAM(ARENA_INPUT_CODEC)
#undef ARENA_INPUT_CODEC

}  // namespace arena
