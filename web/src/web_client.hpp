// WebClient: the page's whole client: BrowserTransport, Client<ArenaGame>, input (keys and mouse, or the
// autoplay script), the arena, the overlay and window.rewindStats, advanced once per animation frame.
#pragma once

#include "arena_view.hpp"
#include "autoplay.hpp"
#include "browser_transport.hpp"
#include "canvas.hpp"
#include "input.hpp"
#include "overlay.hpp"
#include "page_config.hpp"
#include "web_types.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace web {

/// One browser tab's arena client.
class WebClient {
public:
    /// A client for the page's settings; connects at once when they name a server (else shows why not).
    WebClient(PageConfig config, rwd::Micros now);
    /// One animation frame at `now`: input, session update, drawing, stats.
    void frame(rwd::Micros now);
    /// The page is going away: say goodbye so the seat is freed at once rather than after a timeout.
    void leave(rwd::Micros now);

private:
    void start(rwd::Micros now);
    void draw(rwd::Micros now);
    void draw_status(Point size, float arena_left, rwd::Micros now);
    void publish(rwd::Micros now);

    PageConfig config_;
    std::unique_ptr<BrowserTransport> transport_;
    std::unique_ptr<ArenaClient> client_;
    std::optional<Autoplay> autoplay_;
    std::string problem_;  // why the page cannot play; shown instead of the arena's state
    Canvas canvas_;
    ArenaView view_;
    Overlay overlay_;
    InputState input_;
    arena::Input human_{};
    std::vector<DrawnEntity> entities_, ghosts_;
    std::vector<std::uint32_t> visible_;
    bool own_visible_ = false;
    bool left_ = false;  // the script finished and said goodbye
    std::uint64_t frames_ = 0;
    rwd::Micros last_frame_{};
    double fps_ = 0.0;
    rwd::Micros play_start_{};
    bool played_ = false;
};

}  // namespace web
