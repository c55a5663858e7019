/// The three streams behind one serialize(): WriteStream, ReadStream and MeasureStream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <rewind/core/result.hpp>
#include <rewind/wire/bit_reader.hpp>
#include <rewind/wire/bit_writer.hpp>
#include <rewind/wire/detail/always_inline.hpp>

namespace rwd::wire {

namespace detail {
/// True if `value` fits in `bits` bits (bits already known to be 0..32).
constexpr bool fits_in_bits(std::uint32_t value, int bits) noexcept {
    return bits >= 32 || (std::uint64_t{value} >> bits) == 0;
}
}  // namespace detail

/// Writes fields into a caller-provided buffer. Errors are sticky: after the first, every call
/// returns false and changes nothing.
class WriteStream {
public:
    static constexpr bool is_writing = true;     ///< serializers encode values
    static constexpr bool is_reading = false;    ///< serializers do not decode
    static constexpr bool is_measuring = false;  ///< the bits are really stored

    /// A stream that writes into `buffer`.
    explicit WriteStream(std::span<std::uint8_t> buffer) noexcept : writer_(buffer) {}

    /// Writes `value` in `bits` bits (0..32). A value with bits set above `bits` is a programmer error
    /// and fails with Errc::value_out_of_range; a full buffer fails with Errc::out_of_space.
    RWD_ALWAYS_INLINE bool serialize_bits(std::uint32_t& value, int bits) noexcept {
        if (error_ != Errc::ok) return false;
        if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
        if (!detail::fits_in_bits(value, bits)) return fail(Errc::value_out_of_range), false;
        if (!writer_.put_bits(value, bits)) return fail(Errc::out_of_space), false;
        return true;
    }

    /// True until the first error.
    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    /// The first error, or Errc::ok.
    [[nodiscard]] Errc error() const noexcept { return error_; }
    /// Records an error (the first one wins); lets a serializer reject a value.
    void fail(Errc e) noexcept {
        if (error_ == Errc::ok && e != Errc::ok) error_ = e;
    }
    /// Bits written so far.
    [[nodiscard]] std::size_t bits_used() const noexcept { return writer_.bits_written(); }
    /// Bytes written so far, rounded up.
    [[nodiscard]] std::size_t bytes_used() const noexcept { return writer_.bytes_written(); }
    /// Bits that still fit in the buffer.
    [[nodiscard]] std::size_t bits_remaining() const noexcept { return writer_.bits_available(); }
    /// Stores the last partial word; call before sending data().
    void flush() noexcept { writer_.flush(); }
    /// The bytes written so far (complete after flush()).
    [[nodiscard]] std::span<const std::uint8_t> data() const noexcept {
        return {writer_.data(), writer_.bytes_written()};
    }

private:
    BitWriter writer_;
    Errc error_ = Errc::ok;
};

/// Reads fields from untrusted bytes. Errors are sticky: after the first, every call returns false
/// and leaves its output unchanged.
class ReadStream {
public:
    static constexpr bool is_writing = false;    ///< serializers do not encode
    static constexpr bool is_reading = true;     ///< serializers decode into their arguments
    static constexpr bool is_measuring = false;  ///< not a measuring pass

    /// A stream that reads `data`.
    explicit ReadStream(std::span<const std::uint8_t> data) noexcept : reader_(data) {}

    /// Reads `bits` bits (0..32) into `value`; Errc::end_of_data past the end.
    RWD_ALWAYS_INLINE bool serialize_bits(std::uint32_t& value, int bits) noexcept {
        if (error_ != Errc::ok) return false;
        if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
        std::uint32_t v = 0;
        if (!reader_.read_bits(bits, v)) return fail(reader_.error()), false;
        value = v;
        return true;
    }

    /// True until the first error.
    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    /// The first error, or Errc::ok.
    [[nodiscard]] Errc error() const noexcept { return error_; }
    /// Records an error (the first one wins); lets a serializer reject a decoded value.
    void fail(Errc e) noexcept {
        if (error_ == Errc::ok && e != Errc::ok) error_ = e;
    }
    /// Bits read so far.
    [[nodiscard]] std::size_t bits_used() const noexcept { return reader_.bits_read(); }
    /// Bytes touched so far, rounded up.
    [[nodiscard]] std::size_t bytes_used() const noexcept { return (reader_.bits_read() + 7) / 8; }
    /// Bits left in the data: the upper bound for any attacker-supplied length.
    [[nodiscard]] std::size_t bits_remaining() const noexcept { return reader_.bits_remaining(); }

private:
    BitReader reader_;
    Errc error_ = Errc::ok;
};

/// Counts the bits a WriteStream would write, validating values exactly as WriteStream does, so
/// measure and write always agree.
class MeasureStream {
public:
    static constexpr bool is_writing = false;   ///< nothing is stored
    static constexpr bool is_reading = false;   ///< serializers encode (read their arguments)
    static constexpr bool is_measuring = true;  ///< only the size is computed

    /// A stream with unlimited room.
    MeasureStream() noexcept = default;

    /// Counts `bits` bits (0..32); rejects values as WriteStream would.
    RWD_ALWAYS_INLINE bool serialize_bits(std::uint32_t& value, int bits) noexcept {
        if (error_ != Errc::ok) return false;
        if (bits < 0 || bits > 32) return fail(Errc::invalid_argument), false;
        if (!detail::fits_in_bits(value, bits)) return fail(Errc::value_out_of_range), false;
        bits_ += static_cast<std::size_t>(bits);
        return true;
    }

    /// True until the first error.
    [[nodiscard]] bool ok() const noexcept { return error_ == Errc::ok; }
    /// The first error, or Errc::ok.
    [[nodiscard]] Errc error() const noexcept { return error_; }
    /// Records an error (the first one wins).
    void fail(Errc e) noexcept {
        if (error_ == Errc::ok && e != Errc::ok) error_ = e;
    }
    /// Bits counted so far.
    [[nodiscard]] std::size_t bits_used() const noexcept { return bits_; }
    /// Bytes counted so far, rounded up.
    [[nodiscard]] std::size_t bytes_used() const noexcept { return (bits_ + 7) / 8; }
    /// Unlimited: a measuring pass never runs out of room.
    [[nodiscard]] std::size_t bits_remaining() const noexcept { return kUnlimitedBits; }

private:
    static constexpr std::size_t kUnlimitedBits = static_cast<std::size_t>(-1) / 2;
    std::size_t bits_ = 0;
    Errc error_ = Errc::ok;
};

}  // namespace rwd::wire
