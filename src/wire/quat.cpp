// "Smallest three" quaternion quantization: drop the largest component, send the other three.
#include <rewind/wire/quat.hpp>

#include <cmath>
#include <numbers>

namespace rwd::wire {

namespace {
constexpr double kMaxSmall = 1.0 / std::numbers::sqrt2;  // |other components| <= 1/sqrt2
}  // namespace

double smallest_three_half_step(int bits) {
    return kMaxSmall / static_cast<double>(smallest_three_max_step(bits));
}

SmallestThree encode_smallest_three(const Quat& q, int bits) {
    double c[4] = {q.x, q.y, q.z, q.w};
    const double norm = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2] + c[3] * c[3]);
    if (!std::isfinite(norm) || norm < 1e-12) {
        c[0] = c[1] = c[2] = 0.0;
        c[3] = 1.0;
    } else {
        for (double& v : c) v /= norm;
    }
    int largest = 0;
    for (int i = 1; i < 4; ++i) {
        if (std::fabs(c[i]) > std::fabs(c[largest])) largest = i;
    }
    const double sign = c[largest] < 0.0 ? -1.0 : 1.0;  // q and -q are one rotation
    const std::uint32_t max_step = smallest_three_max_step(bits);
    SmallestThree code;
    code.largest = static_cast<std::uint32_t>(largest);
    int out = 0;
    for (int i = 0; i < 4; ++i) {
        if (i == largest) continue;
        double v = sign * c[i];
        v = v < -kMaxSmall ? -kMaxSmall : (v > kMaxSmall ? kMaxSmall : v);
        const double t = std::nearbyint((v + kMaxSmall) / (2.0 * kMaxSmall) * max_step);
        code.steps[out++] = static_cast<std::uint32_t>(t);
    }
    return code;
}

Quat decode_smallest_three(const SmallestThree& code, int bits) {
    const double max_step = smallest_three_max_step(bits);
    const int largest = static_cast<int>(code.largest & 3u);
    double c[4] = {0, 0, 0, 0};
    double sum = 0.0;
    int in = 0;
    for (int i = 0; i < 4; ++i) {
        if (i == largest) continue;
        const double raw = code.steps[in++];
        const double step = raw > max_step ? max_step : raw;  // callers reject these; stay in range anyway
        c[i] = step / max_step * (2.0 * kMaxSmall) - kMaxSmall;
        sum += c[i] * c[i];
    }
    c[largest] = std::sqrt(sum < 1.0 ? 1.0 - sum : 0.0);
    const double norm = std::sqrt(sum + c[largest] * c[largest]);  // >= 1: never zero
    Quat r;
    r.x = static_cast<float>(c[0] / norm);
    r.y = static_cast<float>(c[1] / norm);
    r.z = static_cast<float>(c[2] / norm);
    r.w = static_cast<float>(c[3] / norm);
    return r;
}

}  // namespace rwd::wire
