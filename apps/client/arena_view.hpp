// ArenaView: draws the arena (floor, walls, players, aim, HP, projectiles, shot tracers, ghosts) with ImGui.
#pragma once

#include "client/net_player.hpp"

#include <imgui.h>

#include <arena/shot_trace.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace apps {

/// One entity to draw: its id, its replicated fields, and whether it is the local player.
struct DrawnEntity {
    std::uint32_t id = 0;        ///< entity id (player slot, or projectile id)
    arena::EntitySnapshot snap;  ///< where and what it is
    bool own = false;            ///< the local player (drawn in its own colour; aim follows the mouse)
};

/// The client-server scene of `player` at `now`: entities as the session renders them (the own player
/// smoothed), and with `ghosts` the newest snapshot's entities; both empty unless playing.
void client_scene(NetPlayer& player, rwd::Micros now, bool ghosts, std::vector<DrawnEntity>& entities,
                  std::vector<DrawnEntity>& ghost_entities);

/// Every entity of a whole arena State (a rollback match, a replay), `own_slot`'s player marked as own (-1:
/// none).
void state_scene(const arena::State& state, int own_slot, std::vector<DrawnEntity>& entities);

/// Draws one client's view of the arena into an ImDrawList, fitted into a screen rectangle. y grows upwards
/// in the arena and downwards on screen.
class ArenaView {
public:
    /// Fits the 64 m arena into the rectangle (top-left, size) of the screen.
    void layout(ImVec2 top_left, ImVec2 size);
    /// Draws the floor and walls, then `ghosts` as outlines, then `entities`, then shot tracers (from ammo
    /// drops).
    void draw(ImDrawList* dl, std::span<const DrawnEntity> entities, std::span<const DrawnEntity> ghosts,
              rwd::Micros now);
    /// A world position (grid units) on screen.
    [[nodiscard]] ImVec2 to_screen(double x, double y) const;
    /// Where the local player was drawn last frame (for aiming with the mouse), if it was.
    [[nodiscard]] bool own_position(ImVec2& out) const {
        out = own_screen_;
        return has_own_;
    }
    /// Whether remote players are drawn faded (their positions are guesses: the server has been silent).
    void set_stale(bool stale) { stale_ = stale; }
    /// Pixels per metre at the current layout.
    [[nodiscard]] float pixels_per_metre() const { return scale_ * 1024.0f; }

private:
    struct Tracer {
        ImVec2 from;
        ImVec2 to;
        rwd::Micros born;
    };
    void draw_player(ImDrawList* dl, std::uint32_t id, const arena::EntitySnapshot& e, bool own);
    void note_shot(std::uint32_t id, const arena::EntitySnapshot& e, rwd::Micros now);

    ImVec2 origin_{};      // screen position of arena (0, kArenaSize)
    float scale_ = 0.01f;  // pixels per grid unit
    arena::ShotTraces shots_;
    std::vector<Tracer> tracers_;
    ImVec2 own_screen_{};
    bool has_own_ = false;
    bool stale_ = false;
};

}  // namespace apps
