// Distributions of lab samples.
#include "stats_util.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lab {

double percentile_sorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0.0;
    const double rank = std::ceil(q * static_cast<double>(sorted.size()));
    const std::size_t i = rank < 1.0 ? 0 : static_cast<std::size_t>(rank) - 1;
    return sorted[std::min(i, sorted.size() - 1)];
}

Dist distribution(std::vector<double> samples) {
    Dist d;
    if (samples.empty()) return d;
    std::sort(samples.begin(), samples.end());
    d.count = samples.size();
    d.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
    d.median = percentile_sorted(samples, 0.5);
    d.p95 = percentile_sorted(samples, 0.95);
    d.p99 = percentile_sorted(samples, 0.99);
    d.max = samples.back();
    return d;
}

}  // namespace lab
