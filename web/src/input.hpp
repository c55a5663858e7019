// Input: the tab's keyboard and mouse (Emscripten's HTML5 callbacks) to an arena::Input, as the native client
// maps them: WASD or arrows move, the mouse aims from the drawn own player, left click fires, right click
// alt-fires, R reloads, space dashes; F1 toggles the overlay, F2 the ghosts.
#pragma once

#include "arena_view.hpp"

#include <arena/input.hpp>

namespace web {

/// The keys and buttons held now, kept up to date by the browser's events.
class InputState {
public:
    /// Registers the callbacks on the window (keys, focus) and on the canvas `#arena` (mouse).
    void attach();
    /// The arena input for the held keys and the mouse, aiming from where `view` drew the own player (the
    /// previous aim when it was not drawn).
    [[nodiscard]] arena::Input read(const ArenaView& view, const arena::Input& previous) const;
    /// F1 was pressed since the last call.
    [[nodiscard]] bool take_toggle_overlay();
    /// F2 was pressed since the last call.
    [[nodiscard]] bool take_toggle_ghosts();

    // Called by the callbacks.
    /// A key went down (`down`) or up; `code` is KeyboardEvent.code. True when the key is the game's.
    bool on_key(const char* code, bool down);
    /// The mouse moved to (x, y) in canvas CSS pixels, with `buttons` (bit 0 left, bit 1 right) held.
    void on_mouse(float x, float y, int buttons);
    /// The tab lost focus: nothing is held any more.
    void release_all();

private:
    bool up_ = false, down_ = false, left_ = false, right_ = false;
    bool reload_ = false, dash_ = false;
    bool fire_ = false, alt_fire_ = false;
    float mouse_x_ = 0.0f, mouse_y_ = 0.0f;
    bool has_mouse_ = false;
    bool toggle_overlay_ = false, toggle_ghosts_ = false;
};

}  // namespace web
