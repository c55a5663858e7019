/// RWD_ALWAYS_INLINE: marks the per-field hot path of the wire layer (stream calls, bit packing, the
/// serialize helpers) for inlining whatever the compiler's size heuristics say, so a field costs no call.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define RWD_ALWAYS_INLINE [[gnu::always_inline]] inline
#else
#define RWD_ALWAYS_INLINE inline
#endif
