// What Emscripten 3.1.6's libc++ 13 lacks of C++20 and rewind uses: std::bit_cast and std::ranges::all_of.
// Force-included into every source of the web build; each piece is a no-op where the library has it.
#pragma once

#include <algorithm>
#include <bit>
#include <type_traits>
#include <version>

#if !defined(__cpp_lib_bit_cast)
namespace std {
/// The bytes of `from` as a `To` of the same size (clang's builtin, what libc++ 14 wraps).
template <class To, class From>
requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>)
    [[nodiscard]] constexpr To bit_cast(const From& from) noexcept {
    return __builtin_bit_cast(To, from);
}
}  // namespace std
#endif

#if !defined(__cpp_lib_ranges)
namespace std::ranges {
/// ranges::all_of over a whole range (the one form rewind uses).
struct rwd_compat_all_of {
    template <class Range, class Pred>
    [[nodiscard]] constexpr bool operator()(Range&& range, Pred pred) const {
        for (auto&& e : range)
            if (!pred(e)) return false;
        return true;
    }
};
inline constexpr rwd_compat_all_of all_of{};
}  // namespace std::ranges
#endif
