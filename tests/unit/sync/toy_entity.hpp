// A toy replicated entity for the snapshot tests: position and hit points, with full and delta encodings.
#pragma once

#include <rewind/sync/interest_grid.hpp>
#include <rewind/wire/serialize.hpp>

#include <cstdint>
#include <vector>

namespace rwd::sync::toy {

/// One toy entity's replicated fields.
struct Snap {
    std::int32_t x = 0;     ///< grid units, -1e6..1e6
    std::int32_t y = 0;     ///< grid units, -1e6..1e6
    std::uint8_t hp = 100;  ///< 0..100
    friend bool operator==(const Snap&, const Snap&) = default;
};

/// An entity with its id, as a game's EntityRecord.
struct Rec {
    std::uint32_t id = 0;
    Snap snap{};
    friend bool operator==(const Rec&, const Rec&) = default;
};

inline constexpr std::int32_t kLimit = 1'000'000;

/// Full form: x, y in 21 bits each, hp in 7.
template <class Stream>
bool serialize(Stream& s, Snap& v) {
    return wire::serialize_int(s, v.x, -kLimit, kLimit) && wire::serialize_int(s, v.y, -kLimit, kLimit) &&
           wire::serialize_int(s, v.hp, std::uint8_t{0}, std::uint8_t{100});
}

/// Delta form: x, y relative to the base; hp behind a changed bit.
template <class Stream>
bool serialize_delta(Stream& s, Snap& v, const Snap& base) {
    if constexpr (Stream::is_reading) v = base;
    if (!wire::serialize_relative(s, base.x, v.x) || !wire::serialize_relative(s, base.y, v.y)) return false;
    if constexpr (Stream::is_reading)
        if (v.x < -kLimit || v.x > kLimit || v.y < -kLimit || v.y > kLimit)
            return s.fail(Errc::value_out_of_range), false;
    bool hp_changed = v.hp != base.hp;
    if (!wire::serialize_bool(s, hp_changed)) return false;
    return !hp_changed || wire::serialize_int(s, v.hp, std::uint8_t{0}, std::uint8_t{100});
}

/// Positions of a list, for the planner.
inline std::vector<GridPoint> positions(const std::vector<Rec>& world) {
    std::vector<GridPoint> p;
    for (const Rec& r : world) p.push_back(GridPoint{r.snap.x, r.snap.y});
    return p;
}

}  // namespace rwd::sync::toy
