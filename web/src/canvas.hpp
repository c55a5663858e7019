// Canvas: the page's <canvas id="arena"> through its 2D context, one call per shape from C++ (EM_JS).
#pragma once

#include "client/palette.hpp"

#include <cstddef>
#include <string_view>

namespace web {

/// A colour with its opacity (0..255), from the native client's palette.
struct Colour {
    apps::palette::Rgb rgb;  ///< the colour
    int alpha = 255;         ///< 255 opaque
};

/// A point on the canvas, in CSS pixels (x right, y down).
struct Point {
    float x = 0.0f;  ///< pixels from the left
    float y = 0.0f;  ///< pixels from the top
};

/// How text is placed against its point.
enum class Align { left, right, centre };

/// The drawing calls the client makes; every one goes straight to the canvas's 2D context.
class Canvas {
public:
    /// Fits the canvas to its element's size (device pixels behind CSS pixels) and clears it to `clear`.
    /// Returns the size in CSS pixels.
    Point begin_frame(Colour clear);
    /// A filled axis-aligned rectangle from `a` to `b` (any two opposite corners).
    void fill_rect(Point a, Point b, Colour c);
    /// A rectangle's outline.
    void stroke_rect(Point a, Point b, Colour c, float width);
    /// A filled circle.
    void fill_circle(Point centre, float radius, Colour c);
    /// A circle's outline.
    void stroke_circle(Point centre, float radius, Colour c, float width);
    /// A straight line.
    void line(Point a, Point b, Colour c, float width);
    /// Connected line segments through `points` (at least 2).
    void polyline(const Point* points, int count, Colour c, float width);
    /// One line of text in the page's monospace font, `size` pixels high, `a` its baseline point.
    void text(Point a, std::string_view s, Colour c, float size, Align align = Align::left);
    /// The width `s` takes at `size`.
    [[nodiscard]] float text_width(std::string_view s, float size);
};

}  // namespace web
