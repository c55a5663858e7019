// Hud drawing: kill feed lines, hit crosses over the drawn target, and the death banner with the respawn
// countdown read from the predicted own player.
#include "client/hud.hpp"

#include "client/palette.hpp"

#include <arena/arena_game.hpp>

#include <algorithm>
#include <cstdio>

namespace apps {

namespace {

namespace cs = rwd::client_server;

ImU32 col(palette::Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

/// "you" for the local player, else "P<slot>" (the scoreboard's slot numbers).
void name(char* out, std::size_t size, int slot, int own_slot) {
    if (slot == own_slot)
        std::snprintf(out, size, "you");
    else
        std::snprintf(out, size, "P%d", slot);
}

}  // namespace

void Hud::on_message(const cs::Message& m, int own_slot, rwd::Micros now) {
    arena::DeathMessage death;
    arena::HitMessage hit;
    if (cs::read_message_as<arena::ArenaGame>(m, death)) {
        feed_.push_back(Kill{death.victim, death.killer, death.weapon == arena::Weapon::launcher, now});
        while (feed_.size() > kFeedLines) feed_.pop_front();
        if (death.victim == own_slot) killed_by_ = death.killer != death.victim ? death.killer : -1;
        if (death.killer == own_slot && death.victim != own_slot)
            markers_.push_back(Marker{death.victim, true, now});
    } else if (cs::read_message_as<arena::ArenaGame>(m, hit) && hit.shooter == own_slot &&
               hit.target != own_slot) {
        markers_.push_back(Marker{hit.target, false, now});
    }
}

void Hud::draw(ImDrawList* dl, const ArenaView& view, std::span<const DrawnEntity> entities, int own_slot,
               ImVec2 feed_top_right, float feed_min_x, rwd::Micros now) {
    std::erase_if(markers_, [&](const Marker& m) { return now - m.at > kMarkerLife; });
    while (!feed_.empty() && now - feed_.front().at > kFeedLife) feed_.pop_front();
    const float ppm = view.pixels_per_metre();

    // Hit markers: a cross over the target where it is drawn now (a kill: red and larger).
    for (const Marker& m : markers_) {
        const auto it = std::find_if(entities.begin(), entities.end(), [&](const DrawnEntity& d) {
            return d.snap.kind == arena::EntityKind::kPlayer && static_cast<int>(d.id) == m.target;
        });
        if (it == entities.end()) continue;
        const ImVec2 c = view.to_screen(it->snap.x, it->snap.y);
        const float r = std::max(6.0f, ppm * (m.killed ? 1.1f : 0.8f));
        const ImU32 colour = col(m.killed ? palette::kKillMarker : palette::kHitMarker);
        dl->AddLine(ImVec2(c.x - r, c.y - r), ImVec2(c.x - r * 0.4f, c.y - r * 0.4f), colour, 2.5f);
        dl->AddLine(ImVec2(c.x + r, c.y - r), ImVec2(c.x + r * 0.4f, c.y - r * 0.4f), colour, 2.5f);
        dl->AddLine(ImVec2(c.x - r, c.y + r), ImVec2(c.x - r * 0.4f, c.y + r * 0.4f), colour, 2.5f);
        dl->AddLine(ImVec2(c.x + r, c.y + r), ImVec2(c.x + r * 0.4f, c.y + r * 0.4f), colour, 2.5f);
    }

    // Kill feed, newest at the bottom, right-aligned, never wider than its column: a long line is drawn
    // smaller.
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const float room = std::max(40.0f, feed_top_right.x - feed_min_x - 10.0f);
    float y = feed_top_right.y;
    // Text widths at a shrunk size round up by a pixel or so: the clip keeps every line inside its column,
    // off the arena's right edge.
    dl->PushClipRect(ImVec2(feed_min_x, feed_top_right.y), ImVec2(feed_top_right.x, 1e6f), true);
    for (const Kill& k : feed_) {
        char killer[24], victim[24], line[96];
        name(killer, sizeof killer, k.killer, own_slot);
        name(victim, sizeof victim, k.victim, own_slot);
        if (k.killer == k.victim)
            std::snprintf(line, sizeof line, "%s died", victim);
        else
            std::snprintf(line, sizeof line, "%s killed %s (%s)", killer, victim,
                          k.launcher ? "launcher" : "rifle");
        const float wide = font->CalcTextSizeA(size, 1e9f, 0.0f, line).x;
        const float fits = wide > room ? size * room / wide : size;
        const ImVec2 ts = font->CalcTextSizeA(fits, 1e9f, 0.0f, line);
        const ImVec2 at(feed_top_right.x - ts.x - 6.0f, y);
        dl->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 1.0f), ImVec2(feed_top_right.x, at.y + ts.y + 1.0f),
                          IM_COL32(0, 0, 0, 140));
        const bool mine = k.killer == own_slot || k.victim == own_slot;
        dl->AddText(font, fits, at, mine ? col(palette::kOwnRing) : IM_COL32(230, 230, 230, 255), line);
        y += ts.y + 4.0f;
    }
    dl->PopClipRect();

    // Death: who did it and when the player is back, over the middle of the arena.
    showing_death_ = false;
    const auto own = std::find_if(entities.begin(), entities.end(), [&](const DrawnEntity& d) {
        return d.own && d.snap.kind == arena::EntityKind::kPlayer;
    });
    if (own == entities.end() || (own->snap.flags & arena::kAlive) != 0 || own_slot < 0) return;
    showing_death_ = true;
    char by[24], line[112];
    if (killed_by_ >= 0) name(by, sizeof by, killed_by_, own_slot);
    const double respawn_s = static_cast<double>(own->snap.respawn_timer) / arena::kTickRate;
    if (killed_by_ >= 0)
        std::snprintf(line, sizeof line, "killed by %s - respawn in %.1f s", by, respawn_s);
    else
        std::snprintf(line, sizeof line, "you died - respawn in %.1f s", respawn_s);
    // Twice the normal size, or less so that it stays within the arena.
    const float arena_px = ppm * static_cast<float>(arena::kArenaSize / arena::kUnitsPerMeter);
    const float plain = font->CalcTextSizeA(size, 1e9f, 0.0f, line).x;
    const float big = size * std::clamp(0.9f * arena_px / std::max(plain, 1.0f), 1.0f, 2.0f);
    const ImVec2 ts = font->CalcTextSizeA(big, 1e9f, 0.0f, line);
    const ImVec2 mid = view.to_screen(arena::kArenaSize / 2.0, arena::kArenaSize * 0.62);
    const ImVec2 at(mid.x - ts.x * 0.5f, mid.y - ts.y * 0.5f);
    dl->AddRectFilled(ImVec2(at.x - 12.0f, at.y - 8.0f), ImVec2(at.x + ts.x + 12.0f, at.y + ts.y + 8.0f),
                      IM_COL32(0, 0, 0, 170), 6.0f);
    dl->AddText(font, big, at, col(palette::kDeathText), line);
}

}  // namespace apps
