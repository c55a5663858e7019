// Lab samples kept as runs of one value (value, how many times): for measurements that repeat a few values
// millions of times, such as the staleness of every drawn entity on every frame.
#include "sample_runs.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace lab {

std::uint64_t SampleRuns::count() const {
    std::uint64_t n = 0;
    for (const auto& r : runs_) n += r.second;
    return n;
}

Dist SampleRuns::distribution() const {
    Dist d;
    std::vector<std::pair<double, std::uint64_t>> sorted = runs_;
    std::sort(sorted.begin(), sorted.end());
    std::uint64_t n = 0;
    double sum = 0.0;
    for (const auto& [value, times] : sorted) {
        n += times;
        sum += value * static_cast<double>(times);
    }
    if (n == 0) return d;
    d.count = static_cast<std::size_t>(n);
    d.mean = sum / static_cast<double>(n);
    // Nearest rank, as percentile_sorted(): the sample at index ceil(q n) - 1 of the sorted samples.
    auto at_rank = [&](double q) {
        const double rank = std::ceil(q * static_cast<double>(n));
        const std::uint64_t i = rank < 1.0 ? 0 : std::min(static_cast<std::uint64_t>(rank) - 1, n - 1);
        std::uint64_t below = 0;
        for (const auto& [value, times] : sorted) {
            below += times;
            if (i < below) return value;
        }
        return sorted.back().first;
    };
    d.median = at_rank(0.5);
    d.p95 = at_rank(0.95);
    d.p99 = at_rank(0.99);
    d.max = sorted.back().first;
    return d;
}

}  // namespace lab
