// ShotTraces: a shot seen as a magazine that lost a round, traced along the aim to the first wall.
#include <arena/map.hpp>
#include <arena/shot_trace.hpp>

#include <cmath>

namespace arena {

double aim_radians(std::uint16_t aim) { return static_cast<double>(aim) * 6.283185307179586 / 65536.0; }

std::optional<ShotTrace> ShotTraces::note(std::uint32_t id, const EntitySnapshot& e) {
    auto [it, fresh] = last_ammo_.try_emplace(id, e.ammo);
    const bool fired = !fresh && e.ammo < it->second && (e.flags & kAlive) != 0;
    it->second = e.ammo;
    if (!fired) return std::nullopt;
    const double a = aim_radians(e.aim);
    Ray ray;
    ray.ox = e.x;
    ray.oy = e.y;
    ray.ux = static_cast<std::int32_t>(std::lround(std::cos(a) * 16384.0));
    ray.uy = static_cast<std::int32_t>(std::lround(std::sin(a) * 16384.0));
    ray.length = kRifleRange;
    const double reach = ray_walls(ray);
    return ShotTrace{static_cast<double>(e.x), static_cast<double>(e.y), e.x + std::cos(a) * reach,
                     e.y + std::sin(a) * reach};
}

}  // namespace arena
