/// BitReader: reads bit fields written by BitWriter from untrusted bytes, never out of bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <rewind/core/result.hpp>
#include <rewind/wire/detail/always_inline.hpp>

namespace rwd::wire {

/// Reads bit fields (least significant bit first, see BitWriter) from a byte span. The data is
/// untrusted: reading past the end sets a sticky Errc::end_of_data and returns false; no byte outside
/// the span is ever touched, including on the last partial word.
class BitReader {
public:
    /// A reader over `data`.
    explicit BitReader(std::span<const std::uint8_t> data) noexcept
        : data_(data.data()), size_(data.size()), total_bits_(data.size() * 8) {}

    /// Reads `bits` bits (0..32) into `out`. Returns false, leaving `out` unchanged, on any error:
    /// Errc::end_of_data past the end, Errc::invalid_argument for bad `bits`, or an earlier error.
    [[nodiscard]] RWD_ALWAYS_INLINE bool read_bits(int bits, std::uint32_t& out) noexcept {
        if (error_ != Errc::ok) return false;
        if (bits < 0 || bits > 32) {
            error_ = Errc::invalid_argument;
            return false;
        }
        if (static_cast<std::size_t>(bits) > total_bits_ - bits_read_) {
            error_ = Errc::end_of_data;
            return false;
        }
        if (scratch_bits_ < bits) refill();
        const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
        out = static_cast<std::uint32_t>(scratch_ & mask);
        scratch_ >>= bits;
        scratch_bits_ -= bits;
        bits_read_ += static_cast<std::size_t>(bits);
        return true;
    }

    /// Bits read so far.
    [[nodiscard]] std::size_t bits_read() const noexcept { return bits_read_; }
    /// Bits left before the end of the data.
    [[nodiscard]] std::size_t bits_remaining() const noexcept { return total_bits_ - bits_read_; }
    /// True until the first error.
    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    /// The first error, or Errc::ok.
    [[nodiscard]] Errc error() const noexcept { return error_; }

private:
    // Loads the next 32-bit word, or every remaining byte when fewer than 4 are left. Called only when
    // scratch_bits_ < 32 and the requested field is known to lie inside the data, so one call suffices.
    void refill() noexcept {
        const std::size_t left = size_ - next_byte_;
        const std::uint8_t* p = data_ + next_byte_;
        std::size_t count = 4;
        std::uint32_t word = 0;
        if (left >= 4) {
            word = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                   std::uint32_t{p[3]} << 24;
        } else {
            count = left;
            for (std::size_t i = 0; i < count; ++i) word |= std::uint32_t{p[i]} << (8 * i);
        }
        scratch_ |= std::uint64_t{word} << scratch_bits_;
        scratch_bits_ += static_cast<int>(count * 8);
        next_byte_ += count;
    }

    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t total_bits_;
    std::size_t bits_read_ = 0;
    std::size_t next_byte_ = 0;  ///< first byte not yet loaded into scratch_
    std::uint64_t scratch_ = 0;  ///< loaded, unread bits
    int scratch_bits_ = 0;
    Errc error_ = Errc::ok;
};

}  // namespace rwd::wire
