/// Learning a RangeModel from traffic: RangeModelTrainer counts the bits every model codes,
/// RangeTrainingStream feeds it from any serialize().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <rewind/core/result.hpp>
#include <rewind/wire/range_coder.hpp>
#include <rewind/wire/stream.hpp>

namespace rwd::wire {

/// How often each model of a RangeModel's table saw a 0 and a 1 over many messages, and the table that
/// codes such messages best: every model that saw at least `min_samples` bits starts at its observed P(0)
/// (Laplace-smoothed, clamped to the coder's range), the rest at 1/2.
class RangeModelTrainer {
public:
    RangeModelTrainer();

    /// Counts one coded bit of model `model` in slot (group, ordinal), all taken modulo the table.
    void count(std::uint32_t group, std::uint32_t ordinal, std::uint32_t model, std::uint32_t bit) noexcept;
    /// Messages counted (RangeTrainingStream adds one per stream).
    void add_message() noexcept { ++messages_; }
    [[nodiscard]] std::uint64_t messages() const noexcept { return messages_; }
    /// Bits counted in all.
    [[nodiscard]] std::uint64_t bits() const noexcept;

    /// The learned probabilities of every model that saw at least `min_samples` bits, by slot then model.
    [[nodiscard]] std::vector<RangeModelEntry> entries(std::uint64_t min_samples = 32) const;
    /// A table with entries(min_samples) set and 1/2 elsewhere.
    [[nodiscard]] RangeModel model(std::uint64_t min_samples = 32) const;
    /// What the counted bits cost under `m` if every model kept its starting probability (the static part
    /// of the cost: a stream also adapts), in bits.
    [[nodiscard]] double static_cost_bits(const RangeModel& m) const;
    /// The same for the models of group `group` only (where the bits go).
    [[nodiscard]] double static_cost_bits(const RangeModel& m, std::uint32_t group) const;
    /// Bits counted in group `group`.
    [[nodiscard]] std::uint64_t bits(std::uint32_t group) const noexcept;

private:
    double cost(const RangeModel& m, std::size_t first, std::size_t last) const;

    struct Counts {
        std::uint64_t zeros = 0;
        std::uint64_t ones = 0;
    };
    std::vector<Counts> counts_;  // [slot * kRangeSlotModels + model]
    std::uint64_t messages_ = 0;
};

/// A measuring stream (like RangeMeasureStream: nothing stored, values validated as a writer would) that
/// counts every coded bit into a RangeModelTrainer: run the messages a program sends through one each.
/// It walks the same slots and models as the range streams, so the trainer sees exactly what they code.
class RangeTrainingStream {
public:
    static constexpr bool is_writing = false;   ///< nothing is stored
    static constexpr bool is_reading = false;   ///< serializers encode (read their arguments)
    static constexpr bool is_measuring = true;  ///< only counted

    /// A stream counting into `trainer` (which must outlive it); counts one message.
    explicit RangeTrainingStream(RangeModelTrainer& trainer) noexcept : trainer_(&trainer) {
        trainer.add_message();
    }

    /// Counts the bits `value` codes in `bits` bits (0..32); rejects values as RangeWriteStream would.
    bool serialize_bits(std::uint32_t& value, int bits) noexcept;
    /// Validates `value` as RangeWriteStream::serialize_uniform_bits does; uniform bits have no model, so
    /// nothing is counted.
    bool serialize_uniform_bits(std::uint32_t& value, int bits) noexcept;
    /// Selects model group `group` and ordinal `ordinal` for the fields that follow (see wire::set_context).
    void set_context(std::uint32_t group, std::uint32_t ordinal = 0) noexcept {
        group_ = group % kRangeGroups;
        ordinal_ = ordinal % kRangeOrdinals;
    }

    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    [[nodiscard]] Errc error() const noexcept { return error_; }
    void fail(Errc e) noexcept {
        if (error_ == Errc::ok && e != Errc::ok) error_ = e;
    }
    /// Field bits so far (uncoded: a training pass has no size of its own).
    [[nodiscard]] std::size_t bits_used() const noexcept { return used_; }
    /// Unlimited.
    [[nodiscard]] std::size_t bits_remaining() const noexcept { return static_cast<std::size_t>(-1) / 2; }

private:
    RangeModelTrainer* trainer_;
    detail::RangeSlot scratch_{};  // walked for the model index of each bit, never read
    std::uint32_t group_ = 0;
    std::uint32_t ordinal_ = 0;
    std::size_t used_ = 0;
    Errc error_ = Errc::ok;
};

}  // namespace rwd::wire
