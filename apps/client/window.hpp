// Window: the SDL2 window and renderer with Dear ImGui on top, plus keyboard/mouse to arena input.
#pragma once

#include "client/arena_view.hpp"

#include <arena/input.hpp>

#include <rewind/core/result.hpp>

#include <memory>
#include <string>

struct SDL_Window;
struct SDL_Renderer;

namespace apps {

/// Keys the programs react to outside ImGui.
struct WindowKeys {
    bool quit = false;            ///< window closed or Esc
    bool toggle_overlay = false;  ///< F1 pressed
    bool toggle_ghosts = false;   ///< F2 pressed
    bool enter = false;           ///< Enter pressed (reconnect, once the session ended)
    // Replay playback (rewind-client --replay):
    bool pause = false;    ///< Space: play or pause
    bool forward = false;  ///< Right arrow: one frame on
    bool back = false;     ///< Left arrow: one frame back
    int jump = 0;          ///< Page Up / Page Down: +1 / -1 (ten seconds on or back)
    int speed = 0;         ///< + / -: +1 faster, -1 slower
};

/// An SDL window with an SDL_Renderer and an ImGui context on the SDL backends. One per process.
class Window {
public:
    /// Opens a window of width x height; io_error with SDL's reason when there is no display.
    [[nodiscard]] static rwd::Result<std::unique_ptr<Window>> open(int width, int height,
                                                                   std::string& renderer_name);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    /// Handles pending events (ImGui first) and reports the keys above.
    [[nodiscard]] WindowKeys poll();
    /// Starts an ImGui frame (draw into ImGui::GetBackgroundDrawList() and windows after this).
    void begin_frame();
    /// Renders the frame; with a non-empty `screenshot` path saves it as PNG first. Returns the save status.
    rwd::Status end_frame(const std::string& screenshot = {});

private:
    Window() = default;
    SDL_Window* window_ = nullptr;
    SDL_Renderer* renderer_ = nullptr;
    bool imgui_ = false;
};

/// Keyboard and mouse to an arena input: WASD move, mouse aims from the drawn own player, left click fire,
/// right click alt-fire, R reload, space dash. Input ImGui wants (typing in a slider, clicking a window) is
/// not used.
[[nodiscard]] arena::Input read_input(const ArenaView& view, const arena::Input& previous);

}  // namespace apps
