/// HeapMeter: the process's live heap bytes sampled over a soak, and the plateau rule that says it is
/// bounded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace soak {

/// Live heap bytes right now: ASan's allocator count in sanitizer builds, glibc's mallinfo2 otherwise.
std::int64_t live_heap_bytes();

/// Samples of live heap bytes, one per simulated interval.
///
/// The rule: the first quarter of the samples is warm-up (windows, histories and buffers fill), then the peak
/// of the late half must stay within `slack` (fraction) plus `slack_bytes` of the peak of the early half
/// (samples between the warm-up and the middle). A leak of any steady rate grows the late peak past that; a
/// bounded program's heap only wobbles around its plateau.
class HeapMeter {
public:
    /// Takes one sample now.
    void sample() { samples_.push_back(live_heap_bytes()); }
    /// Whether the samples plateau (false with fewer than 4 samples: too short to tell).
    [[nodiscard]] bool plateaus(double slack, std::int64_t slack_bytes) const;
    /// Peak of the early half (after warm-up), the comparison base.
    [[nodiscard]] std::int64_t early_peak() const;
    /// Peak of the late half.
    [[nodiscard]] std::int64_t late_peak() const;
    /// The samples in MiB, comma separated.
    [[nodiscard]] std::string describe() const;
    /// All samples.
    [[nodiscard]] const std::vector<std::int64_t>& samples() const { return samples_; }

private:
    std::vector<std::int64_t> samples_;
};

}  // namespace soak
