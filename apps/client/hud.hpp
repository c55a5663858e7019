// Hud: what the local player must see of the match: who they are, why they died and when they respawn, the
// kill feed, and hit markers, all from the game events the server sends.
#pragma once

#include "client/arena_view.hpp"

#include <rewind/core/time.hpp>
#include <rewind/session/client_server/messages.hpp>

#include <imgui.h>

#include <deque>
#include <span>

namespace apps {

/// The match's heads-up display. Feed it every event the client polls; draw it after the arena.
class Hud {
public:
    /// How long a kill-feed line and a hit marker stay.
    static constexpr rwd::Micros kFeedLife{6'000'000};
    static constexpr rwd::Micros kMarkerLife{300'000};
    /// Kill-feed lines kept.
    static constexpr std::size_t kFeedLines = 5;

    /// Takes one message the server sent (deaths feed the kill feed, hits by `own_slot` make markers).
    void on_message(const rwd::client_server::Message& message, int own_slot, rwd::Micros now);
    /// Draws the markers over the players in `entities` (as `view` placed them), the kill feed at
    /// `feed_top_right` (no further left than `feed_min_x`), and, while the local player (`own`, if drawn) is
    /// dead, the death message and the respawn countdown over the arena.
    void draw(ImDrawList* dl, const ArenaView& view, std::span<const DrawnEntity> entities, int own_slot,
              ImVec2 feed_top_right, float feed_min_x, rwd::Micros now);
    /// Whether the death message is showing (the local player is dead).
    [[nodiscard]] bool showing_death() const { return showing_death_; }

private:
    struct Kill {
        int victim;
        int killer;
        bool launcher;
        rwd::Micros at;
    };
    struct Marker {
        int target;
        bool killed;
        rwd::Micros at;
    };
    std::deque<Kill> feed_;
    std::deque<Marker> markers_;
    int killed_by_ = -1;  // who killed the local player last (-1: nobody yet, or itself)
    bool showing_death_ = false;
};

}  // namespace apps
