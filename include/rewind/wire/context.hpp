/// wire::set_context(): picks the range coder's model group for the fields that follow; a no-op elsewhere.
#pragma once

#include <cstdint>

namespace rwd::wire {

/// Selects model group `group` for the fields that follow and restarts the field ordinal at 0, on streams
/// that model fields by context (the Range*Stream family, which have a member set_context()). On every other
/// stream (WriteStream, ReadStream, MeasureStream) it does nothing and changes no bit, so any serializer may
/// call it unconditionally. Writer and reader must make the same calls in the same order.
template <class Stream>
void set_context(Stream& s, std::uint32_t group) noexcept {
    if constexpr (requires { s.set_context(group); }) {
        s.set_context(group);
    } else {
        (void)s;
        (void)group;
    }
}

}  // namespace rwd::wire
