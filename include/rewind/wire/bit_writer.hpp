/// BitWriter: packs values of 1..32 bits, least significant bit first, into a caller-provided byte buffer.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include <rewind/core/result.hpp>
#include <rewind/wire/detail/always_inline.hpp>

namespace rwd::wire {

class WriteStream;

/// Writes bit fields into a fixed byte buffer. Bit i of the stream is bit (i % 8) of byte (i / 8), so
/// the format does not depend on the host's endianness. Whole 32-bit words are stored as soon as they
/// fill; call flush() to store the last partial word. Writing past the end sets an error (sticky) and
/// writes nothing: the buffer is never written out of bounds.
class BitWriter {
public:
    /// A writer over `buffer`; nothing is written before the first write_bits().
    explicit BitWriter(std::span<std::uint8_t> buffer) noexcept
        : data_(buffer.data()), capacity_bits_(buffer.size() * 8) {}

    /// Appends the low `bits` bits of `value` (bits in 0..32; 0 is a no-op; higher bits of value are
    /// ignored). Sets Errc::out_of_space if the field does not fit, Errc::invalid_argument for bad `bits`.
    RWD_ALWAYS_INLINE void write_bits(std::uint32_t value, int bits) noexcept {
        if (error_ != Errc::ok) return;
        if (bits < 0 || bits > 32) {
            error_ = Errc::invalid_argument;
            return;
        }
        (void)put_bits(static_cast<std::uint32_t>(value & ((std::uint64_t{1} << bits) - 1)), bits);
    }

private:
    friend class WriteStream;  // validates every field itself, then packs it with put_bits()

    // The unchecked core of write_bits() for callers that validated their field: `bits` in 0..32 and
    // `value` below 2^bits, and no earlier error. Returns false (Errc::out_of_space, sticky) if the field
    // does not fit.
    [[nodiscard]] RWD_ALWAYS_INLINE bool put_bits(std::uint32_t value, int bits) noexcept {
        if (static_cast<std::size_t>(bits) > capacity_bits_ - bits_written_) {
            error_ = Errc::out_of_space;
            return false;
        }
        if (bits == 0) return true;
        scratch_ |= std::uint64_t{value} << scratch_bits_;
        scratch_bits_ += bits;
        bits_written_ += static_cast<std::size_t>(bits);
        if (scratch_bits_ >= 32) {
            // In bounds: bits_written_ >= (word_byte_ + 4) * 8 and bits_written_ <= capacity_bits_.
            store_word(static_cast<std::uint32_t>(scratch_));
            word_byte_ += 4;
            scratch_ >>= 32;
            scratch_bits_ -= 32;
        }
        return true;
    }

public:
    /// Stores the pending partial word (the unused high bits of the last byte are zero). Idempotent:
    /// writing may continue afterwards.
    void flush() noexcept {
        const int bytes = (scratch_bits_ + 7) / 8;
        store_bytes(static_cast<std::uint32_t>(scratch_), bytes);
    }

    /// Bits written so far.
    [[nodiscard]] std::size_t bits_written() const noexcept { return bits_written_; }
    /// Bytes written so far, rounded up (valid in the buffer after flush()).
    [[nodiscard]] std::size_t bytes_written() const noexcept { return (bits_written_ + 7) / 8; }
    /// Bits that still fit in the buffer.
    [[nodiscard]] std::size_t bits_available() const noexcept { return capacity_bits_ - bits_written_; }
    /// True until the first error.
    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    /// The first error, or Errc::ok.
    [[nodiscard]] Errc error() const noexcept { return error_; }
    /// The start of the buffer.
    [[nodiscard]] const std::uint8_t* data() const noexcept { return data_; }

private:
    // A whole little-endian word: one store on a little-endian host (a loop of four byte stores is what
    // the coverage instrumentation of a fuzz build traces, four comparisons per word).
    RWD_ALWAYS_INLINE void store_word(std::uint32_t word) noexcept {
        if constexpr (std::endian::native == std::endian::little)
            std::memcpy(data_ + word_byte_, &word, 4);
        else
            store_bytes(word, 4);
    }
    void store_bytes(std::uint32_t word, int count) noexcept {
        std::uint8_t* p = data_ + word_byte_;
        for (int i = 0; i < count; ++i) p[i] = static_cast<std::uint8_t>(word >> (8 * i));
    }

    std::uint8_t* data_;
    std::size_t capacity_bits_;
    std::size_t bits_written_ = 0;
    std::size_t word_byte_ = 0;  ///< byte offset of the word being filled in scratch_
    std::uint64_t scratch_ = 0;  ///< pending bits, fewer than 32 between calls
    int scratch_bits_ = 0;
    Errc error_ = Errc::ok;
};

}  // namespace rwd::wire
