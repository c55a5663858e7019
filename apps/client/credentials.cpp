// Client credentials from a --token value (hex, or @FILE holding hex).
#include "client/credentials.hpp"

#include <fstream>
#include <sstream>

namespace apps {

rwd::Result<rwd::auth::ClientCredentials> load_credentials(const std::string& spec) {
    std::string hex = spec;
    if (!hex.empty() && hex.front() == '@') {
        std::ifstream f(hex.substr(1));
        if (!f) return rwd::Error{rwd::Errc::io_error, "cannot read " + hex.substr(1)};
        std::stringstream text;
        text << f.rdbuf();
        hex = text.str();
    }
    auto bytes = rwd::auth::from_hex(hex, 4 + rwd::auth::kSessionKeysBytes + rwd::auth::kMaxTokenBytes);
    if (!bytes.ok()) return bytes.error();
    return rwd::auth::decode_credentials(bytes.value());
}

}  // namespace apps
