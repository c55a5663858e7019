// PageConfig: window.rewindConfig's fields read one by one through EM_JS; the URL's host and port by hand.
#include "page_config.hpp"

#include <emscripten/emscripten.h>

#include <array>
#include <charconv>

namespace web {

namespace {

// A string field, at most `size` - 1 bytes of UTF-8; "" when absent.
// clang-format off
EM_JS(void, rwd_config_string, (const char* name, char* out, int size), {
    const c = globalThis.rewindConfig || {};
    const v = c[UTF8ToString(name)];
    stringToUTF8(v == null ? "" : String(v), out, size);
});
// clang-format on

// A number field; `fallback` when absent or not a finite number.
// clang-format off
EM_JS(double, rwd_config_number, (const char* name, double fallback), {
    const c = globalThis.rewindConfig || {};
    const v = Number(c[UTF8ToString(name)]);
    return c[UTF8ToString(name)] == null || !isFinite(v) ? fallback : v;
});
// clang-format on

std::string field(const char* name) {
    std::array<char, 4096> buf{};
    rwd_config_string(name, buf.data(), static_cast<int>(buf.size()));
    return std::string(buf.data());
}

}  // namespace

PageConfig read_page_config() {
    PageConfig c;
    c.server_url = field("server");
    c.problem = field("problem");
    c.autoplay_s = rwd_config_number("autoplay", 0.0);
    const double seed = rwd_config_number("seed", 1.0);
    c.seed = seed >= 0.0 && seed < 1e15 ? static_cast<std::uint64_t>(seed) : 1;
    c.token_hex = field("token");
    c.overlay = rwd_config_number("overlay", 1.0) != 0.0;
    c.ghosts = rwd_config_number("ghosts", 0.0) != 0.0;
    return c;
}

bool address_of(const std::string& url, rwd::transport::Address& out) {
    const std::size_t scheme = url.find("://");
    if (scheme == std::string::npos) return false;
    const bool secure = url.compare(0, scheme, "wss") == 0;
    std::size_t start = scheme + 3;
    const std::size_t end = url.find_first_of("/?", start);
    std::string authority = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::string host = authority;
    std::uint16_t port = secure ? 443 : 80;
    std::string port_text;
    if (!authority.empty() && authority.front() == '[') {  // [IPv6]:port
        const std::size_t close = authority.find(']');
        if (close == std::string::npos) return false;
        host = authority.substr(1, close - 1);
        if (close + 1 < authority.size() && authority[close + 1] == ':')
            port_text = authority.substr(close + 2);
    } else if (const std::size_t colon = authority.rfind(':'); colon != std::string::npos) {
        host = authority.substr(0, colon);
        port_text = authority.substr(colon + 1);
    }
    if (!port_text.empty()) {
        unsigned value = 0;
        const auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
        if (ec != std::errc{} || p != port_text.data() + port_text.size() || value == 0 || value > 65535)
            return false;
        port = static_cast<std::uint16_t>(value);
    }
    if (host.empty()) return false;
    out.host = host;
    out.port = port;
    return true;
}

}  // namespace web
