// Renders lab charts with cairo: axes with round-number ticks, one coloured polyline per series, a legend.
#include "plot.hpp"

#include <cairo.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace lab {
namespace {

constexpr int kWidth = 960;
constexpr int kHeight = 480;
constexpr double kLeft = 80, kRight = 24, kTop = 48, kBottom = 56;

struct Rgb {
    double r, g, b;
};
constexpr std::array<Rgb, 6> kPalette{{{0.12, 0.47, 0.71},
                                       {0.84, 0.15, 0.16},
                                       {0.17, 0.63, 0.17},
                                       {1.0, 0.5, 0.05},
                                       {0.58, 0.4, 0.74},
                                       {0.55, 0.34, 0.29}}};

/// A "nice" step (1, 2 or 5 times a power of ten) giving about `target` intervals over `span`.
double nice_step(double span, int target) {
    if (span <= 0) return 1;
    const double raw = span / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double norm = raw / mag;
    const double step = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
    return step * mag;
}

struct Bounds {
    double x0 = std::numeric_limits<double>::max(), x1 = std::numeric_limits<double>::lowest();
    double y0 = std::numeric_limits<double>::max(), y1 = std::numeric_limits<double>::lowest();
};

Bounds data_bounds(const Chart& chart) {
    Bounds b;
    for (const auto& s : chart.series) {
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t i = 0; i < n; ++i) {
            if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
            b.x0 = std::min(b.x0, s.x[i]);
            b.x1 = std::max(b.x1, s.x[i]);
            b.y0 = std::min(b.y0, s.y[i]);
            b.y1 = std::max(b.y1, s.y[i]);
        }
    }
    if (b.x0 > b.x1) b = Bounds{0, 1, 0, 1};
    b.y0 = std::min(b.y0, 0.0);  // charts of non-negative figures start at zero
    if (b.x1 - b.x0 < 1e-9) b.x1 = b.x0 + 1;
    if (b.y1 - b.y0 < 1e-9) b.y1 = b.y0 + 1;
    b.y1 += (b.y1 - b.y0) * 0.05;
    return b;
}

void draw_text(cairo_t* cr, double x, double y, const std::string& text, double size, bool centered) {
    cairo_set_font_size(cr, size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, text.c_str(), &ext);
    cairo_move_to(cr, centered ? x - ext.width / 2 - ext.x_bearing : x, y);
    cairo_show_text(cr, text.c_str());
}

std::string format_tick(double v, double step) {
    char buf[32];
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step)));
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

}  // namespace

bool write_chart_png(const Chart& chart, const std::string& path, std::string& error) {
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, kWidth, kHeight);
    cairo_t* cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

    const Bounds b = data_bounds(chart);
    const double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
    auto px = [&](double x) { return kLeft + (x - b.x0) / (b.x1 - b.x0) * pw; };
    auto py = [&](double y) { return kTop + ph - (y - b.y0) / (b.y1 - b.y0) * ph; };

    // Grid and tick labels.
    cairo_set_line_width(cr, 1);
    const double xs = nice_step(b.x1 - b.x0, 8), ys = nice_step(b.y1 - b.y0, 6);
    for (double x = std::ceil(b.x0 / xs) * xs; x <= b.x1 + 1e-9; x += xs) {
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        cairo_move_to(cr, px(x), kTop);
        cairo_line_to(cr, px(x), kTop + ph);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        draw_text(cr, px(x), kTop + ph + 18, format_tick(x, xs), 12, true);
    }
    for (double y = std::ceil(b.y0 / ys) * ys; y <= b.y1 + 1e-9; y += ys) {
        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        cairo_move_to(cr, kLeft, py(y));
        cairo_line_to(cr, kLeft + pw, py(y));
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        draw_text(cr, 8, py(y) + 4, format_tick(y, ys), 12, false);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, kLeft, kTop, pw, ph);
    cairo_stroke(cr);
    draw_text(cr, kWidth / 2.0, 28, chart.title, 18, true);
    draw_text(cr, kLeft + pw / 2, kHeight - 14, chart.x_label, 13, true);
    draw_text(cr, 8, kTop - 10, chart.y_label, 13, false);

    // Series and legend.
    cairo_rectangle(cr, kLeft, kTop, pw, ph);
    cairo_clip(cr);
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const auto& s = chart.series[i];
        const Rgb c = kPalette[i % kPalette.size()];
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        cairo_set_line_width(cr, 1.5);
        bool pen_down = false;
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t k = 0; k < n; ++k) {
            if (!std::isfinite(s.x[k]) || !std::isfinite(s.y[k])) {
                pen_down = false;
                continue;
            }
            if (pen_down)
                cairo_line_to(cr, px(s.x[k]), py(s.y[k]));
            else
                cairo_move_to(cr, px(s.x[k]), py(s.y[k]));
            pen_down = true;
        }
        cairo_stroke(cr);
    }
    cairo_reset_clip(cr);
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const Rgb c = kPalette[i % kPalette.size()];
        const double ly = kTop + 16 + 16.0 * static_cast<double>(i);
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        cairo_rectangle(cr, kLeft + pw - 190, ly - 9, 12, 10);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        draw_text(cr, kLeft + pw - 172, ly, chart.series[i].label, 12, false);
    }

    cairo_destroy(cr);
    errno = 0;  // cairo opens the file with fopen: errno then says why it could not
    const cairo_status_t st = cairo_surface_write_to_png(surface, path.c_str());
    const int os_error = errno;
    cairo_surface_destroy(surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        error = st == CAIRO_STATUS_WRITE_ERROR && os_error != 0 ? std::strerror(os_error)
                                                                : cairo_status_to_string(st);
        return false;
    }
    return true;
}

}  // namespace lab
