// ArenaView drawing: grid units to pixels; tracers from ammo drops, faded over 150 ms (as the native client).
#include "arena_view.hpp"

#include <arena/map.hpp>
#include <arena/shot_trace.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace web {

namespace palette = apps::palette;

namespace {

constexpr rwd::Micros kTracerLife{150'000};

Colour col(palette::Rgb c, int alpha = 255) { return Colour{c, alpha}; }

palette::Rgb player_colour(std::uint32_t id, bool own) {
    return own ? palette::kOwnPlayer : palette::kOthers[id % palette::kOthers.size()];
}

}  // namespace

void ArenaView::layout(Point top_left, Point size) {
    const float side = std::max(16.0f, std::min(size.x, size.y));
    scale_ = side / static_cast<float>(arena::kArenaSize);
    origin_ = Point{top_left.x + (size.x - side) * 0.5f, top_left.y + (size.y - side) * 0.5f};
}

Point ArenaView::to_screen(double x, double y) const {
    return Point{origin_.x + static_cast<float>(x) * scale_,
                 origin_.y + static_cast<float>(arena::kArenaSize - y) * scale_};
}

void ArenaView::note_shot(std::uint32_t id, const arena::EntitySnapshot& e, rwd::Micros now) {
    // Snapshots carry no shot events: a magazine that lost a round means the rifle fired since last frame.
    if (const auto t = shots_.note(id, e))
        tracers_.push_back(Tracer{to_screen(t->from_x, t->from_y), to_screen(t->to_x, t->to_y), now});
}

void ArenaView::draw_player(Canvas& canvas, std::uint32_t id, const arena::EntitySnapshot& e, bool own) {
    const Point c = to_screen(e.x, e.y);
    const float r = static_cast<float>(arena::kPlayerRadius) * scale_;
    const palette::Rgb colour = player_colour(id, own);
    // The local player wears a ring, alive or dead, so it is found at a glance among the others.
    if (own) canvas.stroke_circle(c, r + std::max(3.0f, r * 0.45f), col(palette::kOwnRing), 2.5f);
    if ((e.flags & arena::kAlive) == 0) {  // dead, waiting to respawn
        canvas.stroke_circle(c, r, col(colour, 90), 1.5f);
        return;
    }
    const int alpha = stale_ && !own ? 80 : 255;
    canvas.fill_circle(c, r, col(colour, alpha));
    const double a = arena::aim_radians(e.aim);
    const float len = r * 2.2f;
    canvas.line(
        c, Point{c.x + static_cast<float>(std::cos(a)) * len, c.y - static_cast<float>(std::sin(a)) * len},
        col(colour, alpha), 2.0f);
    const float w = r * 2.4f;
    const float h = std::max(3.0f, r * 0.35f);
    const Point bar{c.x - w * 0.5f, c.y - r - h - 4.0f};
    const float frac = std::clamp(static_cast<float>(e.hp) / static_cast<float>(arena::kMaxHp), 0.0f, 1.0f);
    canvas.fill_rect(bar, Point{bar.x + w, bar.y + h}, col(palette::kHpBad));
    canvas.fill_rect(bar, Point{bar.x + w * frac, bar.y + h}, col(palette::kHpGood));
    char label[16] = "you";
    if (!own) std::snprintf(label, sizeof label, "%u", id);
    canvas.text(Point{c.x + r + 4.0f, c.y - r + 10.0f}, label,
                own ? col(palette::kOwnRing) : Colour{{230, 230, 230}, 200}, 12.0f);
}

void ArenaView::draw(Canvas& canvas, std::span<const DrawnEntity> entities,
                     std::span<const DrawnEntity> ghosts, rwd::Micros now) {
    const Point a0 = to_screen(0, arena::kArenaSize);
    const Point a1 = to_screen(arena::kArenaSize, 0);
    canvas.fill_rect(a0, a1, col(palette::kBackground));
    for (int m = 4; m < 64; m += 4) {
        const double u = m * arena::kUnitsPerMeter;
        canvas.line(to_screen(u, 0), to_screen(u, arena::kArenaSize), col(palette::kGrid), 1.0f);
        canvas.line(to_screen(0, u), to_screen(arena::kArenaSize, u), col(palette::kGrid), 1.0f);
    }
    for (const arena::Box& b : arena::walls())
        canvas.fill_rect(to_screen(b.min_x, b.max_y), to_screen(b.max_x, b.min_y), col(palette::kWall));
    canvas.stroke_rect(a0, a1, col(palette::kWall), 2.0f);

    for (const auto& g : ghosts) {
        const Point c = to_screen(g.snap.x, g.snap.y);
        if (g.snap.kind == arena::EntityKind::kProjectile)
            canvas.stroke_circle(c, static_cast<float>(arena::kRocketRadius) * scale_ + 1.0f,
                                 col(palette::kGhost, 160), 1.0f);
        else if ((g.snap.flags & arena::kAlive) != 0)
            canvas.stroke_circle(c, static_cast<float>(arena::kPlayerRadius) * scale_,
                                 col(palette::kGhost, 200), 1.5f);
    }

    has_own_ = false;
    for (const auto& d : entities) {
        if (d.snap.kind == arena::EntityKind::kProjectile) {
            canvas.fill_circle(to_screen(d.snap.x, d.snap.y),
                               std::max(2.0f, static_cast<float>(arena::kRocketRadius) * scale_),
                               col(palette::kProjectile));
            continue;
        }
        if (d.own) {
            own_screen_ = to_screen(d.snap.x, d.snap.y);
            has_own_ = true;
        }
        note_shot(d.id, d.snap, now);
        draw_player(canvas, d.id, d.snap, d.own);
    }

    std::erase_if(tracers_, [&](const Tracer& t) { return now - t.born > kTracerLife; });
    for (const Tracer& t : tracers_) {
        const double life = 1.0 - (now - t.born).seconds() / kTracerLife.seconds();
        canvas.line(t.from, t.to, col(palette::kTracer, static_cast<int>(60 + 195 * life)), 2.0f);
    }
}

}  // namespace web
