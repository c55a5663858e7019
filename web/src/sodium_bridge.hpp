// The page's libsodium: whether its JS/wasm build (libsodium-wrappers) loaded, so a token can be used.
#pragma once

namespace web {

/// libsodium's JS build is loaded and ready: sealed sessions (connect tokens) work in this tab.
[[nodiscard]] bool sodium_loaded();

}  // namespace web
