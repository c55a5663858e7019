// MetricsText: the exposition lines, escaping, histograms made cumulative, and bad names refused.
#include <rewind/core/metrics_text.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>

namespace rwd {
namespace {

TEST(MetricsText, WritesHelpTypeAndLabelledSamples) {
    MetricsText m;
    m.family("rewind_kicks_total", MetricType::counter, "Clients the server disconnected, by reason.");
    m.sample(3, {{"reason", "garbage"}});
    m.sample(0, {{"reason", "timed_out"}, {"side", "server"}});
    m.gauge("rewind_players", "Seated players.", 7);
    EXPECT_EQ(m.text(),
              "# HELP rewind_kicks_total Clients the server disconnected, by reason.\n"
              "# TYPE rewind_kicks_total counter\n"
              "rewind_kicks_total{reason=\"garbage\"} 3\n"
              "rewind_kicks_total{reason=\"timed_out\",side=\"server\"} 0\n"
              "# HELP rewind_players Seated players.\n"
              "# TYPE rewind_players gauge\n"
              "rewind_players 7\n");
    EXPECT_EQ(m.invalid(), 0);
}

TEST(MetricsText, EscapesHelpAndLabelValuesAndFormatsSpecialNumbers) {
    MetricsText m;
    m.family("x", MetricType::gauge, "a \\ b\nc \"d\"");
    m.sample(0.25, {{"v", "q\"\\\n"}});
    m.sample(std::numeric_limits<double>::infinity());
    m.sample(-std::numeric_limits<double>::infinity());
    m.sample(std::nan(""));
    m.sample(1e-7);
    EXPECT_EQ(m.text(),
              "# HELP x a \\\\ b\\nc \"d\"\n# TYPE x gauge\n"
              "x{v=\"q\\\"\\\\\\n\"} 0.25\nx +Inf\nx -Inf\nx NaN\nx 1e-07\n");
}

TEST(MetricsText, HistogramBucketsAreCumulativeAndEndAtInfinity) {
    MetricsText m;
    const std::array<double, 2> bounds{0.001, 0.002};
    const std::array<std::uint64_t, 3> counts{5, 2, 1};
    m.histogram("rewind_tick_duration_seconds", "Tick time.", bounds, counts, 0.0125);
    EXPECT_EQ(m.text(),
              "# HELP rewind_tick_duration_seconds Tick time.\n"
              "# TYPE rewind_tick_duration_seconds histogram\n"
              "rewind_tick_duration_seconds_bucket{le=\"0.001\"} 5\n"
              "rewind_tick_duration_seconds_bucket{le=\"0.002\"} 7\n"
              "rewind_tick_duration_seconds_bucket{le=\"+Inf\"} 8\n"
              "rewind_tick_duration_seconds_sum 0.0125\n"
              "rewind_tick_duration_seconds_count 8\n");
}

TEST(MetricsText, RefusesBadNamesLabelsAndShapes) {
    MetricsText m;
    m.family("9lives", MetricType::gauge, "");
    m.sample(1);  // belongs to the refused family: not written either
    m.family("ok_name:sub", MetricType::gauge, "");
    m.sample(1, {{"bad-label", "x"}});
    m.sample(1, {{"__reserved", "x"}});
    m.sample(1, {{"fine", "x"}});
    const std::array<double, 2> bounds{1, 2};
    const std::array<std::uint64_t, 2> counts{1, 2};  // one short
    m.histogram("h", "", bounds, counts, 0);
    EXPECT_EQ(m.invalid(), 5);
    EXPECT_EQ(m.text(), "# HELP ok_name:sub \n# TYPE ok_name:sub gauge\nok_name:sub{fine=\"x\"} 1\n");
    EXPECT_TRUE(valid_metric_name("rewind_x_total"));
    EXPECT_FALSE(valid_metric_name("a:b", true));
    EXPECT_FALSE(valid_metric_name(""));
}

}  // namespace
}  // namespace rwd
