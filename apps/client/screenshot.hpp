// Screenshots: the SDL renderer's current frame saved as a PNG (stb_image_write from Debian's libstb).
#pragma once

#include <SDL.h>

#include <rewind/core/result.hpp>

#include <string>

namespace apps {

/// Reads back what `renderer` has drawn so far this frame (call before SDL_RenderPresent) and writes it to
/// `path` as an RGBA PNG; io_error if the read-back or the write fails.
[[nodiscard]] rwd::Status save_screenshot(SDL_Renderer* renderer, const std::string& path);

}  // namespace apps
