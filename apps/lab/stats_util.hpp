// Small statistics helpers for the lab: distributions (median, p95, p99, max) of measured samples.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <vector>

namespace lab {

/// Summary of a set of samples.
struct Dist {
    std::size_t count = 0;  ///< samples
    double mean = 0.0;      ///< arithmetic mean
    double median = 0.0;    ///< 50th percentile
    double p95 = 0.0;       ///< 95th percentile
    double p99 = 0.0;       ///< 99th percentile
    double max = 0.0;       ///< largest sample
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Dist, count, mean, median, p95, p99, max)

/// The distribution of `samples` (nearest-rank percentiles; all zero when empty).
Dist distribution(std::vector<double> samples);

/// The nearest-rank percentile q (0..1) of already sorted samples; 0 when empty.
double percentile_sorted(const std::vector<double>& sorted, double q);

}  // namespace lab
