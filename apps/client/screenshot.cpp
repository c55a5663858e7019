// save_screenshot: SDL_RenderReadPixels into RGBA bytes, then stbi_write_png.
#include "client/screenshot.hpp"

#include <stb_image_write.h>

#include <vector>

namespace apps {

rwd::Status save_screenshot(SDL_Renderer* renderer, const std::string& path) {
    int w = 0;
    int h = 0;
    if (SDL_GetRendererOutputSize(renderer, &w, &h) != 0 || w <= 0 || h <= 0)
        return rwd::Error{rwd::Errc::io_error, "SDL_GetRendererOutputSize failed"};
    std::vector<unsigned char> pixels(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
    // RGBA32 is byte order R, G, B, A on every platform: what stbi_write_png expects for 4 components.
    if (SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_RGBA32, pixels.data(), w * 4) != 0)
        return rwd::Error{rwd::Errc::io_error, "SDL_RenderReadPixels failed"};
    for (std::size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;  // the window is opaque
    if (stbi_write_png(path.c_str(), w, h, 4, pixels.data(), w * 4) == 0)
        return rwd::Error{rwd::Errc::io_error, "stbi_write_png failed"};
    return {};
}

}  // namespace apps
