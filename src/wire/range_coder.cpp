/// The range coder's compiled part: the cost table, model tables, each stream's serialize_bits, flush, and
/// the reader's bounds and end check.
#include <rewind/wire/range_coder.hpp>
#include <rewind/wire/range_training.hpp>

#include "range_code_value.hpp"

#include <algorithm>
#include <bit>

namespace rwd::wire {

namespace detail {

namespace {

// log2(p) in Q16 for p in 1..4096, integers only (bit-by-bit squaring of the mantissa in Q31), so the table
// is the same on every compiler and platform.
constexpr std::uint32_t log2_q16(std::uint32_t p) {
    const int whole = static_cast<int>(std::bit_width(p)) - 1;
    std::uint64_t y = std::uint64_t{p} << (31 - whole);  // mantissa in [2^31, 2^32)
    std::uint32_t result = static_cast<std::uint32_t>(whole) << 16;
    for (int k = 15; k >= 0; --k) {
        y = (y * y) >> 31;  // y < 2^32, so y * y < 2^64
        if (y >= (std::uint64_t{1} << 32)) {
            y >>= 1;
            result |= std::uint32_t{1} << k;
        }
    }
    return result;
}

constexpr std::array<std::uint16_t, kRangeProbOne + 1> make_cost_table() {
    std::array<std::uint16_t, kRangeProbOne + 1> table{};
    table[0] = static_cast<std::uint16_t>(kRangeProbBits << kRangeCostBits);  // never used: p >= 31
    for (std::uint32_t p = 1; p <= kRangeProbOne; ++p) {
        const std::uint32_t q16 = (std::uint32_t{kRangeProbBits} << 16) - log2_q16(p);
        table[p] = static_cast<std::uint16_t>((q16 + (1u << (15 - kRangeCostBits))) >> (16 - kRangeCostBits));
    }
    return table;
}

void fill_half(RangeSlot& slot) noexcept {
    std::fill(std::begin(slot.tree), std::end(slot.tree), kRangeProbHalf);
    std::fill(std::begin(slot.low), std::end(slot.low), kRangeProbHalf);
}

}  // namespace

constinit const std::array<std::uint16_t, kRangeProbOne + 1> kRangeCost = make_cost_table();

static_assert(make_cost_table()[kRangeProbHalf] == 1u << kRangeCostBits, "p = 1/2 costs one bit");
static_assert(make_cost_table()[kRangeProbOne] == 0, "p = 1 costs nothing");

void RangeModels::init_slot(std::uint32_t index) noexcept {
    if (initial_ != nullptr) {
        slots_[index] = initial_->slots_[index];
    } else {
        fill_half(slots_[index]);
    }
}

void RangeModels::copy_to(RangeModel& out) const noexcept {
    for (std::uint32_t i = 0; i < kRangeSlots; ++i) {
        if ((touched_[i / 64] >> (i % 64) & 1u) != 0) {
            out.slots_[i] = slots_[i];
        } else if (initial_ != nullptr) {
            out.slots_[i] = initial_->slots_[i];
        } else {
            fill_half(out.slots_[i]);
        }
    }
}

void RangeEncoder::finish() noexcept {
    if (finished_) return;
    // Any code value in [low, low + range) decodes to the same symbols, and the decoder reads zeros past
    // the end: round low up to a multiple of 2^24 (less than range >= 2^24 away), so only the top byte of
    // the window needs sending. Then store that byte with the cache and the pending 0xFF bytes.
    low_ = (low_ + 0x00FFFFFFu) & ~std::uint64_t{0x00FFFFFFu};
    shift_low();  // leaves low = 0: no carry can follow
    if (has_cache_) put(cache_);
    for (; pending_ != 0; --pending_) put(0xFF);
    has_cache_ = false;
    finished_ = true;
}

}  // namespace detail

RangeModel::RangeModel() noexcept {
    for (detail::RangeSlot& slot : slots_) detail::fill_half(slot);
}

Status RangeModel::set(const RangeModelEntry& entry) noexcept {
    if (!entry.valid()) return Errc::invalid_argument;
    const std::uint32_t p =
        std::clamp<std::uint32_t>(entry.probability, detail::kRangeMinProb, detail::kRangeMaxProb);
    slots_[entry.group * kRangeOrdinals + entry.ordinal].at(entry.model) =
        static_cast<std::uint16_t>((detail::kRangeMaxCount << detail::kRangeCountShift) | p);
    return {};
}

Status RangeModel::set(std::span<const RangeModelEntry> entries) noexcept {
    for (const RangeModelEntry& e : entries) {
        if (Status st = set(e); !st) return st;
    }
    return {};
}

std::uint32_t RangeModel::probability(std::uint32_t group, std::uint32_t ordinal,
                                      std::uint32_t model) const noexcept {
    const std::uint32_t slot = (group % kRangeGroups) * kRangeOrdinals + ordinal % kRangeOrdinals;
    return slots_[slot].at(model % detail::kRangeSlotModels) & detail::kRangeProbMask;
}

bool RangeWriteStream::serialize_bits(std::uint32_t& value, int bits) noexcept {
    if (error_ != Errc::ok) return false;
    if (flushed_ || bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
    if (!detail::fits_in_bits(value, bits)) return fail(Errc::value_out_of_range), false;
    if (trainer_ != nullptr) {
        const std::uint32_t index = models_.next_index();
        std::uint32_t model = 0;
        detail::range_code_value(
            models_.next_slot(bits), value, bits,
            [this, index, &model](std::uint16_t& p, std::uint32_t bit) {
                trainer_->count(index / kRangeOrdinals, index % kRangeOrdinals, model, bit);
                models_.count(p, bit);
                enc_.encode(p, bit);
                return bit;
            },
            [&model](std::uint32_t m) { model = m; });
    } else {
        detail::range_code_value(models_.next_slot(bits), value, bits,
                                 [this](std::uint16_t& p, std::uint32_t bit) {
                                     models_.count(p, bit);
                                     enc_.encode(p, bit);
                                     return bit;
                                 });
    }
    if (enc_.overflowed() || enc_.size_if_finished() > enc_.capacity())
        return fail(Errc::out_of_space), false;
    return true;
}

bool RangeWriteStream::serialize_uniform_bits(std::uint32_t& value, int bits) noexcept {
    if (error_ != Errc::ok) return false;
    if (flushed_ || bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
    if (!detail::fits_in_bits(value, bits)) return fail(Errc::value_out_of_range), false;
    models_.count_uniform(bits);
    for (int left = bits; left > 0;) {
        const int step = left > 16 ? left - 16 : left;  // the top bits first, then 16 at a time
        left -= step;
        enc_.encode_uniform((value >> left) & ((1u << step) - 1), step);
    }
    if (enc_.overflowed() || enc_.size_if_finished() > enc_.capacity())
        return fail(Errc::out_of_space), false;
    return true;
}

void RangeWriteStream::count_into(RangeModelTrainer& trainer) noexcept {
    trainer_ = &trainer;
    trainer.add_message();
}

void RangeWriteStream::flush() noexcept {
    if (error_ != Errc::ok || flushed_) return;
    flushed_ = true;
    enc_.finish();
    if (enc_.overflowed()) fail(Errc::out_of_space);
}

bool RangeReadStream::serialize_bits(std::uint32_t& value, int bits) noexcept {
    if (error_ != Errc::ok) return false;
    if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
    const std::uint32_t v =
        detail::range_code_value(models_.next_slot(bits), 0, bits, [this](std::uint16_t& p, std::uint32_t) {
            const std::uint32_t p0 = p;
            const std::uint32_t bit = dec_.decode(p);
            models_.count(p0, bit);
            return bit;
        });
    if (dec_.past_end() > kRangeTailBytes) return fail(Errc::end_of_data), false;
    value = v;
    return true;
}

bool RangeReadStream::serialize_uniform_bits(std::uint32_t& value, int bits) noexcept {
    if (error_ != Errc::ok) return false;
    if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
    models_.count_uniform(bits);
    std::uint32_t v = 0;
    for (int left = bits; left > 0;) {
        const int step = left > 16 ? left - 16 : left;
        left -= step;
        std::uint32_t part = 0;
        if (!dec_.decode_uniform(step, part)) return fail(Errc::malformed), false;
        v = (v << step) | part;
    }
    if (dec_.past_end() > kRangeTailBytes) return fail(Errc::end_of_data), false;
    value = v;
    return true;
}

void RangeReadStream::check_start() noexcept {
    // A message is at least one byte (the flush byte). The encoder's code value always lies below its range,
    // so a first word of 0xFFFFFFFF cannot come from it; rejecting it keeps code < range for every step.
    if (dec_.past_end() > kRangeTailBytes) {
        fail(Errc::end_of_data);
    } else if (!dec_.valid_start()) {
        fail(Errc::malformed);
    }
}

bool RangeReadStream::finish() noexcept {
    if (error_ != Errc::ok) return false;
    // A complete message leaves the decoder exactly kRangeTailBytes past the end; fewer means bytes follow.
    // Any value in the final interval [low, low + range) decodes the same fields; with the tail pinned to
    // zeros the candidates are the multiples of 2^24 in it, and flush() sends the smallest, the one within
    // 2^24 of low. The decoder holds value - low: the writer's bytes leave it below 2^24, any other ending
    // at or above.
    if (dec_.bytes_left() != 0 || dec_.past_end() != kRangeTailBytes || dec_.code() >= detail::kRangeTop)
        fail(Errc::malformed);
    return ok();
}

std::size_t RangeReadStream::bits_remaining() const noexcept {
    if (error_ != Errc::ok || dec_.past_end() > kRangeTailBytes) return 0;
    // Each coded bit narrows the range by a factor of at most 0.99268 (>= 0.0106 bits, see
    // kRangeCodedBitsPerInputBit); each byte read widens it 256-fold; the decoder fails once it must read a
    // byte it may not. So the symbols left are at most (8 * bytes still readable + log2(range) - 24) * 95,
    // with bit_width(range) >= log2(range) and range >= 2^24 between fields.
    const std::size_t bytes = dec_.bytes_left() + (kRangeTailBytes - dec_.past_end());
    const auto slack = static_cast<std::size_t>(std::bit_width(dec_.range())) - 24;
    return (8 * bytes + slack) * kRangeCodedBitsPerInputBit;
}

bool RangeMeasureStream::serialize_bits(std::uint32_t& value, int bits) noexcept {
    if (error_ != Errc::ok) return false;
    if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
    if (!detail::fits_in_bits(value, bits)) return fail(Errc::value_out_of_range), false;
    detail::range_code_value(models_.next_slot(bits), value, bits,
                             [this](std::uint16_t& p, std::uint32_t bit) {
                                 models_.count(p, bit);
                                 detail::range_adapt(p, bit);
                                 return bit;
                             });
    return true;
}

bool RangeMeasureStream::serialize_uniform_bits(std::uint32_t& value, int bits) noexcept {
    if (error_ != Errc::ok) return false;
    if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
    if (!detail::fits_in_bits(value, bits)) return fail(Errc::value_out_of_range), false;
    models_.count_uniform(bits);
    return true;
}

RangeModel RangeMeasureStream::model() const noexcept {
    RangeModel m;
    models_.copy_to(m);
    return m;
}

}  // namespace rwd::wire
