/// EncodedInput: one player's input for one tick as the bits the game's serialize() writes: what the
/// client-server cores store, queue and send without knowing the game's Input type (internal).
#pragma once

#include <rewind/wire/stream.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace rwd::client_server {

/// The bits of one input. `bits == 0` means "no input": the game's neutral Input{}.
struct EncodedInput {
    static constexpr std::size_t kMaxBytes = 32;  ///< the largest input a game may have (256 bits)
    std::array<std::uint8_t, kMaxBytes> bytes{};  ///< the bits, as a WriteStream wrote them (zero padded)
    std::uint16_t bits = 0;                       ///< how many of them are the input
    friend bool operator==(const EncodedInput&, const EncodedInput&) = default;
};

/// Appends the bits of `in` to `s` (false with the stream's error when they do not fit).
bool write_encoded_input(wire::WriteStream& s, const EncodedInput& in);
/// Appends the bits of `in` to a measuring stream.
bool write_encoded_input(wire::MeasureStream& s, const EncodedInput& in);

/// Encodes `in` with the game's serialize() (ADL); false if it fails or needs more than kMaxBytes.
template <class Input>
bool encode_input(const Input& in, EncodedInput& out) {
    out = EncodedInput{};
    Input copy = in;  // serialize() takes a mutable reference for every stream
    wire::WriteStream s(std::span<std::uint8_t>(out.bytes.data(), out.bytes.size()));
    if (!serialize(s, copy) || !s.ok()) return false;
    s.flush();
    out.bits = static_cast<std::uint16_t>(s.bits_used());
    return true;
}

/// Decodes `in` into `out` (Input{} when it holds no input); false when the bits do not hold exactly one
/// valid input.
template <class Input>
bool decode_input(const EncodedInput& in, Input& out) {
    if (in.bits == 0) {
        out = Input{};
        return true;
    }
    if (in.bits > EncodedInput::kMaxBytes * 8) return false;
    wire::ReadStream s(std::span<const std::uint8_t>(in.bytes.data(), (in.bits + 7u) / 8u));
    Input v{};
    if (!serialize(s, v) || !s.ok() || s.bits_used() != in.bits) return false;
    out = v;
    return true;
}

}  // namespace rwd::client_server
