/// MetricsText: writes figures in the Prometheus text exposition format (version 0.0.4), for a server's
/// /metrics page; no HTTP, no registry, no state beyond the text.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

namespace rwd {

/// One label of a sample: name="value" (the value is escaped on output).
struct MetricLabel {
    std::string_view name;
    std::string_view value;
};

/// The kind of a metric family, as its # TYPE line says.
enum class MetricType { counter, gauge, histogram };

/// Builds one exposition page. Call family() once per metric, then its samples; names follow Prometheus
/// conventions (`[a-zA-Z_:][a-zA-Z0-9_:]*`, counters end in `_total`, base units: seconds, bytes). A name or
/// label that breaks the rules is not written: it is counted in invalid() so a test can catch it.
class MetricsText {
public:
    /// Starts a family: its # HELP and # TYPE lines.
    void family(std::string_view name, MetricType type, std::string_view help);
    /// One sample of the current family, `name` + `suffix` (e.g. "_bucket") with `labels`.
    void sample(double value, std::initializer_list<MetricLabel> labels = {}, std::string_view suffix = {});
    /// A family with one unlabelled sample.
    void counter(std::string_view name, std::string_view help, double value);
    void gauge(std::string_view name, std::string_view help, double value);
    /// A histogram family from per-bucket counts: counts[i] observations at or under upper_bounds[i] (and
    /// over the bound before), counts.back() over the last bound; so counts has one more element than the
    /// bounds. Written as Prometheus wants it: cumulative `_bucket{le=...}` lines ending at +Inf, `_sum`,
    /// `_count`.
    void histogram(std::string_view name, std::string_view help, std::span<const double> upper_bounds,
                   std::span<const std::uint64_t> counts, double sum);

    /// The page so far.
    [[nodiscard]] const std::string& text() const { return text_; }
    /// Families and samples refused for a bad name, label or shape.
    [[nodiscard]] int invalid() const { return invalid_; }

private:
    std::string text_;
    std::string name_;  // the current family
    bool open_ = false;
    int invalid_ = 0;
};

/// Whether `name` is a valid Prometheus metric name (label names: the same without ':').
[[nodiscard]] bool valid_metric_name(std::string_view name, bool label = false);

}  // namespace rwd
