/// ResumeTicket: what a client needs to take its seat back after losing its link, in memory or in a file (a
/// restarted process).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/client_server/messages.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace rwd::client_server {

/// A claim to a seat: its slot and the secret the server gave with it (zero with a token: the account is the
/// proof). `has_messages` with `next_message`: the client still holds what the reliable messages before
/// `next_message` told it, and the server resends from there; false (a restarted process, a ticket read from
/// a file): the stream goes on from the server's next message and Back::resync says so.
struct ResumeTicket {
    std::uint8_t slot = 0;
    ResumeSecret secret{};
    bool has_messages = false;
    std::uint32_t next_message = 0;
    friend bool operator==(const ResumeTicket&, const ResumeTicket&) = default;
};

/// One line of text that holds the ticket's slot and secret (not its message position, which only the live
/// client knows): "rewind-resume 1 <slot> <32 hex digits>\n". It is a credential: keep it private.
[[nodiscard]] std::string ticket_text(const ResumeTicket& t);
/// The ticket a ticket_text() line holds (has_messages false); malformed for anything else.
[[nodiscard]] Result<ResumeTicket> parse_ticket_text(std::string_view text);

}  // namespace rwd::client_server
