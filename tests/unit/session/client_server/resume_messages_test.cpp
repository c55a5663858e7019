/// The resume fields of connect_request and connect_accept (round trips, golden bytes, truncations) and the
/// resume ticket's text form.
#include "message_test_util.hpp"

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/resume_ticket.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

namespace cs = rwd::client_server;

using msgtest::encode;
using msgtest::expect_every_truncation_fails;

}  // namespace

TEST(ResumeMessages, ResumeFieldsRoundTrip) {
    cs::ConnectRequest req{cs::kProtocolId, cs::kProtocolVersion, 0xABCDu, {}};
    req.resume = true;
    req.resume_slot = 7;
    for (std::size_t i = 0; i < req.resume_secret.size(); ++i) req.resume_secret[i] = std::uint8_t(0xF0 + i);
    req.resume_has_messages = true;
    req.resume_next_message = 123456;
    auto bytes = encode(req);
    cs::ConnectRequest got{};
    ASSERT_TRUE(cs::decode_message(bytes, got).ok());
    EXPECT_TRUE(got.resume);
    EXPECT_EQ(got.resume_slot, 7);
    EXPECT_EQ(got.resume_secret, req.resume_secret);
    EXPECT_TRUE(got.resume_has_messages);
    EXPECT_EQ(got.resume_next_message, 123456u);
    expect_every_truncation_fails<cs::ConnectRequest>(bytes);

    // Golden: the accept above with a 30 s grace and the secret 00 01 .. 0F, then the same seat given back
    // with its stream going on at message 7, coded against tick 590.
    cs::ConnectAccept acc{3, rwd::Tick{600}, 60, 30, 2};
    acc.seat_grace_s = 30;
    for (std::size_t i = 0; i < acc.resume_secret.size(); ++i) acc.resume_secret[i] = std::uint8_t(i);
    EXPECT_EQ(encode(acc), (std::vector<std::uint8_t>{0x1A, 0xC0, 0x12, 0x00, 0x00, 0xD8, 0xA1, 0x43, 0xF0,
                                                      0x00, 0x00, 0x08, 0x10, 0x18, 0x20, 0x28, 0x30, 0x38,
                                                      0x40, 0x48, 0x50, 0x58, 0x60, 0x68, 0x70, 0x78, 0x00}));
    acc.resumed = true;
    acc.next_message = 7;
    acc.message_tick = rwd::Tick{590};
    acc.client_messages_taken = 41;
    const auto abytes = encode(acc);
    cs::ConnectAccept agot{};
    ASSERT_TRUE(cs::decode_message(abytes, agot).ok());
    EXPECT_EQ(agot.seat_grace_s, 30);
    EXPECT_EQ(agot.resume_secret, acc.resume_secret);
    EXPECT_TRUE(agot.resumed);
    EXPECT_EQ(agot.next_message, 7u);
    EXPECT_EQ(agot.message_tick, rwd::Tick{590});
    EXPECT_EQ(agot.client_messages_taken, 41u);
    expect_every_truncation_fails<cs::ConnectAccept>(abytes);
}

TEST(ResumeMessages, ResumeTicketTextRoundTripsAndRefusesAnythingElse) {
    cs::ResumeTicket t;
    t.slot = 12;
    for (std::size_t i = 0; i < t.secret.size(); ++i) t.secret[i] = std::uint8_t(17 * i + 3);
    const std::string text = cs::ticket_text(t);
    EXPECT_EQ(text.substr(0, 19), "rewind-resume 1 12 ");
    const auto back = cs::parse_ticket_text(text);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back.value(), t);  // has_messages false: a file knows no message position
    const std::string hex = text.substr(19);
    const std::vector<std::string> bad{"",
                                       "rewind-resume 1 ",
                                       "rewind-resume 2 12 " + hex,
                                       "rewind-resume 1 256 " + hex,
                                       "rewind-resume 1 12 " + hex.substr(0, 31),
                                       text.substr(0, text.size() - 2) + "g\n",
                                       text + "x"};
    for (const std::string& b : bad) EXPECT_FALSE(cs::parse_ticket_text(b).ok()) << b;
}
