// PageConfig: what the page's script resolved before the module started (window.rewindConfig): the server's
// URL from ?server= or /web-config.json, the scripted-input mode, credentials.
#pragma once

#include <rewind/transport/transport.hpp>

#include <cstdint>
#include <string>

namespace web {

/// The page's settings for this tab.
struct PageConfig {
    std::string server_url;   ///< ws://HOST:PORT/rewind (or wss://); empty when none could be found
    std::string problem;      ///< why there is no server URL, to show instead of connecting
    double autoplay_s = 0.0;  ///< > 0: play by script this long, then leave (?autoplay=SECONDS)
    std::uint64_t seed = 1;   ///< the script's seed (?seed=N)
    std::string token_hex;    ///< connect credentials as rewind-token prints them (?token=HEX)
    bool overlay = true;      ///< the netcode overlay shows (?overlay=0 hides it; F1 toggles)
    bool ghosts = false;      ///< server positions drawn as outlines (?ghosts=1; F2 toggles)
};

/// Reads window.rewindConfig (rewind.js fills it); missing fields keep their defaults.
[[nodiscard]] PageConfig read_page_config();

/// The host and port of a ws:// URL, for the session's Address (the transport opens the whole URL); false
/// when the URL has no host.
[[nodiscard]] bool address_of(const std::string& url, rwd::transport::Address& out);

}  // namespace web
