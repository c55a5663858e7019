/// init_sodium(): makes sure libsodium is initialised before a key or token operation (private to auth/).
#pragma once

namespace rwd::auth::detail {

/// Calls sodium_init() (idempotent and thread-safe inside libsodium); false if libsodium cannot start.
[[nodiscard]] bool init_sodium();

}  // namespace rwd::auth::detail
