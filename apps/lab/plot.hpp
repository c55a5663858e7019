// Line charts over time for the lab's --plot and --html output, rendered to PNG with cairo.
#pragma once

#include <string>
#include <vector>

namespace lab {

/// One line on a chart: (x, y) points in data units; with `low`/`high` (as long as `x`) also a shaded band
/// between them, e.g. the 10th to 90th percentile over clients around their median.
struct Series {
    std::string label;
    std::vector<double> x;
    std::vector<double> y;
    std::vector<double> low;   ///< band bottom per point (empty: no band)
    std::vector<double> high;  ///< band top per point
};

/// A chart: title, axis labels, one or more series sharing the axes, and a one-line caption under it saying
/// what a good run looks like.
struct Chart {
    std::string title;
    std::string x_label = "time (s)";
    std::string y_label;
    std::vector<Series> series;
    std::string caption;
};

/// Renders the chart as a PNG file; returns false (and fills `error` with the reason alone, e.g. "Permission
/// denied") when cairo cannot write it.
bool write_chart_png(const Chart& chart, const std::string& path, std::string& error);
/// Renders the chart as PNG bytes (for pages that embed it); empty if cairo failed.
std::vector<unsigned char> chart_png_bytes(const Chart& chart);
/// A tick label for `v` on an axis stepping by `step`: as many decimals as the step needs, and never "-0".
std::string format_tick(double v, double step);

}  // namespace lab
