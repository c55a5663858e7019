// ArenaView drawing: everything in grid units converted to pixels; tracers from ammo drops, faded over 150
// ms.
#include "client/arena_view.hpp"

#include "client/palette.hpp"

#include <arena/map.hpp>
#include <arena/shot_trace.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace apps {

namespace {

constexpr rwd::Micros kTracerLife{150'000};

ImU32 col(palette::Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

palette::Rgb player_colour(std::uint32_t id, bool own) {
    return own ? palette::kOwnPlayer : palette::kOthers[id % palette::kOthers.size()];
}

}  // namespace

void ArenaView::layout(ImVec2 top_left, ImVec2 size) {
    const float side = std::max(16.0f, std::min(size.x, size.y));
    scale_ = side / static_cast<float>(arena::kArenaSize);
    origin_ = ImVec2(top_left.x + (size.x - side) * 0.5f, top_left.y + (size.y - side) * 0.5f);
}

ImVec2 ArenaView::to_screen(double x, double y) const {
    return ImVec2(origin_.x + static_cast<float>(x) * scale_,
                  origin_.y + static_cast<float>(arena::kArenaSize - y) * scale_);
}

void ArenaView::note_shot(std::uint32_t id, const arena::EntitySnapshot& e, rwd::Micros now) {
    // Snapshots carry no shot events: a magazine that lost a round means the rifle fired since last frame.
    if (const auto t = shots_.note(id, e))
        tracers_.push_back(Tracer{to_screen(t->from_x, t->from_y), to_screen(t->to_x, t->to_y), now});
}

void ArenaView::draw_player(ImDrawList* dl, std::uint32_t id, const arena::EntitySnapshot& e, bool own) {
    const ImVec2 c = to_screen(e.x, e.y);
    const float r = static_cast<float>(arena::kPlayerRadius) * scale_;
    const palette::Rgb colour = player_colour(id, own);
    // The local player wears a ring, alive or dead, so it is found at a glance among the others.
    if (own) dl->AddCircle(c, r + std::max(3.0f, r * 0.45f), col(palette::kOwnRing), 32, 2.5f);
    if ((e.flags & arena::kAlive) == 0) {  // dead, waiting to respawn
        dl->AddCircle(c, r, col(colour, 90), 20, 1.5f);
        return;
    }
    const int alpha = stale_ && !own ? 80 : 255;
    dl->AddCircleFilled(c, r, col(colour, alpha), 24);
    const double a = arena::aim_radians(e.aim);
    const float len = r * 2.2f;
    dl->AddLine(
        c, ImVec2(c.x + static_cast<float>(std::cos(a)) * len, c.y - static_cast<float>(std::sin(a)) * len),
        col(colour, alpha), 2.0f);
    const float w = r * 2.4f;
    const float h = std::max(3.0f, r * 0.35f);
    const ImVec2 bar(c.x - w * 0.5f, c.y - r - h - 4.0f);
    const float frac = std::clamp(static_cast<float>(e.hp) / static_cast<float>(arena::kMaxHp), 0.0f, 1.0f);
    dl->AddRectFilled(bar, ImVec2(bar.x + w, bar.y + h), col(palette::kHpBad));
    dl->AddRectFilled(bar, ImVec2(bar.x + w * frac, bar.y + h), col(palette::kHpGood));
    char label[8] = "you";
    if (!own) std::snprintf(label, sizeof label, "%u", id);
    dl->AddText(ImVec2(c.x + r + 4.0f, c.y - r), own ? col(palette::kOwnRing) : IM_COL32(230, 230, 230, 200),
                label);
}

void state_scene(const arena::State& state, int own_slot, std::vector<DrawnEntity>& entities) {
    std::vector<arena::ArenaGame::EntityRecord> records;
    arena::ArenaGame::capture(state, records);
    entities.clear();
    for (const auto& r : records)
        entities.push_back(
            DrawnEntity{r.id, r.snap, own_slot >= 0 && r.id == arena::ArenaGame::player_entity(own_slot)});
}

void client_scene(NetPlayer& player, rwd::Micros now, bool ghosts, std::vector<DrawnEntity>& entities,
                  std::vector<DrawnEntity>& ghost_entities) {
    entities.clear();
    ghost_entities.clear();
    auto& client = player.client();
    if (client.phase() != rwd::client_server::ClientPhase::playing) return;
    const std::uint32_t own_id = arena::ArenaGame::player_entity(client.slot());
    for (const auto& re : client.render_entities(now)) {
        DrawnEntity d{re.id, re.snap, re.id == own_id};
        if (d.own)
            if (auto s = client.smoothed_own_entity())
                d.snap = *s;  // prediction plus the decaying correction offset
        entities.push_back(d);
    }
    if (ghosts)  // the server's newest word, uninterpolated (empty before the first snapshot)
        for (const auto& rec : client.newest_snapshot_entities())
            ghost_entities.push_back(DrawnEntity{rec.id, rec.snap, false});
}

void ArenaView::draw(ImDrawList* dl, std::span<const DrawnEntity> entities,
                     std::span<const DrawnEntity> ghosts, rwd::Micros now) {
    const ImVec2 a0 = to_screen(0, arena::kArenaSize);
    const ImVec2 a1 = to_screen(arena::kArenaSize, 0);
    dl->AddRectFilled(a0, a1, col(palette::kBackground));
    for (int m = 4; m < 64; m += 4) {
        const double u = m * arena::kUnitsPerMeter;
        dl->AddLine(to_screen(u, 0), to_screen(u, arena::kArenaSize), col(palette::kGrid));
        dl->AddLine(to_screen(0, u), to_screen(arena::kArenaSize, u), col(palette::kGrid));
    }
    for (const arena::Box& b : arena::walls())
        dl->AddRectFilled(to_screen(b.min_x, b.max_y), to_screen(b.max_x, b.min_y), col(palette::kWall));
    dl->AddRect(a0, a1, col(palette::kWall), 0.0f, 0, 2.0f);

    for (const auto& g : ghosts) {
        const ImVec2 c = to_screen(g.snap.x, g.snap.y);
        if (g.snap.kind == arena::EntityKind::kProjectile) {
            dl->AddCircle(c, static_cast<float>(arena::kRocketRadius) * scale_ + 1.0f,
                          col(palette::kGhost, 160), 10);
        } else if ((g.snap.flags & arena::kAlive) != 0) {
            dl->AddCircle(c, static_cast<float>(arena::kPlayerRadius) * scale_, col(palette::kGhost, 200), 24,
                          1.5f);
        }
    }

    has_own_ = false;
    for (const auto& d : entities) {
        if (d.snap.kind == arena::EntityKind::kProjectile) {
            dl->AddCircleFilled(to_screen(d.snap.x, d.snap.y),
                                std::max(2.0f, static_cast<float>(arena::kRocketRadius) * scale_),
                                col(palette::kProjectile), 12);
            continue;
        }
        if (d.own) {
            own_screen_ = to_screen(d.snap.x, d.snap.y);
            has_own_ = true;
        }
        note_shot(d.id, d.snap, now);
        draw_player(dl, d.id, d.snap, d.own);
    }

    std::erase_if(tracers_, [&](const Tracer& t) { return now - t.born > kTracerLife; });
    for (const Tracer& t : tracers_) {
        const double life = 1.0 - (now - t.born).seconds() / kTracerLife.seconds();
        dl->AddLine(t.from, t.to, col(palette::kTracer, static_cast<int>(60 + 195 * life)), 2.0f);
    }
}

}  // namespace apps
