// HeapMeter: live heap bytes from ASan or glibc, and the plateau rule.
#include "soak/heap_meter.hpp"

#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SOAK_ASAN 1
#endif
#ifdef SOAK_ASAN
#if __has_include(<sanitizer/allocator_interface.h>)
#include <sanitizer/allocator_interface.h>
#else
// GCC's runtime has the function but ships no header for it.
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#endif
#endif

namespace soak {

std::int64_t live_heap_bytes() {
#ifdef SOAK_ASAN
    // Under ASan malloc is ASan's, and mallinfo2 does not see it.
    return static_cast<std::int64_t>(__sanitizer_get_current_allocated_bytes());
#else
    const struct mallinfo2 mi = mallinfo2();
    return static_cast<std::int64_t>(mi.uordblks + mi.hblkhd);  // small-block bytes in use + mmapped blocks
#endif
}

namespace {
std::int64_t peak(const std::vector<std::int64_t>& v, std::size_t from, std::size_t to) {
    std::int64_t m = 0;
    for (std::size_t i = from; i < to && i < v.size(); ++i) m = std::max(m, v[i]);
    return m;
}
}  // namespace

std::int64_t HeapMeter::early_peak() const {
    const std::size_t n = samples_.size();
    return peak(samples_, n / 4, std::max(n / 4 + 1, n / 2));
}

std::int64_t HeapMeter::late_peak() const { return peak(samples_, samples_.size() / 2, samples_.size()); }

bool HeapMeter::plateaus(double slack, std::int64_t slack_bytes) const {
    if (samples_.size() < 4) return false;
    const double limit = static_cast<double>(early_peak()) * (1.0 + slack) + static_cast<double>(slack_bytes);
    return static_cast<double>(late_peak()) <= limit;
}

std::string HeapMeter::describe() const {
    std::string out;
    char buf[32];
    for (std::size_t i = 0; i < samples_.size(); ++i) {
        std::snprintf(buf, sizeof buf, "%s%.2f", i ? "," : "",
                      static_cast<double>(samples_[i]) / (1024.0 * 1024.0));
        out += buf;
    }
    return out;
}

}  // namespace soak
