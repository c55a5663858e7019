// Renders lab charts with cairo: axes with round-number ticks, percentile bands, one line per series, a
// legend outside the data and a caption.
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
constexpr int kHeight = 500;
constexpr double kLeft = 80, kRight = 24, kTop = 72, kBottom = 76;

struct Rgb {
    double r, g, b;
};
// Eight colours that stay apart (Okabe-Ito, colour-blind safe): no two series of a chart share one.
constexpr std::array<Rgb, 8> kPalette{{{0.00, 0.45, 0.70},
                                       {0.84, 0.37, 0.00},
                                       {0.00, 0.62, 0.45},
                                       {0.80, 0.47, 0.65},
                                       {0.90, 0.62, 0.00},
                                       {0.34, 0.71, 0.91},
                                       {0.20, 0.20, 0.20},
                                       {0.94, 0.89, 0.26}}};

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

void include(Bounds& b, double x, double y) {
    if (!std::isfinite(x) || !std::isfinite(y)) return;
    b.x0 = std::min(b.x0, x);
    b.x1 = std::max(b.x1, x);
    b.y0 = std::min(b.y0, y);
    b.y1 = std::max(b.y1, y);
}

Bounds data_bounds(const Chart& chart) {
    Bounds b;
    for (const auto& s : chart.series) {
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t i = 0; i < n; ++i) {
            include(b, s.x[i], s.y[i]);
            if (i < s.low.size()) include(b, s.x[i], s.low[i]);
            if (i < s.high.size()) include(b, s.x[i], s.high[i]);
        }
    }
    if (b.x0 > b.x1) b = Bounds{0, 1, 0, 1};
    b.y0 = std::min(b.y0, 0.0);  // charts of non-negative figures start at zero
    if (b.x1 - b.x0 < 1e-9) b.x1 = b.x0 + 1;
    if (b.y1 - b.y0 < 1e-9) b.y1 = b.y0 + 1;
    b.y1 += (b.y1 - b.y0) * 0.05;
    return b;
}

double text_width(cairo_t* cr, const std::string& text, double size) {
    cairo_set_font_size(cr, size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, text.c_str(), &ext);
    return ext.x_advance;
}

void draw_text(cairo_t* cr, double x, double y, const std::string& text, double size, bool centered) {
    cairo_set_font_size(cr, size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, text.c_str(), &ext);
    cairo_move_to(cr, centered ? x - ext.width / 2 - ext.x_bearing : x, y);
    cairo_show_text(cr, text.c_str());
}

cairo_status_t append_png(void* closure, const unsigned char* data, unsigned int length) {
    auto* out = static_cast<std::vector<unsigned char>*>(closure);
    out->insert(out->end(), data, data + length);
    return CAIRO_STATUS_SUCCESS;
}

/// Draws the chart on a new image surface (the caller destroys it).
cairo_surface_t* render(const Chart& chart) {
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
    draw_text(cr, kWidth / 2.0, 26, chart.title, 18, true);
    draw_text(cr, kLeft + pw / 2, kTop + ph + 38, chart.x_label, 13, true);
    draw_text(cr, 8, kTop - 8, chart.y_label, 13, false);
    if (!chart.caption.empty()) {
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_ITALIC, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        draw_text(cr, kWidth / 2.0, kHeight - 12, chart.caption, 13, true);
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    }

    // Bands first (translucent), then the lines over them, clipped to the plot.
    cairo_rectangle(cr, kLeft, kTop, pw, ph);
    cairo_clip(cr);
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const auto& s = chart.series[i];
        const std::size_t n = std::min({s.x.size(), s.low.size(), s.high.size()});
        if (n < 2) continue;
        const Rgb c = kPalette[i % kPalette.size()];
        cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.22);
        cairo_move_to(cr, px(s.x[0]), py(s.high[0]));
        for (std::size_t k = 1; k < n; ++k) cairo_line_to(cr, px(s.x[k]), py(s.high[k]));
        for (std::size_t k = n; k-- > 0;) cairo_line_to(cr, px(s.x[k]), py(s.low[k]));
        cairo_close_path(cr);
        cairo_fill(cr);
    }
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const auto& s = chart.series[i];
        const Rgb c = kPalette[i % kPalette.size()];
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        cairo_set_line_width(cr, 1.8);
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

    // Legend: one row between the title and the plot, right-aligned, never over the data.
    double lx = kLeft + pw;
    for (std::size_t i = chart.series.size(); i-- > 0;) {
        const std::string& label = chart.series[i].label;
        lx -= text_width(cr, label, 12) + 34;
        const Rgb c = kPalette[i % kPalette.size()];
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        cairo_rectangle(cr, lx, kTop - 31, 12, 10);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        draw_text(cr, lx + 16, kTop - 22, label, 12, false);
    }
    cairo_destroy(cr);
    return surface;
}

}  // namespace

std::string format_tick(double v, double step) {
    if (std::abs(v) < step * 1e-6) v = 0.0;  // a tick at zero reached by adding steps prints as 0, not -0
    char buf[32];
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (buf[0] == '-' && std::strspn(buf + 1, "0.") == std::strlen(buf + 1)) return buf + 1;  // "-0.0"
    return buf;
}

bool write_chart_png(const Chart& chart, const std::string& path, std::string& error) {
    cairo_surface_t* surface = render(chart);
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

std::vector<unsigned char> chart_png_bytes(const Chart& chart) {
    cairo_surface_t* surface = render(chart);
    std::vector<unsigned char> out;
    if (cairo_surface_write_to_png_stream(surface, &append_png, &out) != CAIRO_STATUS_SUCCESS) out.clear();
    cairo_surface_destroy(surface);
    return out;
}

}  // namespace lab
