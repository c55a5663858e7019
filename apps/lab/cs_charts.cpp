// Charts of the client-server main pass over time: prediction error, corrections, RTT, interpolation,
// bandwidth.
#include "cs_charts.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace lab {
namespace {

using Pick = const std::vector<double>& (*)(const SeriesPoint&);

/// One series per client from the overlay samples.
std::vector<Series> per_client(const std::vector<SeriesPoint>& pts, Pick pick, const std::string& prefix) {
    std::vector<Series> out;
    for (const SeriesPoint& p : pts) {
        const auto& values = pick(p);
        if (out.size() < values.size()) out.resize(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            out[i].x.push_back(p.t);
            out[i].y.push_back(values[i]);
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i) out[i].label = prefix + std::to_string(i);
    return out;
}

Chart chart(std::string title, std::string y_label, std::vector<Series> series) {
    Chart c;
    c.title = std::move(title);
    c.y_label = std::move(y_label);
    c.series = std::move(series);
    return c;
}

}  // namespace

std::vector<std::pair<std::string, Chart>> client_server_charts(const PassFigures& m) {
    std::vector<std::pair<std::string, Chart>> out;
    // Prediction error: the largest and the median correction of each second, all clients together.
    Series worst{"largest correction", {}, {}}, mid{"median correction", {}, {}};
    const double total = m.simulated_s;
    for (int sec = 0; sec < static_cast<int>(std::ceil(total)); ++sec) {
        std::vector<double> e;
        for (const auto& c : m.corrections)
            if (c.t >= sec && c.t < sec + 1) e.push_back(c.error_m);
        std::sort(e.begin(), e.end());
        worst.x.push_back(sec + 0.5);
        mid.x.push_back(sec + 0.5);
        worst.y.push_back(e.empty() ? 0.0 : e.back());
        mid.y.push_back(e.empty() ? 0.0 : e[e.size() / 2]);
    }
    out.emplace_back("prediction_error", chart("Prediction error per correction (all clients, per second)",
                                               "metres", {worst, mid}));
    out.emplace_back(
        "corrections",
        chart("Corrections per second", "corrections/s",
              per_client(
                  m.series,
                  [](const SeriesPoint& p) -> const std::vector<double>& { return p.corrections_per_s; },
                  "client ")));
    out.emplace_back(
        "rtt",
        chart("Round-trip time (client estimate)", "ms",
              per_client(
                  m.series, [](const SeriesPoint& p) -> const std::vector<double>& { return p.rtt_ms; },
                  "client ")));
    out.emplace_back(
        "interp_delay",
        chart("Interpolation delay", "ticks",
              per_client(
                  m.series,
                  [](const SeriesPoint& p) -> const std::vector<double>& { return p.interp_delay_ticks; },
                  "client ")));
    out.emplace_back(
        "buffer_depth",
        chart("Interpolation buffer depth (newest snapshot - render time)", "ticks",
              per_client(
                  m.series, [](const SeriesPoint& p) -> const std::vector<double>& { return p.buffer_ticks; },
                  "client ")));
    out.emplace_back(
        "bandwidth_down",
        chart("Bandwidth server -> client (transport, headers included)", "kbit/s",
              per_client(
                  m.series, [](const SeriesPoint& p) -> const std::vector<double>& { return p.kbps_down; },
                  "client ")));
    out.emplace_back(
        "bandwidth_up",
        chart("Bandwidth client -> server (transport, headers included)", "kbit/s",
              per_client(
                  m.series, [](const SeriesPoint& p) -> const std::vector<double>& { return p.kbps_up; },
                  "client ")));
    out.emplace_back(
        "input_offset",
        chart("Input arrival offset reported by the server (+ = early)", "ticks",
              per_client(
                  m.series,
                  [](const SeriesPoint& p) -> const std::vector<double>& { return p.input_offset_ticks; },
                  "client ")));
    return out;
}

}  // namespace lab
