/// Hints for the range coder: wire::set_context() picks the model group of the fields that follow,
/// wire::serialize_uniform_bits() codes bits known to be random without a model; elsewhere plain fields.
#pragma once

#include <cstdint>

namespace rwd::wire {

/// Selects model group `group` for the fields that follow and restarts the field ordinal at `ordinal` (0 by
/// default), on streams that model fields by context (the Range*Stream family, which have a member
/// set_context()): the field after it uses model slot (group, ordinal), the next one ordinal + 1. On every
/// other stream (WriteStream, ReadStream, MeasureStream) it does nothing and changes no bit, so any
/// serializer may call it unconditionally. Writer and reader must make the same calls in the same order.
template <class Stream>
void set_context(Stream& s, std::uint32_t group, std::uint32_t ordinal = 0) noexcept {
    if constexpr (requires { s.set_context(group, ordinal); }) {
        s.set_context(group, ordinal);
    } else {
        (void)s;
        (void)group;
        (void)ordinal;
    }
}

/// `value` in `bits` bits (0..32), for bits that are close to uniformly random (the low bits of a large
/// residual, a generator's state). Bits that are only usually random (an absolute position's low bits, which
/// a wall or a spawn point makes exact) code smaller through the models. On a range stream (a member
/// serialize_uniform_bits()) they are coded at probability 1/2 each, up to 16 in one coder step and without a
/// model slot: a model would gain nothing on them and costs a coder step per bit. On every other stream
/// exactly s.serialize_bits(value, bits). Writer and reader must make the same calls in the same order.
template <class Stream>
bool serialize_uniform_bits(Stream& s, std::uint32_t& value, int bits) noexcept {
    if constexpr (requires { s.serialize_uniform_bits(value, bits); }) {
        return s.serialize_uniform_bits(value, bits);
    } else {
        return s.serialize_bits(value, bits);
    }
}

}  // namespace rwd::wire
