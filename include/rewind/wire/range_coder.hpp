/// Adaptive binary range coding for any serialize(): RangeWriteStream, RangeReadStream, RangeMeasureStream.
///
/// Every field bit is coded with an adaptive probability instead of stored raw, so skewed fields (flags that
/// are nearly always 0, bucket prefixes, small residuals, changed-bit masks) cost a fraction of a bit. The
/// three classes satisfy the BitStream concept, so any `template <BitStream Stream> serialize(...)` works
/// unchanged; wire::set_context() (context.hpp) tells them which fields belong together.
///
/// Format (LZMA-style, integer-only, identical on every platform):
///   - probabilities: 12 bits (p = P(bit is 0) in 1/4096), start at 1/2 in every stream, and after every
///     coded bit move towards it by 1/4 (x2), 1/8 (x4), 1/16 (x8) of the distance, then 1/32 (shift 5) for
///     good: fast enough to learn inside one packet, steady after; they stay in [31, 4065];
///   - coder: 32-bit range, 64-bit low with carry propagation (cache + pending 0xFF bytes), one byte shifted
///     out whenever range < 2^24; the always-zero first byte of LZMA is not sent; flush() sends the single
///     byte that pins the final interval, so a message costs its information content plus 0..8 bits;
///   - the decoder reads 4 bytes ahead and past the end reads zero bytes: a complete message leaves it
///     exactly kRangeTailBytes (3) bytes past the end; one more byte is Errc::end_of_data;
///   - uniform fields (serialize_uniform_bits) skip the models: up to 16 bits at probability 1/2 in one step
///     (range >>= k; the writer adds value * range to low, the reader divides), top bits first.
///
/// Model layout (range_model.hpp): kRangeGroups (16) groups x kRangeOrdinals (64) ordinals = 1024 slots.
/// set_context(g, o) selects group g % 16 and ordinal o % 64 (o = 0 by default); the n-th serialize_bits call
/// after it uses slot (g, (o + n) % 64). In a slot, a value is coded MSB first: its top min(bits, 4) bits
/// through a 15-node bit tree (each bit's
/// probability conditioned on the bits above it in the same value), the bits below by their bit index
/// (bit i uses low[i]). The tree sees a 4-bit field's full distribution and a wide field's magnitude class.
/// Helpers that make a data-dependent number of calls (serialize_relative, serialize_varint, serialize_bytes)
/// shift the ordinals of the fields after them: call set_context() again after them for stable models.
/// A stream holds its own table (about 88 KiB, initialised lazily per slot), so no state carries over
/// between packets: each packet decodes on its own and a lost packet cannot desynchronise anything.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <rewind/core/result.hpp>
#include <rewind/wire/context.hpp>
#include <rewind/wire/range_model.hpp>
#include <rewind/wire/stream.hpp>

namespace rwd::wire {

class RangeModelTrainer;

namespace detail {

/// The model table of one stream plus its position (group, ordinal) and the running cost of what it coded.
class RangeModels {
public:
    explicit RangeModels(const RangeModel* initial) noexcept : initial_(initial) {}

    /// Selects group `group % kRangeGroups` and continues at `ordinal % kRangeOrdinals`.
    void set_context(std::uint32_t group, std::uint32_t ordinal) noexcept {
        base_ = (group % kRangeGroups) * kRangeOrdinals;
        ordinal_ = ordinal % kRangeOrdinals;
    }
    /// The index (group * kRangeOrdinals + ordinal) of the slot next_slot() returns next.
    [[nodiscard]] std::uint32_t next_index() const noexcept { return base_ + ordinal_ % kRangeOrdinals; }
    /// The slot of the next field, which codes `bits` symbols (the slot is initialised on first use).
    RangeSlot& next_slot(int bits) noexcept {
        coded_ += static_cast<std::uint64_t>(bits);
        const std::uint32_t index = base_ + ordinal_++ % kRangeOrdinals;
        std::uint64_t& word = touched_[index / 64];
        const std::uint64_t mask = std::uint64_t{1} << (index % 64);
        if ((word & mask) == 0) {
            word |= mask;
            init_slot(index);
        }
        return slots_[index];
    }
    /// Adds the cost of coding `bit` with `model` (before it adapts).
    void count(std::uint32_t model, std::uint32_t bit) noexcept {
        const std::uint32_t p = model & kRangeProbMask;
        cost_ += kRangeCost[bit != 0 ? kRangeProbOne - p : p];
    }
    /// Adds `bits` uniform bits (one bit each, no model, no slot).
    void count_uniform(int bits) noexcept {
        coded_ += static_cast<std::uint64_t>(bits);
        cost_ += static_cast<std::uint64_t>(bits) << kRangeCostBits;
    }
    /// The summed cost, rounded up to whole bits.
    [[nodiscard]] std::size_t bits() const noexcept {
        return static_cast<std::size_t>((cost_ + (1u << kRangeCostBits) - 1) >> kRangeCostBits);
    }
    /// Binary symbols coded so far.
    [[nodiscard]] std::size_t coded() const noexcept { return static_cast<std::size_t>(coded_); }
    /// The current probabilities (initial ones for slots not used yet).
    void copy_to(RangeModel& out) const noexcept;

private:
    void init_slot(std::uint32_t index) noexcept;

    const RangeModel* initial_;
    std::uint32_t base_ = 0;
    std::uint32_t ordinal_ = 0;
    std::uint64_t cost_ = 0;
    std::uint64_t coded_ = 0;
    std::uint64_t touched_[kRangeSlots / 64] = {};
    RangeSlot slots_[kRangeSlots];  // each slot initialised on first use (touched_)
};

/// The encoder: writes into a fixed buffer, never out of bounds (overflowed() instead).
class RangeEncoder {
public:
    explicit RangeEncoder(std::span<std::uint8_t> buffer) noexcept
        : data_(buffer.data()), capacity_(buffer.size()) {}

    /// Codes `bit` with `model` and adapts it.
    void encode(std::uint16_t& model, std::uint32_t bit) noexcept {
        const std::uint32_t bound = (range_ >> kRangeProbBits) * (model & kRangeProbMask);
        const std::uint32_t mask = 0u - bit;  // branch-free, as in range_adapt()
        low_ += bound & mask;
        range_ = (bound & ~mask) | ((range_ - bound) & mask);
        range_adapt(model, bit);
        if (range_ < kRangeTop) {
            range_ <<= 8;
            shift_low();
        }
    }
    /// Codes the low `bits` (1..16) bits of `value` in one step, each at probability exactly 1/2: no model.
    void encode_uniform(std::uint32_t value, int bits) noexcept {
        range_ >>= bits;  // >= 2^8: range >= 2^24 between symbols
        low_ += std::uint64_t{value} * range_;
        while (range_ < kRangeTop) {
            range_ <<= 8;
            shift_low();
        }
    }
    /// Pins the final interval with one byte and stores every pending byte.
    void finish() noexcept;
    /// The bytes the message takes if finished now (exact once finished).
    [[nodiscard]] std::size_t size_if_finished() const noexcept {
        return pos_ + (has_cache_ ? 1u : 0u) + pending_ + (finished_ ? 0u : 1u);
    }
    [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
    [[nodiscard]] bool overflowed() const noexcept { return overflow_; }
    [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return {data_, pos_}; }

private:
    // Moves the top byte of the 32-bit window out: into the cache, or, while it is 0xFF and a carry may
    // still reach it, into the pending count. A carry (bit 32 of low) adds one to the cache and turns every
    // pending 0xFF into 0x00. The byte before the first cached one is LZMA's leading zero: a carry can never
    // reach it (low + range never exceeds the initial 2^32), so it is not sent.
    void shift_low() noexcept {
        if (low_ < 0xFF000000u || low_ > 0xFFFFFFFFu) {
            const auto carry = static_cast<std::uint8_t>(low_ >> 32);
            if (has_cache_) put(static_cast<std::uint8_t>(cache_ + carry));
            for (; pending_ != 0; --pending_) put(static_cast<std::uint8_t>(0xFFu + carry));
            cache_ = static_cast<std::uint8_t>(low_ >> 24);
            has_cache_ = true;
        } else {
            ++pending_;
        }
        low_ = (low_ & 0x00FFFFFFu) << 8;
    }
    void put(std::uint8_t byte) noexcept {
        if (pos_ < capacity_) {
            data_[pos_++] = byte;
        } else {
            overflow_ = true;
        }
    }

    std::uint8_t* data_;
    std::size_t capacity_;
    std::size_t pos_ = 0;
    std::size_t pending_ = 0;  ///< 0xFF bytes after the cache, waiting for a possible carry
    std::uint64_t low_ = 0;
    std::uint32_t range_ = 0xFFFFFFFFu;
    std::uint8_t cache_ = 0;
    bool has_cache_ = false;
    bool overflow_ = false;
    bool finished_ = false;
};

/// The decoder: reads untrusted bytes, never out of bounds; past the end it reads zeros and counts them.
class RangeDecoder {
public:
    explicit RangeDecoder(std::span<const std::uint8_t> data) noexcept
        : data_(data.data()), size_(data.size()) {
        for (int i = 0; i < 4; ++i) code_ = (code_ << 8) | next();
    }

    /// Decodes one bit with `model` and adapts it. Keeps code < range (true from the start, checked by the
    /// stream), so garbage input only ever decodes to some bit string, never to undefined state.
    std::uint32_t decode(std::uint16_t& model) noexcept {
        const std::uint32_t bound = (range_ >> kRangeProbBits) * (model & kRangeProbMask);
        const std::uint32_t bit = code_ >= bound ? 1u : 0u;
        const std::uint32_t mask = 0u - bit;  // branch-free, as in range_adapt()
        code_ -= bound & mask;
        range_ = (bound & ~mask) | ((range_ - bound) & mask);
        range_adapt(model, bit);
        if (range_ < kRangeTop) {
            range_ <<= 8;
            code_ = (code_ << 8) | next();
        }
        return bit;
    }
    /// Decodes `bits` (1..16) bits coded by RangeEncoder::encode_uniform into `value`. False when the code
    /// lies past every value of that many bits, which no encoder produces (the decoder must not go on).
    bool decode_uniform(int bits, std::uint32_t& value) noexcept {
        range_ >>= bits;  // >= 2^8, never 0
        const std::uint32_t v = code_ / range_;
        if ((v >> bits) != 0) return false;
        code_ -= v * range_;
        while (range_ < kRangeTop) {
            range_ <<= 8;
            code_ = (code_ << 8) | next();
        }
        value = v;
        return true;
    }
    [[nodiscard]] bool valid_start() const noexcept { return code_ < range_; }
    [[nodiscard]] std::size_t past_end() const noexcept { return past_end_; }
    [[nodiscard]] std::size_t bytes_left() const noexcept { return size_ - pos_; }
    [[nodiscard]] std::size_t bytes_read() const noexcept { return pos_; }
    [[nodiscard]] std::uint32_t range() const noexcept { return range_; }
    /// The coded value less the interval's low end (always below range()).
    [[nodiscard]] std::uint32_t code() const noexcept { return code_; }

private:
    std::uint32_t next() noexcept {
        if (pos_ < size_) return data_[pos_++];
        ++past_end_;
        return 0;
    }

    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    std::size_t past_end_ = 0;  ///< zero bytes read past the end
    std::uint32_t code_ = 0;
    std::uint32_t range_ = 0xFFFFFFFFu;
};

}  // namespace detail

/// Range-codes fields into a caller-provided buffer. Errors are sticky: after the first, every call returns
/// false and codes nothing; the bytes of a failed stream are not a message (do not send them).
class RangeWriteStream {
public:
    static constexpr bool is_writing = true;     ///< serializers encode values
    static constexpr bool is_reading = false;    ///< serializers do not decode
    static constexpr bool is_measuring = false;  ///< the bits are really coded

    /// A stream that writes into `buffer`, every model starting at 1/2.
    explicit RangeWriteStream(std::span<std::uint8_t> buffer) noexcept : enc_(buffer), models_(nullptr) {}
    /// A stream whose models start from `initial` (which must outlive the stream).
    RangeWriteStream(std::span<std::uint8_t> buffer, const RangeModel& initial) noexcept
        : enc_(buffer), models_(&initial) {}

    /// From now on also counts every bit it codes into `trainer` (which must outlive the stream; counts one
    /// message), exactly as a RangeTrainingStream over the same fields would: a program that writes its
    /// lists anyway learns its table without coding them a second time through another stream type.
    void count_into(RangeModelTrainer& trainer) noexcept;

    /// Codes `value` in `bits` bits (0..32) with the next slot of the current group. Bad `bits` fails with
    /// Errc::invalid_argument (also after flush()), a value above `bits` with Errc::value_out_of_range, a
    /// message that would no longer fit the buffer once flushed with Errc::out_of_space.
    bool serialize_bits(std::uint32_t& value, int bits) noexcept;
    /// Codes `value` in `bits` bits (0..32) at probability 1/2 each, without a model and without taking a
    /// slot (the next serialize_bits() keeps its ordinal), in steps of up to 16 bits: for bits that are
    /// close to uniformly random (see wire::serialize_uniform_bits). Errors as serialize_bits().
    bool serialize_uniform_bits(std::uint32_t& value, int bits) noexcept;
    /// Selects model group `group` and ordinal `ordinal` for the fields that follow (see wire::set_context).
    void set_context(std::uint32_t group, std::uint32_t ordinal = 0) noexcept {
        models_.set_context(group, ordinal);
    }

    /// True until the first error.
    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    /// The first error, or Errc::ok.
    [[nodiscard]] Errc error() const noexcept { return error_; }
    /// Records an error (the first one wins); lets a serializer reject a value.
    void fail(Errc e) noexcept {
        if (error_ == Errc::ok && e != Errc::ok) error_ = e;
    }
    /// The model cost of the fields so far in whole bits: the same figure on all three range streams for the
    /// same fields (so serialize_align stays in step), within a few bits of the real size
    /// (RangeMeasureStream).
    [[nodiscard]] std::size_t bits_used() const noexcept { return models_.bits(); }
    /// Binary symbols coded so far (the sum of the fields' `bits`).
    [[nodiscard]] std::size_t coded_bits() const noexcept { return models_.coded(); }
    /// The real size in bytes: what flush() stores (exact before and after it).
    [[nodiscard]] std::size_t bytes_used() const noexcept { return enc_.size_if_finished(); }
    /// Output bits still free in the buffer (a coded bit may take more or less than one of them).
    [[nodiscard]] std::size_t bits_remaining() const noexcept {
        const std::size_t used = enc_.size_if_finished();
        return used < enc_.capacity() ? (enc_.capacity() - used) * 8 : 0;
    }
    /// Ends the message: stores the pending bytes; call once before sending data(). Later fields fail.
    void flush() noexcept;
    /// The bytes stored so far (the whole message after flush()).
    [[nodiscard]] std::span<const std::uint8_t> data() const noexcept { return enc_.bytes(); }

private:
    Errc error_ = Errc::ok;
    bool flushed_ = false;
    detail::RangeEncoder enc_;
    detail::RangeModels models_;
    RangeModelTrainer* trainer_ = nullptr;  // count_into()
};

/// Range-decodes fields from untrusted bytes. Errors are sticky: after the first, every call returns false
/// and leaves its output unchanged. Call finish() after the last field to reject trailing bytes.
class RangeReadStream {
public:
    static constexpr bool is_writing = false;    ///< serializers do not encode
    static constexpr bool is_reading = true;     ///< serializers decode into their arguments
    static constexpr bool is_measuring = false;  ///< not a measuring pass

    /// A stream that reads `data`, every model starting at 1/2. Empty data fails with Errc::end_of_data,
    /// a first word no encoder can produce with Errc::malformed.
    explicit RangeReadStream(std::span<const std::uint8_t> data) noexcept : dec_(data), models_(nullptr) {
        check_start();
    }
    /// A stream whose models start from `initial` (the writer's table; it must outlive the stream).
    RangeReadStream(std::span<const std::uint8_t> data, const RangeModel& initial) noexcept
        : dec_(data), models_(&initial) {
        check_start();
    }

    /// Decodes `bits` bits (0..32) into `value`. Errc::end_of_data once the field needs more than
    /// kRangeTailBytes zero bytes past the end; bad `bits` is Errc::invalid_argument.
    bool serialize_bits(std::uint32_t& value, int bits) noexcept;
    /// Decodes `bits` bits (0..32) coded by RangeWriteStream::serialize_uniform_bits. A code no writer can
    /// produce is Errc::malformed; otherwise errors as serialize_bits().
    bool serialize_uniform_bits(std::uint32_t& value, int bits) noexcept;
    /// Selects model group `group` and ordinal `ordinal` for the fields that follow (see wire::set_context).
    void set_context(std::uint32_t group, std::uint32_t ordinal = 0) noexcept {
        models_.set_context(group, ordinal);
    }
    /// After the last field: Errc::malformed unless the data is exactly the bytes RangeWriteStream::flush()
    /// produces for these fields: no trailing bytes, and no other final bytes that would decode the same
    /// (every message has one encoding). Returns ok().
    bool finish() noexcept;

    /// True until the first error.
    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    /// The first error, or Errc::ok.
    [[nodiscard]] Errc error() const noexcept { return error_; }
    /// Records an error (the first one wins); lets a serializer reject a decoded value.
    void fail(Errc e) noexcept {
        if (error_ == Errc::ok && e != Errc::ok) error_ = e;
    }
    /// The model cost of the fields so far in whole bits (equal to the writer's bits_used()).
    [[nodiscard]] std::size_t bits_used() const noexcept { return models_.bits(); }
    /// Binary symbols decoded so far.
    [[nodiscard]] std::size_t coded_bits() const noexcept { return models_.coded(); }
    /// Bytes of the data read so far (the decoder reads up to 4 bytes ahead of the fields).
    [[nodiscard]] std::size_t bytes_used() const noexcept { return dec_.bytes_read(); }
    /// An upper bound on the coded bits (field bits) the rest of the data can still decode before
    /// Errc::end_of_data, for checks on attacker-supplied counts (count * min_bits_per_item > this: reject).
    /// An entropy-coded bit may cost far less than one bit, so the bound is loose: the bytes left plus the
    /// tolerated tail, plus the slack in the current range, times kRangeCodedBitsPerInputBit (95, from the
    /// cheapest possible symbol) -- about 95x what a ReadStream reports. 0 after an error.
    [[nodiscard]] std::size_t bits_remaining() const noexcept;

private:
    void check_start() noexcept;

    Errc error_ = Errc::ok;
    detail::RangeDecoder dec_;
    detail::RangeModels models_;
};

/// Runs the writer's models without storing anything and sums the exact cost of every coded bit from a
/// fixed-point -log2(p) table, validating values exactly as RangeWriteStream does. bits_used() equals the
/// writer's for the same fields, and the real size is close to it: with B = bits_used(), N = coded_bits(),
///     B - B/128 - N/8192 - 1  <=  8 * RangeWriteStream::bytes_used()  <=  B + 8 + N/2048
/// The flush byte and the final range add 0..8 bits; the table rounds each cost by at most 1/8192 bit; the
/// coder's truncated bound (range >> 12) * p costs a likely symbol up to 1/2840 bit more and an unlikely one
/// up to 0.65 % less than -log2(p); a uniform step of k bits (range >> k, range >= 2^24) costs under
/// log2(1 + 2^(k-24)) bits more than k, at most 0.0056 for k = 16, within N/2048. In practice bytes_used() is
/// the real size or one byte less.
class RangeMeasureStream {
public:
    static constexpr bool is_writing = false;   ///< nothing is stored
    static constexpr bool is_reading = false;   ///< serializers encode (read their arguments)
    static constexpr bool is_measuring = true;  ///< only the size is computed

    /// A stream with unlimited room, every model starting at 1/2.
    RangeMeasureStream() noexcept : models_(nullptr) {}
    /// A stream whose models start from `initial` (which must outlive the stream).
    explicit RangeMeasureStream(const RangeModel& initial) noexcept : models_(&initial) {}

    /// Costs `bits` bits (0..32) and adapts the models; rejects values as RangeWriteStream would.
    bool serialize_bits(std::uint32_t& value, int bits) noexcept;
    /// Costs `bits` uniform bits (one bit each); validates as RangeWriteStream::serialize_uniform_bits.
    bool serialize_uniform_bits(std::uint32_t& value, int bits) noexcept;
    /// Selects model group `group` and ordinal `ordinal` for the fields that follow (see wire::set_context).
    void set_context(std::uint32_t group, std::uint32_t ordinal = 0) noexcept {
        models_.set_context(group, ordinal);
    }

    /// True until the first error.
    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    /// The first error, or Errc::ok.
    [[nodiscard]] Errc error() const noexcept { return error_; }
    /// Records an error (the first one wins).
    void fail(Errc e) noexcept {
        if (error_ == Errc::ok && e != Errc::ok) error_ = e;
    }
    /// The model cost so far in whole bits: the size estimate (see the class comment for its bound).
    [[nodiscard]] std::size_t bits_used() const noexcept { return models_.bits(); }
    /// Binary symbols costed so far.
    [[nodiscard]] std::size_t coded_bits() const noexcept { return models_.coded(); }
    /// The estimated size in bytes, bits_used() rounded up.
    [[nodiscard]] std::size_t bytes_used() const noexcept { return (models_.bits() + 7) / 8; }
    /// Unlimited: a measuring pass never runs out of room.
    [[nodiscard]] std::size_t bits_remaining() const noexcept { return kUnlimitedBits; }
    /// The probabilities learned so far, as a table to start later streams from (training: run one measure
    /// stream over typical messages, then ship model() with both ends).
    [[nodiscard]] RangeModel model() const noexcept;

private:
    static constexpr std::size_t kUnlimitedBits = static_cast<std::size_t>(-1) / 2;
    Errc error_ = Errc::ok;
    detail::RangeModels models_;
};

}  // namespace rwd::wire
