/// ResumeTicket as one line of text (a file a restarted client reads).
#include <rewind/session/client_server/resume_ticket.hpp>

#include <rewind/session/auth/keys.hpp>

#include <algorithm>

namespace rwd::client_server {
namespace {

constexpr std::string_view kPrefix = "rewind-resume 1 ";

}  // namespace

std::string ticket_text(const ResumeTicket& t) {
    std::string out(kPrefix);
    out += std::to_string(t.slot);
    out += ' ';
    out += auth::to_hex(t.secret);
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
    // The secret and nothing after it but a line end (from_hex takes the surrounding whitespace off).
    auto secret = auth::from_hex(text, t.secret.size());
    if (text.empty() || text.front() == ' ' || !secret.ok() || secret->size() != t.secret.size()) return bad;
    std::copy(secret->begin(), secret->end(), t.secret.begin());
    return t;
}

}  // namespace rwd::client_server
