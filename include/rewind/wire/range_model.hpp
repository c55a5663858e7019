/// The range coder's probability models: the table layout, a model's adaptation, and RangeModel, the
/// starting table a writer and a reader share (all 1/2 by default, or trained: range_training.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <rewind/core/result.hpp>

namespace rwd::wire {

/// Model groups: set_context(g) selects group g % kRangeGroups.
inline constexpr std::uint32_t kRangeGroups = 16;
/// Field ordinals per group: the n-th field after set_context() uses ordinal n % kRangeOrdinals.
inline constexpr std::uint32_t kRangeOrdinals = 64;
/// Zero bytes the decoder may read past the end of its data; a complete message needs exactly this many.
inline constexpr std::size_t kRangeTailBytes = 3;
/// Upper bound on the coded bits one input bit can carry: the likeliest symbol (p = 4065/4096, less the
/// coder's rounding) still narrows the range by a factor of at most 0.99268, i.e. costs >= 0.0106 bits.
inline constexpr std::size_t kRangeCodedBitsPerInputBit = 95;

namespace detail {

inline constexpr int kRangeProbBits = 12;                             ///< probability precision
inline constexpr std::uint32_t kRangeProbOne = 1u << kRangeProbBits;  ///< probability 1.0
inline constexpr std::uint32_t kRangeProbMask = kRangeProbOne - 1;    ///< a model's probability bits
inline constexpr int kRangeCountShift = kRangeProbBits;               ///< a model's count: its top 4 bits
inline constexpr std::uint32_t kRangeMaxCount = 15;
/// The adaptation rate by how often the model was used: 1/4 (x2), 1/8 (x4), 1/16 (x8), then 1/32 for good.
/// Fast at first, since a model must learn within one packet, and steady afterwards. (A first step of 1/2
/// learns skewed fields a little faster but costs random ones 4-6 % instead of 2-3 %; a fixed 1/32 costs
/// random fields under 1 % but needs twice the bits on a sparse 16-bit mask.)
inline constexpr std::array<std::uint8_t, kRangeMaxCount + 1> kRangeAdaptShift = {2, 2, 3, 3, 3, 3, 4, 4,
                                                                                  4, 4, 4, 4, 4, 4, 5, 5};
inline constexpr std::uint16_t kRangeProbHalf = kRangeProbOne / 2;  ///< every model's start (count 0)
/// The steady adaptation's fixed points: p - (p >> 5) == p below 32, p + ((4096 - p) >> 5) == p above 4064.
/// The faster early steps stay well inside them (the 14 steps from 1/2 reach 407..3689; the unit test walks
/// every reachable state), so every coded probability lies in [31, 4065].
inline constexpr std::uint32_t kRangeMinProb = (1u << kRangeAdaptShift[kRangeMaxCount]) - 1;
inline constexpr std::uint32_t kRangeMaxProb = kRangeProbOne - kRangeMinProb;
inline constexpr std::uint32_t kRangeTop = 1u << 24;  ///< normalise (shift a byte) below this range
inline constexpr int kRangeCostBits = 12;             ///< cost table unit: 1/4096 bit
inline constexpr int kRangeTreeBits = 4;              ///< top bits of a value coded by bit tree
inline constexpr std::uint32_t kRangeSlots = kRangeGroups * kRangeOrdinals;

// One byte of normalisation always suffices: the smallest range after a symbol, (2^24 >> 12) * 31, is
// above 2^16.
static_assert((((kRangeTop >> kRangeProbBits) * kRangeMinProb) << 8) >= kRangeTop);
static_assert(kRangeSlots % 64 == 0 && kRangeOrdinals <= 64);

/// Models per slot: [1..15] the bit tree over a value's top bits ([0] unused), [16 + i] bit i of a value
/// below its tree bits.
inline constexpr std::uint32_t kRangeSlotModels = (1u << kRangeTreeBits) + 32 - kRangeTreeBits;
inline constexpr std::uint32_t kRangeLowModel = 1u << kRangeTreeBits;  ///< index of low bit 0's model

/// The models of one (group, ordinal) slot; each model is (use count << 12) | P(bit is 0) in 1/4096.
struct RangeSlot {
    std::uint16_t tree[1u << kRangeTreeBits];  ///< [1..15]: the bit tree over a value's top bits
    std::uint16_t low[32 - kRangeTreeBits];    ///< [i]: bit i of a value, below its tree bits

    /// Model `index` (see kRangeSlotModels).
    std::uint16_t& at(std::uint32_t index) noexcept {
        return index < kRangeLowModel ? tree[index] : low[index - kRangeLowModel];
    }
    [[nodiscard]] std::uint16_t at(std::uint32_t index) const noexcept {
        return index < kRangeLowModel ? tree[index] : low[index - kRangeLowModel];
    }
};

/// -log2(p / 4096) in 1/4096 bit for p in 1..4096 (entry 0 unused), computed with integers only.
extern const std::array<std::uint16_t, kRangeProbOne + 1> kRangeCost;

/// Moves the model's P(0) towards the bit just coded, at the rate its use count selects.
inline void range_adapt(std::uint16_t& model, std::uint32_t bit) noexcept {
    const std::uint32_t count = model >> kRangeCountShift;
    const std::uint32_t p = model & kRangeProbMask;
    const int shift = kRangeAdaptShift[count];
    const std::uint32_t mask = 0u - bit;  // branch-free: coded bits are data, mispredicting costs more
    const std::uint32_t next = ((p + ((kRangeProbOne - p) >> shift)) & ~mask) | ((p - (p >> shift)) & mask);
    const std::uint32_t next_count = count < kRangeMaxCount ? count + 1 : count;
    model = static_cast<std::uint16_t>((next_count << kRangeCountShift) | next);
}

class RangeModels;

}  // namespace detail

/// One trained probability of a RangeModel: the model `model` (see kRangeSlotModels: 1..15 a bit-tree node,
/// 16 + i low bit i) of slot (group, ordinal), and its P(bit is 0) in 1/4096.
struct RangeModelEntry {
    std::uint8_t group = 0;         ///< 0..kRangeGroups-1
    std::uint8_t ordinal = 0;       ///< 0..kRangeOrdinals-1
    std::uint8_t model = 0;         ///< 1..kRangeSlotModels-1
    std::uint16_t probability = 0;  ///< P(0) in 1/4096, clamped to [31, 4065] when set

    /// Whether it names a model of the table (what RangeModel::set accepts).
    [[nodiscard]] constexpr bool valid() const noexcept {
        return group < kRangeGroups && ordinal < kRangeOrdinals && model != 0 &&
               model < detail::kRangeSlotModels;
    }
};

/// Initial probabilities for every slot: learned from typical traffic (RangeModelTrainer) or taken from a
/// running stream (RangeMeasureStream::model()). Pass the same table to the writer and the reader (it is then
/// part of the wire format). The default table is all 1/2, exactly like a stream built without one. A stream
/// keeps a pointer: the table must outlive it.
class RangeModel {
public:
    /// Every probability 1/2.
    RangeModel() noexcept;

    /// Sets one model's starting probability (clamped into the coder's [31, 4065]), adapting at the steady
    /// rate (1/32) from the first bit, as a trained probability should. Errc::invalid_argument for a group,
    /// ordinal or model outside the table (model 0 is unused).
    Status set(const RangeModelEntry& entry) noexcept;
    /// Sets every entry of `entries` (the first bad one fails the call, the ones before it stay set).
    Status set(std::span<const RangeModelEntry> entries) noexcept;
    /// P(bit is 0) in 1/4096 where model `model` of slot (group, ordinal) starts (inputs taken modulo the
    /// table).
    [[nodiscard]] std::uint32_t probability(std::uint32_t group, std::uint32_t ordinal,
                                            std::uint32_t model) const noexcept;

private:
    friend class detail::RangeModels;
    detail::RangeSlot slots_[detail::kRangeSlots];
};

}  // namespace rwd::wire
