// Charts of the client-server main pass over time: each figure as its distribution over the clients (median
// line, 10th-90th percentile band, and with --plot-worst the worst client), with a caption saying what good
// looks like.
#include "cs_charts.hpp"

#include "stats_util.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace lab {
namespace {

using Pick = const std::vector<double>& (*)(const SeriesPoint&);

/// Which way a figure gets worse: the worst client is the one with the highest (or lowest) mean.
enum class Worse { higher, lower };

/// The median over clients at each sample, with the 10th-90th percentile band; with `worst`, also the line
/// of the client whose mean is the worst.
std::vector<Series> over_clients(const std::vector<SeriesPoint>& pts, Pick pick, bool worst, Worse worse) {
    Series mid{"median of clients", {}, {}, {}, {}};
    std::vector<double> sums;
    for (const SeriesPoint& p : pts) {
        std::vector<double> v = pick(p);
        if (v.empty()) continue;
        if (sums.size() < v.size()) sums.resize(v.size(), 0.0);
        for (std::size_t i = 0; i < v.size(); ++i) sums[i] += v[i];
        std::sort(v.begin(), v.end());
        mid.x.push_back(p.t);
        mid.y.push_back(percentile_sorted(v, 0.5));
        mid.low.push_back(percentile_sorted(v, 0.1));
        mid.high.push_back(percentile_sorted(v, 0.9));
    }
    mid.label = "median of clients (band: 10th-90th percentile)";
    std::vector<Series> out{std::move(mid)};
    if (!worst || sums.empty()) return out;
    const auto it = worse == Worse::higher ? std::max_element(sums.begin(), sums.end())
                                           : std::min_element(sums.begin(), sums.end());
    const std::size_t w = static_cast<std::size_t>(it - sums.begin());
    Series bad{"worst client (" + std::to_string(w) + ")", {}, {}, {}, {}};
    for (const SeriesPoint& p : pts) {
        const auto& v = pick(p);
        if (w >= v.size()) continue;
        bad.x.push_back(p.t);
        bad.y.push_back(v[w]);
    }
    out.push_back(std::move(bad));
    return out;
}

Chart chart(std::string title, std::string y_label, std::vector<Series> series, std::string caption) {
    Chart c;
    c.title = std::move(title);
    c.y_label = std::move(y_label);
    c.series = std::move(series);
    c.caption = std::move(caption);
    return c;
}

}  // namespace

std::vector<std::pair<std::string, Chart>> client_server_charts(const PassFigures& m, bool worst) {
    std::vector<std::pair<std::string, Chart>> out;
    // Prediction error: the largest and the median correction of each second, all clients together.
    Series largest{"largest correction", {}, {}, {}, {}}, mid{"median correction", {}, {}, {}, {}};
    const double total = m.simulated_s;
    for (int sec = 0; sec < static_cast<int>(std::ceil(total)); ++sec) {
        std::vector<double> e;
        for (const auto& c : m.corrections)
            if (c.t >= sec && c.t < sec + 1) e.push_back(c.error_m);
        std::sort(e.begin(), e.end());
        largest.x.push_back(sec + 0.5);
        mid.x.push_back(sec + 0.5);
        largest.y.push_back(e.empty() ? 0.0 : e.back());
        mid.y.push_back(e.empty() ? 0.0 : e[e.size() / 2]);
    }
    out.emplace_back(
        "prediction_error",
        chart("Prediction error per correction (all clients, per second)", "metres", {largest, mid},
              "good: near 0; a correction under 0.03 m (1 px at 32 px/m) is invisible"));
    auto add = [&](const char* stem, const char* title, const char* unit, Pick pick, Worse worse,
                   const char* caption) {
        out.emplace_back(stem, chart(title, unit, over_clients(m.series, pick, worst, worse), caption));
    };
    add(
        "corrections", "Corrections per second", "corrections/s",
        [](const SeriesPoint& p) -> const std::vector<double>& { return p.corrections_per_s; }, Worse::higher,
        "good: low and flat; spikes follow crowd contacts or late inputs");
    add(
        "rtt", "Round-trip time (client estimate)", "ms",
        [](const SeriesPoint& p) -> const std::vector<double>& { return p.rtt_ms; }, Worse::higher,
        "good: flat near the link's 2 x one-way latency; the band is the clients' spread");
    add(
        "interp_delay", "Interpolation delay", "ticks",
        [](const SeriesPoint& p) -> const std::vector<double>& { return p.interp_delay_ticks; },
        Worse::higher, "good: steady, just above the snapshot interval plus the link's jitter");
    add(
        "buffer_depth", "Interpolation buffer depth (newest snapshot - render time)", "ticks",
        [](const SeriesPoint& p) -> const std::vector<double>& { return p.buffer_ticks; }, Worse::lower,
        "good: above 0; below 0 the client renders past its newest snapshot (extrapolates)");
    add(
        "bandwidth_down", "Bandwidth server -> client (transport, headers included)", "kbit/s",
        [](const SeriesPoint& p) -> const std::vector<double>& { return p.kbps_down; }, Worse::higher,
        "good: under the 48 kbit/s goal, flat (bursts are events or a lost snapshot's refill)");
    add(
        "bandwidth_up", "Bandwidth client -> server (transport, headers included)", "kbit/s",
        [](const SeriesPoint& p) -> const std::vector<double>& { return p.kbps_up; }, Worse::higher,
        "good: flat; each input packet repeats recent inputs so that one loss costs nothing");
    add(
        "input_offset", "Input arrival offset reported by the server (+ = early)", "ticks",
        [](const SeriesPoint& p) -> const std::vector<double>& { return p.input_offset_ticks; }, Worse::lower,
        "good: at the server's target; below 0 an input arrives after its tick (it is late)");
    return out;
}

}  // namespace lab
