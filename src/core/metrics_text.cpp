// MetricsText: the exposition format's lines, escaping and number formatting.
#include <rewind/core/metrics_text.hpp>

#include <array>
#include <charconv>
#include <cmath>

namespace rwd {

namespace {

void append_number(std::string& out, double v) {
    if (std::isnan(v)) {
        out += "NaN";
    } else if (std::isinf(v)) {
        out += v > 0 ? "+Inf" : "-Inf";
    } else {
        // The shortest form that reads back exactly; plain decimals (0.0005, 123) in the everyday range.
        std::array<char, 400> buf{};
        const double a = std::fabs(v);
        const bool plain = a == 0.0 || (a >= 1e-4 && a < 1e15);
        const auto r = plain ? std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed)
                             : std::to_chars(buf.data(), buf.data() + buf.size(), v);
        out.append(buf.data(), r.ptr);
    }
}

/// HELP text escapes backslash and newline; label values also the double quote.
void append_escaped(std::string& out, std::string_view s, bool quote) {
    for (const char c : s) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (quote && c == '"')
            out += "\\\"";
        else
            out += c;
    }
}

}  // namespace

bool valid_metric_name(std::string_view name, bool label) {
    if (name.empty()) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool letter =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!label && c == ':');
        if (!letter && (i == 0 || c < '0' || c > '9')) return false;
    }
    // Label names starting with "__" are reserved for Prometheus itself.
    return !(label && name.size() >= 2 && name[0] == '_' && name[1] == '_');
}

void MetricsText::family(std::string_view name, MetricType type, std::string_view help) {
    open_ = valid_metric_name(name);
    if (!open_) {
        ++invalid_;
        return;
    }
    name_.assign(name);
    text_ += "# HELP ";
    text_ += name;
    text_ += ' ';
    append_escaped(text_, help, false);
    text_ += "\n# TYPE ";
    text_ += name;
    text_ += type == MetricType::counter ? " counter\n"
             : type == MetricType::gauge ? " gauge\n"
                                         : " histogram\n";
}

void MetricsText::sample(double value, std::initializer_list<MetricLabel> labels, std::string_view suffix) {
    bool ok = open_;
    for (const MetricLabel& l : labels) ok = ok && valid_metric_name(l.name, true);
    if (!ok) {
        ++invalid_;
        return;
    }
    text_ += name_;
    text_ += suffix;
    if (labels.size() > 0) {
        text_ += '{';
        bool first = true;
        for (const MetricLabel& l : labels) {
            if (!first) text_ += ',';
            first = false;
            text_ += l.name;
            text_ += "=\"";
            append_escaped(text_, l.value, true);
            text_ += '"';
        }
        text_ += '}';
    }
    text_ += ' ';
    append_number(text_, value);
    text_ += '\n';
}

void MetricsText::counter(std::string_view name, std::string_view help, double value) {
    family(name, MetricType::counter, help);
    sample(value);
}

void MetricsText::gauge(std::string_view name, std::string_view help, double value) {
    family(name, MetricType::gauge, help);
    sample(value);
}

void MetricsText::histogram(std::string_view name, std::string_view help,
                            std::span<const double> upper_bounds, std::span<const std::uint64_t> counts,
                            double sum) {
    if (counts.size() != upper_bounds.size() + 1) {
        ++invalid_;
        return;
    }
    family(name, MetricType::histogram, help);
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        cumulative += counts[i];
        std::string le;
        if (i < upper_bounds.size())
            append_number(le, upper_bounds[i]);
        else
            le = "+Inf";
        sample(static_cast<double>(cumulative), {{"le", le}}, "_bucket");
    }
    sample(sum, {}, "_sum");
    sample(static_cast<double>(cumulative), {}, "_count");
}

}  // namespace rwd
