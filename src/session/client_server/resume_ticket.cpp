/// ResumeTicket as one line of text (a file a restarted client reads).
#include <rewind/session/client_server/resume_ticket.hpp>

namespace rwd::client_server {
namespace {

constexpr std::string_view kPrefix = "rewind-resume 1 ";

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

}  // namespace

std::string ticket_text(const ResumeTicket& t) {
    std::string out(kPrefix);
    out += std::to_string(t.slot);
    out += ' ';
    static constexpr char kDigits[] = "0123456789abcdef";
    for (std::uint8_t b : t.secret) {
        out += kDigits[b >> 4];
        out += kDigits[b & 15];
    }
    out += '\n';
    return out;
}

Result<ResumeTicket> parse_ticket_text(std::string_view text) {
    const Error bad{Errc::malformed, "not a resume ticket (rewind-resume 1 <slot> <32 hex digits>)"};
    if (text.substr(0, kPrefix.size()) != kPrefix) return bad;
    text.remove_prefix(kPrefix.size());
    ResumeTicket t;
    unsigned slot = 0;
    std::size_t i = 0;
    while (i < text.size() && i < 4 && text[i] >= '0' && text[i] <= '9')
        slot = slot * 10 + unsigned(text[i++] - '0');
    if (i == 0 || i > 3 || slot > 255 || i >= text.size() || text[i] != ' ') return bad;
    t.slot = static_cast<std::uint8_t>(slot);
    text.remove_prefix(i + 1);
    if (text.size() < 2 * t.secret.size()) return bad;
    for (std::size_t k = 0; k < t.secret.size(); ++k) {
        const int hi = hex_value(text[2 * k]);
        const int lo = hex_value(text[2 * k + 1]);
        if (hi < 0 || lo < 0) return bad;
        t.secret[k] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    text.remove_prefix(2 * t.secret.size());
    if (!(text.empty() || text == "\n" || text == "\r\n")) return bad;
    return t;
}

}  // namespace rwd::client_server
