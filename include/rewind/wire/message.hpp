/// Whole-message helpers: write, read (with trailing-padding check) and measure any type that has an
/// ADL-visible `template <class Stream> bool serialize(Stream&, T&)`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <rewind/core/result.hpp>
#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream.hpp>

namespace rwd::wire {

/// The verdict on a message read from `s` whose serialize() returned `ok`: the stream's error, a rejection,
/// or Errc::malformed when anything but zero padding to the next byte boundary follows it.
[[nodiscard]] inline Status finish_read(ReadStream& s, bool ok) {
    if (!s.ok()) return Error{s.error(), "message does not parse"};
    if (!ok) return Error{Errc::malformed, "serialize() rejected the message"};
    if (s.bits_remaining() >= 8) return Error{Errc::malformed, "trailing bytes after the message"};
    if (!serialize_align(s)) return Error{Errc::malformed, "non-zero padding after the message"};
    return {};
}

/// Serializes `msg` into `out`; returns the bytes used (the last byte zero-padded).
template <class T>
[[nodiscard]] Result<std::size_t> write_message(std::span<std::uint8_t> out, T& msg) {
    WriteStream s(out);
    const bool ok = serialize(s, msg);  // found by ADL
    if (!s.ok()) return Error{s.error(), "message does not serialize"};
    if (!ok) return Error{Errc::invalid_argument, "serialize() returned false without an error"};
    s.flush();
    return s.bytes_used();
}

/// Deserializes `msg` from `in`. Fails if any field fails, or if anything but zero padding to the next
/// byte boundary follows the message (Errc::malformed): one message, one exact byte string.
template <class T>
[[nodiscard]] Status read_message(std::span<const std::uint8_t> in, T& msg) {
    ReadStream s(in);
    const bool ok = serialize(s, msg);  // found by ADL
    return finish_read(s, ok);
}

/// The exact number of bits write_message would write for `msg` (if a field is invalid, the bits
/// counted up to it; write_message would then fail).
template <class T>
[[nodiscard]] std::size_t measure_bits(T& msg) {
    MeasureStream s;
    (void)serialize(s, msg);  // found by ADL
    return s.bits_used();
}

}  // namespace rwd::wire
