// Overlay: the ImGui debug overlay (netcode figures with live plots, ghost toggle, client-side link
// conditioner).
#pragma once

#include "client/net_player.hpp"

#include <imgui.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace apps {

/// A fixed window of float samples for ImGui::PlotLines (a ring, plotted oldest first).
class PlotHistory {
public:
    /// Samples kept.
    static constexpr int kSize = 200;
    /// Appends one sample, dropping the oldest when full.
    void push(float v);
    /// Draws the label with the newest value (printf format `fmt`, one float) and the plot under it.
    void plot(const char* label, const char* fmt, float height = 26.0f) const;
    /// The newest sample (0 before any).
    [[nodiscard]] float last() const {
        return count_ ? values_[static_cast<std::size_t>((next_ + kSize - 1) % kSize)] : 0.0f;
    }

private:
    std::array<float, kSize> values_{};
    int next_ = 0;
    int count_ = 0;
};

/// What the overlay controls and the main loop reads.
struct OverlayToggles {
    bool visible = true;        ///< the overlay is shown (F1)
    bool ghosts = false;        ///< draw server-authoritative ghosts (F2)
    bool conditioner = false;   ///< the client-side link conditioner is on
    float latency_ms = 100.0f;  ///< its one-way latency, each direction
    float jitter_ms = 20.0f;    ///< its jitter, each direction
    float loss_pct = 5.0f;      ///< its loss, each direction
};

/// Samples the session ten times a second and draws the overlay window and the scoreboard.
class Overlay {
public:
    /// Takes one sample of every plotted figure if 100 ms passed since the last one.
    void sample(const NetPlayer& player, rwd::Micros now);
    /// Draws the overlay (if visible) `width` pixels wide at the left and the scoreboard at the top right,
    /// never wider than `right_width` when that is positive (the column the arena leaves it); applies
    /// conditioner changes to `player`. Returns the top-right point just under the scoreboard.
    ImVec2 draw(NetPlayer& player, OverlayToggles& toggles, float fps, float width, float right_width);

private:
    void draw_conditioner(NetPlayer& player, OverlayToggles& toggles);
    ImVec2 draw_scoreboard(const NetPlayer& player, float right_width) const;

    rwd::Micros next_sample_{};
    PlotHistory rtt_, jitter_, loss_, interp_depth_, error_, corrections_, drift_, server_buffer_, kbps_up_,
        kbps_down_;
    std::uint64_t corrections_seen_ = 0;
};

}  // namespace apps
