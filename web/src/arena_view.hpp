// ArenaView: the arena on the canvas as the native client draws it (apps/client/arena_view.cpp), same
// colours.
#pragma once

#include "canvas.hpp"

#include <arena/arena_game.hpp>

#include <rewind/core/time.hpp>

#include <arena/shot_trace.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace web {

/// One entity to draw: its id, its replicated fields, and whether it is the local player.
struct DrawnEntity {
    std::uint32_t id = 0;        ///< entity id (player slot, or projectile id)
    arena::EntitySnapshot snap;  ///< where and what it is
    bool own = false;            ///< the local player (its own colour and ring)
};

/// Draws one client's view of the arena fitted into a rectangle of the canvas; y grows upwards in the arena.
class ArenaView {
public:
    /// Fits the 64 m arena into the rectangle (top-left, size) of the canvas.
    void layout(Point top_left, Point size);
    /// Floor, grid and walls, then `ghosts` as outlines, then `entities`, then shot tracers (from ammo
    /// drops).
    void draw(Canvas& canvas, std::span<const DrawnEntity> entities, std::span<const DrawnEntity> ghosts,
              rwd::Micros now);
    /// A world position (grid units) on the canvas.
    [[nodiscard]] Point to_screen(double x, double y) const;
    /// Where the local player was drawn last frame (the mouse aims from there), if it was.
    [[nodiscard]] bool own_position(Point& out) const {
        out = own_screen_;
        return has_own_;
    }
    /// Whether remote players are drawn faded (the server has been silent: their positions are guesses).
    void set_stale(bool stale) { stale_ = stale; }

private:
    struct Tracer {
        Point from;
        Point to;
        rwd::Micros born;
    };
    void draw_player(Canvas& canvas, std::uint32_t id, const arena::EntitySnapshot& e, bool own);
    void note_shot(std::uint32_t id, const arena::EntitySnapshot& e, rwd::Micros now);

    Point origin_{};       // the canvas position of arena (0, kArenaSize)
    float scale_ = 0.01f;  // pixels per grid unit
    arena::ShotTraces shots_;
    std::vector<Tracer> tracers_;
    Point own_screen_{};
    bool has_own_ = false;
    bool stale_ = false;
};

}  // namespace web
