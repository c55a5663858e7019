// Line charts over time for the lab's --plot output, rendered to PNG with cairo.
#pragma once

#include <string>
#include <vector>

namespace lab {

/// One line on a chart: (x, y) points in data units.
struct Series {
    std::string label;
    std::vector<double> x;
    std::vector<double> y;
};

/// A chart: title, axis labels and one or more series sharing the axes.
struct Chart {
    std::string title;
    std::string x_label = "time (s)";
    std::string y_label;
    std::vector<Series> series;
};

/// Renders the chart as a PNG file; returns false (and fills `error` with the reason alone, e.g. "Permission
/// denied") when cairo cannot write it.
bool write_chart_png(const Chart& chart, const std::string& path, std::string& error);

}  // namespace lab
