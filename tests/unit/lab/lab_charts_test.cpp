/// rewind-lab's charts: figures drawn as their distribution over the clients, the worst client on request,
/// captions on every chart, tick labels without "-0", and PNG bytes for the HTML page.
#include "cs_charts.hpp"
#include "plot.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

lab::PassFigures five_clients() {
    lab::PassFigures m;
    m.simulated_s = 2;
    for (int k = 0; k < 3; ++k) {
        lab::SeriesPoint p;
        p.t = k * 0.1;
        p.rtt_ms = {100, 110, 120, 130, 400};  // client 4 is far worse than the others
        p.interp_delay_ticks = p.kbps_down = p.kbps_up = p.corrections_per_s = p.rtt_ms;
        p.buffer_ticks = {5, 4, 3, 2, -1};  // lower is worse: client 4 again
        p.input_offset_ticks = p.buffer_ticks;
        m.series.push_back(p);
    }
    return m;
}

const lab::Chart& find(const std::vector<std::pair<std::string, lab::Chart>>& charts,
                       const std::string& stem) {
    for (const auto& [s, c] : charts)
        if (s == stem) return c;
    ADD_FAILURE() << "no chart " << stem;
    static const lab::Chart none;
    return none;
}

TEST(LabCharts, EachFigureIsItsMedianOverClientsWithTheTenToNinetyBand) {
    const auto charts = lab::client_server_charts(five_clients(), false);
    EXPECT_EQ(charts.size(), 8u);
    for (const auto& [stem, c] : charts) EXPECT_FALSE(c.caption.empty()) << stem << ": what good looks like";
    const lab::Chart& rtt = find(charts, "rtt");
    ASSERT_EQ(rtt.series.size(), 1u);  // no spaghetti: one line per chart
    const lab::Series& s = rtt.series[0];
    ASSERT_EQ(s.y.size(), 3u);
    EXPECT_DOUBLE_EQ(s.y[0], 120);  // median of 100..130, 400
    EXPECT_DOUBLE_EQ(s.low[0], 100);
    EXPECT_DOUBLE_EQ(s.high[0], 400);  // nearest rank: the 90th percentile of five is the largest
}

TEST(LabCharts, TheWorstClientOnRequestIsTheOneWorseOnAverage) {
    const auto charts = lab::client_server_charts(five_clients(), true);
    const lab::Chart& rtt = find(charts, "rtt");
    ASSERT_EQ(rtt.series.size(), 2u);
    EXPECT_EQ(rtt.series[1].label, "worst client (4)");
    EXPECT_DOUBLE_EQ(rtt.series[1].y[0], 400);
    const lab::Chart& depth = find(charts, "buffer_depth");  // lower is worse
    ASSERT_EQ(depth.series.size(), 2u);
    EXPECT_EQ(depth.series[1].label, "worst client (4)");
    EXPECT_DOUBLE_EQ(depth.series[1].y[0], -1);
}

TEST(LabCharts, TickLabelsNeverShowMinusZero) {
    EXPECT_EQ(lab::format_tick(-1e-17, 0.5), "0.0");
    EXPECT_EQ(lab::format_tick(-0.0, 1), "0");
    EXPECT_EQ(lab::format_tick(-0.004, 0.1), "0.0");
    EXPECT_EQ(lab::format_tick(-0.5, 0.5), "-0.5");
    EXPECT_EQ(lab::format_tick(2.5, 0.5), "2.5");
    EXPECT_EQ(lab::format_tick(20, 5), "20");
}

TEST(LabCharts, AChartRendersToPngBytes) {
    const auto charts = lab::client_server_charts(five_clients(), true);
    const auto png = lab::chart_png_bytes(find(charts, "rtt"));
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png[1], 'P');
    EXPECT_EQ(png[2], 'N');
    EXPECT_EQ(png[3], 'G');
}

}  // namespace
