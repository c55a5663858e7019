/// RangeModelTrainer: counting coded bits per model and turning the counts into a starting table.
#include <rewind/wire/range_training.hpp>

#include "range_code_value.hpp"

#include <algorithm>
#include <cmath>

namespace rwd::wire {

namespace {

constexpr std::uint32_t kModels = detail::kRangeSlotModels;

std::uint32_t trained_probability(std::uint64_t zeros, std::uint64_t ones) {
    // Laplace's rule (add one half to each side), in 1/4096, rounded; RangeModel::set clamps it.
    const double p = (static_cast<double>(zeros) + 0.5) / (static_cast<double>(zeros + ones) + 1.0);
    return static_cast<std::uint32_t>(std::lround(p * detail::kRangeProbOne));
}

}  // namespace

RangeModelTrainer::RangeModelTrainer() : counts_(static_cast<std::size_t>(detail::kRangeSlots) * kModels) {}

void RangeModelTrainer::count(std::uint32_t group, std::uint32_t ordinal, std::uint32_t model,
                              std::uint32_t bit) noexcept {
    const std::uint32_t slot = (group % kRangeGroups) * kRangeOrdinals + ordinal % kRangeOrdinals;
    Counts& c = counts_[static_cast<std::size_t>(slot) * kModels + model % kModels];
    if (bit != 0) {
        ++c.ones;
    } else {
        ++c.zeros;
    }
}

std::uint64_t RangeModelTrainer::bits() const noexcept {
    std::uint64_t n = 0;
    for (const Counts& c : counts_) n += c.zeros + c.ones;
    return n;
}

std::vector<RangeModelEntry> RangeModelTrainer::entries(std::uint64_t min_samples) const {
    std::vector<RangeModelEntry> out;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        const Counts& c = counts_[i];
        if (c.zeros + c.ones < std::max<std::uint64_t>(min_samples, 1)) continue;
        const auto slot = static_cast<std::uint32_t>(i / kModels);
        const std::uint32_t p =
            std::clamp(trained_probability(c.zeros, c.ones), detail::kRangeMinProb, detail::kRangeMaxProb);
        RangeModelEntry e;
        e.group = static_cast<std::uint8_t>(slot / kRangeOrdinals);
        e.ordinal = static_cast<std::uint8_t>(slot % kRangeOrdinals);
        e.model = static_cast<std::uint8_t>(i % kModels);
        e.probability = static_cast<std::uint16_t>(p);
        out.push_back(e);
    }
    return out;
}

RangeModel RangeModelTrainer::model(std::uint64_t min_samples) const {
    RangeModel m;
    (void)m.set(std::span<const RangeModelEntry>(entries(min_samples)));  // entries() are all in range
    return m;
}

double RangeModelTrainer::cost(const RangeModel& m, std::size_t first, std::size_t last) const {
    double bits = 0;
    for (std::size_t i = first; i < last; ++i) {
        const Counts& c = counts_[i];
        if (c.zeros + c.ones == 0) continue;
        const auto slot = static_cast<std::uint32_t>(i / kModels);
        const double p0 = m.probability(slot / kRangeOrdinals, slot % kRangeOrdinals,
                                        static_cast<std::uint32_t>(i % kModels)) /
                          static_cast<double>(detail::kRangeProbOne);
        bits -=
            static_cast<double>(c.zeros) * std::log2(p0) + static_cast<double>(c.ones) * std::log2(1 - p0);
    }
    return bits;
}

double RangeModelTrainer::static_cost_bits(const RangeModel& m) const { return cost(m, 0, counts_.size()); }

double RangeModelTrainer::static_cost_bits(const RangeModel& m, std::uint32_t group) const {
    const std::size_t per_group = static_cast<std::size_t>(kRangeOrdinals) * kModels;
    const std::size_t first = (group % kRangeGroups) * per_group;
    return cost(m, first, first + per_group);
}

std::uint64_t RangeModelTrainer::bits(std::uint32_t group) const noexcept {
    const std::size_t per_group = static_cast<std::size_t>(kRangeOrdinals) * kModels;
    const std::size_t first = (group % kRangeGroups) * per_group;
    std::uint64_t n = 0;
    for (std::size_t i = first; i < first + per_group; ++i) n += counts_[i].zeros + counts_[i].ones;
    return n;
}

bool RangeTrainingStream::serialize_bits(std::uint32_t& value, int bits) noexcept {
    if (error_ != Errc::ok) return false;
    if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
    if (!detail::fits_in_bits(value, bits)) return fail(Errc::value_out_of_range), false;
    std::uint32_t model = 0;
    detail::range_code_value(
        scratch_, value, bits,
        [this, &model](std::uint16_t&, std::uint32_t bit) {
            trainer_->count(group_, ordinal_, model, bit);
            return bit;
        },
        [&model](std::uint32_t index) { model = index; });
    ordinal_ = (ordinal_ + 1) % kRangeOrdinals;
    used_ += static_cast<std::size_t>(bits);
    return true;
}

bool RangeTrainingStream::serialize_uniform_bits(std::uint32_t& value, int bits) noexcept {
    if (error_ != Errc::ok) return false;
    if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
    if (!detail::fits_in_bits(value, bits)) return fail(Errc::value_out_of_range), false;
    used_ += static_cast<std::size_t>(bits);
    return true;
}

}  // namespace rwd::wire
