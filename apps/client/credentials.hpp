// load_credentials: the connect token and keys a --token value names (hex, or @FILE holding hex).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/auth/connect_token.hpp>

#include <string>

namespace apps {

/// The credentials of a --token value: hex, or @FILE holding hex (re-read whenever it is called).
[[nodiscard]] rwd::Result<rwd::auth::ClientCredentials> load_credentials(const std::string& spec);

}  // namespace apps
