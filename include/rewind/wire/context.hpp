/// wire::set_context(): picks the range coder's model group for the fields that follow; a no-op elsewhere.
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

}  // namespace rwd::wire
