// Lab samples kept as runs of one value (value, how many times): for measurements that repeat a few values
// millions of times, such as the staleness of every drawn entity on every frame.
#pragma once

#include "stats_util.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace lab {

class SampleRuns {
public:
    /// One more sample; it joins the last run when it has the same value.
    void add(double value) {
        if (!runs_.empty() && runs_.back().first == value) {
            ++runs_.back().second;
        } else {
            runs_.emplace_back(value, 1);
        }
    }
    /// Samples added.
    [[nodiscard]] std::uint64_t count() const;
    /// Their distribution: what distribution() gives for the same samples, but for the mean, summed here as
    /// value x count per distinct value (the last digits may differ from a sample-by-sample sum).
    [[nodiscard]] Dist distribution() const;

private:
    std::vector<std::pair<double, std::uint64_t>> runs_;
};

}  // namespace lab
