// Overlay: the compact netcode panel (RTT, loss, interpolation buffer, corrections/s, prediction error,
// rates) with short plots, and the scoreboard, sampled ten times a second like the native client's overlay.
#pragma once

#include "canvas.hpp"
#include "web_types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace web {

/// A ring of float samples drawn as a line, oldest first.
class Plot {
public:
    /// Samples kept (ten seconds at ten a second).
    static constexpr int kSize = 100;
    /// Appends one sample, dropping the oldest when full.
    void push(float v);
    /// The newest sample (0 before any).
    [[nodiscard]] float last() const;
    /// Draws the samples into the rectangle (top-left, size), scaled to their own maximum (at least `floor`).
    void draw(Canvas& canvas, Point top_left, Point size, Colour c, float floor) const;

private:
    std::array<float, kSize> values_{};
    int next_ = 0;
    int count_ = 0;
};

/// Samples a client's figures and draws them.
class Overlay {
public:
    /// Takes one sample of every plotted figure if 100 ms passed since the last one.
    void sample(const ArenaClient& client, rwd::Micros now);
    /// Draws the panel `width` pixels wide at the left of the canvas (height `height`), with `fps` and the
    /// server's `url`.
    void draw(Canvas& canvas, const ArenaClient& client, float width, float height, float fps,
              const std::string& url) const;
    /// Draws the scoreboard (slot, kills, deaths; the own row marked) and the own hp and ammo at the top
    /// right.
    void draw_scoreboard(Canvas& canvas, const ArenaClient& client, float right) const;

private:
    rwd::Micros next_sample_{};
    Plot rtt_, loss_, interp_, corrections_, error_, kbps_down_;
    std::uint64_t corrections_seen_ = 0;
};

}  // namespace web
