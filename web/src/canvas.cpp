// Canvas: EM_JS calls on the 2D context of <canvas id="arena">, kept in Module.rwdCtx between calls.
#include "canvas.hpp"

#include <emscripten/emscripten.h>

#include <string>

namespace web {

namespace {

// The canvas follows its element's CSS size (times devicePixelRatio for sharp lines); drawing is in CSS
// pixels.
// clang-format off
EM_JS(void, rwd_canvas_begin, (int r, int g, int b, float* size), {
    const canvas = document.getElementById("arena");
    if (!canvas) {
        HEAPF32[size >> 2] = 0;
        HEAPF32[(size >> 2) + 1] = 0;
        return;
    }
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth || 1024;
    const h = canvas.clientHeight || 768;
    if (canvas.width != Math.round(w * dpr) || canvas.height != Math.round(h * dpr)) {
        canvas.width = Math.round(w * dpr);
        canvas.height = Math.round(h * dpr);
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "rgb(" + r + "," + g + "," + b + ")";
    ctx.fillRect(0, 0, w, h);
    Module.rwdCtx = ctx;
    HEAPF32[size >> 2] = w;
    HEAPF32[(size >> 2) + 1] = h;
});
// clang-format on

// clang-format off
EM_JS(void, rwd_canvas_shape,
      (int kind, float x0, float y0, float x1, float y1, int r, int g, int b, int a, float width), {
          const ctx = Module.rwdCtx;
          if (!ctx) return;
          const style = "rgba(" + r + "," + g + "," + b + "," + (a / 255) + ")";
          ctx.lineWidth = width;
          if (kind == 0) {
              ctx.fillStyle = style;
              ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
          } else if (kind == 1) {
              ctx.strokeStyle = style;
              ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
          } else if (kind == 2 || kind == 3) {
              ctx.beginPath();
              ctx.arc(x0, y0, Math.max(0, x1), 0, 2 * Math.PI);
              if (kind == 2) {
                  ctx.fillStyle = style;
                  ctx.fill();
              } else {
                  ctx.strokeStyle = style;
                  ctx.stroke();
              }
          } else {
              ctx.strokeStyle = style;
              ctx.beginPath();
              ctx.moveTo(x0, y0);
              ctx.lineTo(x1, y1);
              ctx.stroke();
          }
      });
// clang-format on

// clang-format off
EM_JS(void, rwd_canvas_text,
      (float x, float y, const char* s, int r, int g, int b, int a, float size, int align), {
          const ctx = Module.rwdCtx;
          if (!ctx) return;
          ctx.font = size + "px ui-monospace, Menlo, Consolas, monospace";
          ctx.textAlign = align == 1 ? "right" : align == 2 ? "center" : "left";
          ctx.textBaseline = "alphabetic";
          ctx.fillStyle = "rgba(" + r + "," + g + "," + b + "," + (a / 255) + ")";
          ctx.fillText(UTF8ToString(s), x, y);
      });
// clang-format on

// clang-format off
EM_JS(float, rwd_canvas_text_width, (const char* s, float size), {
    const ctx = Module.rwdCtx;
    if (!ctx) return 0;
    ctx.font = size + "px ui-monospace, Menlo, Consolas, monospace";
    return ctx.measureText(UTF8ToString(s)).width;
});
// clang-format on

// clang-format off
EM_JS(void, rwd_canvas_polyline, (const float* xy, int count, int r, int g, int b, int a, float width), {
    const ctx = Module.rwdCtx;
    if (!ctx || count < 2) return;
    const p = xy >> 2;
    ctx.strokeStyle = "rgba(" + r + "," + g + "," + b + "," + (a / 255) + ")";
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(HEAPF32[p], HEAPF32[p + 1]);
    for (let i = 1; i < count; ++i) ctx.lineTo(HEAPF32[p + 2 * i], HEAPF32[p + 2 * i + 1]);
    ctx.stroke();
});
// clang-format on

void shape(int kind, Point a, Point b, Colour c, float width) {
    rwd_canvas_shape(kind, a.x, a.y, b.x, b.y, c.rgb.r, c.rgb.g, c.rgb.b, c.alpha, width);
}

}  // namespace

Point Canvas::begin_frame(Colour clear) {
    float size[2] = {0.0f, 0.0f};
    rwd_canvas_begin(clear.rgb.r, clear.rgb.g, clear.rgb.b, size);
    return Point{size[0], size[1]};
}

void Canvas::fill_rect(Point a, Point b, Colour c) { shape(0, a, b, c, 1.0f); }
void Canvas::stroke_rect(Point a, Point b, Colour c, float width) { shape(1, a, b, c, width); }
void Canvas::fill_circle(Point centre, float radius, Colour c) {
    shape(2, centre, Point{radius, 0}, c, 1.0f);
}
void Canvas::stroke_circle(Point centre, float radius, Colour c, float width) {
    shape(3, centre, Point{radius, 0}, c, width);
}
void Canvas::line(Point a, Point b, Colour c, float width) { shape(4, a, b, c, width); }

void Canvas::polyline(const Point* points, int count, Colour c, float width) {
    static_assert(sizeof(Point) == 2 * sizeof(float), "Point is read as two floats by the bridge");
    rwd_canvas_polyline(reinterpret_cast<const float*>(points), count, c.rgb.r, c.rgb.g, c.rgb.b, c.alpha,
                        width);
}

void Canvas::text(Point a, std::string_view s, Colour c, float size, Align align) {
    const std::string z(s);
    rwd_canvas_text(a.x, a.y, z.c_str(), c.rgb.r, c.rgb.g, c.rgb.b, c.alpha, size,
                    align == Align::right    ? 1
                    : align == Align::centre ? 2
                                             : 0);
}

float Canvas::text_width(std::string_view s, float size) {
    const std::string z(s);
    return rwd_canvas_text_width(z.c_str(), size);
}

}  // namespace web
