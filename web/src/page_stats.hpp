// PageStats: window.rewindStats, the client's figures for the page's script and the browser test, every
// frame.
#pragma once

#include "browser_transport.hpp"
#include "web_types.hpp"

#include <cstdint>
#include <span>
#include <string>

namespace web {

/// What the page knows beside the session's own stats.
struct PageFacts {
    std::uint64_t frames = 0;                ///< frames drawn since the page started
    std::span<const std::uint32_t> visible;  ///< ids of the remote players drawn this frame
    bool own_visible = false;                ///< the local player was drawn this frame
    double played_s = 0.0;                   ///< seconds in the playing phase (autoplay: of the script)
    bool autoplay = false;                   ///< the scripted input is playing
    bool done = false;                       ///< the script finished and the page left (or it ended)
    std::string problem;                     ///< why the page cannot play (no server, bad config), or ""
    std::string url;                         ///< the server's URL
};

/// Replaces window.rewindStats with the client's figures now.
void publish_stats(const ArenaClient& client, const BrowserTransport& transport, const PageFacts& facts);

}  // namespace web
