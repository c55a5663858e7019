/// Reconnecting to a seat: a client whose link is lost keeps its seat for the server's grace and comes back
/// to it with its state and the reliable messages it missed (or a resync); a stranger never takes a seat;
/// past the grace the client is seated anew; a restarted client comes back with a saved ticket.
#include "toy_harness.hpp"

#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/resume_ticket.hpp>
#include <rewind/session/client_server/server.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using namespace toy;
namespace tr = rwd::transport;

/// A link that carries nothing (the Wi-Fi went).
tr::LinkConfig cut() {
    tr::LinkConfig l = link(30, 4);
    l.loss = 1.0;
    return l;
}

/// The reliable messages one client polled, checked to come numbered without gaps.
struct Stream {
    std::vector<std::string> chats;
    std::uint32_t next = 0;
    std::uint32_t gaps = 0;
    std::uint32_t aways = 0, backs = 0, resyncs = 0;
};

void drain(cs::Client<ToyGame>& c, Stream& s) {
    cs::Message m;
    while (c.poll_message(m)) {
        if (!m.reliable) continue;
        if (m.sequence != s.next) ++s.gaps;
        s.next = m.sequence + 1;
        cs::Chat chat;
        cs::Away away;
        cs::Back back;
        if (c.read(m, chat)) s.chats.push_back(chat.text);
        if (c.read(m, away)) ++s.aways;
        if (c.read(m, back)) {
            ++s.backs;
            if (back.slot == c.slot() && back.resync) ++s.resyncs;
        }
    }
}

TEST(Reconnect, ALostLinkComesBackToItsSeatWithItsStateAndEveryMessageItMissed) {
    const std::uint64_t seed = 901;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(30, 4, 0.01));
    const int a = m.connect_client();
    const int b = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    std::vector<Stream> got(2);
    const auto poll = [&] {
        drain(m.client(a), got[0]);
        drain(m.client(b), got[1]);
    };
    m.client(a).set_input(move(100, 0));
    m.run(Micros{1'000'000}, poll);
    m.client(a).set_input(move(0, 0));
    m.run(Micros{300'000}, poll);
    const int slot = m.client(a).slot();
    const std::int32_t x = m.server->state().players[static_cast<std::size_t>(slot)].x;
    ASSERT_NE(x, 0);

    // The link goes for 8 s (past the transport's 5 s timeout); b chats all along. a's last line goes out
    // just as its link goes: lost with the connection, resent on its comeback.
    m.set_link(a, cut());
    ASSERT_TRUE(m.client(a).send_chat("last words").ok());
    int said = 0;
    int frame = 0;
    m.run(Micros{8'000'000}, [&] {
        if (++frame % 250 == 0) {
            EXPECT_TRUE(m.client(b).send_chat("line " + std::to_string(said++)).ok());
        }
        poll();
    });
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::reconnecting);
    EXPECT_TRUE(m.server->away(slot));
    EXPECT_FALSE(m.server->seated(slot));
    // Its player stays where it was, standing still.
    EXPECT_EQ(m.server->state().players[static_cast<std::size_t>(slot)].present, 1);
    EXPECT_EQ(m.server->state().players[static_cast<std::size_t>(slot)].x, x);

    m.set_link(a, link(30, 4, 0.01));
    ASSERT_TRUE(m.run_until_playing(Micros{10'000'000}));
    m.run(Micros{2'000'000}, poll);
    EXPECT_EQ(m.client(a).slot(), slot);
    EXPECT_EQ(m.client(a).stats().reconnects, 1u);
    EXPECT_EQ(m.client(a).stats().resumes, 1u);
    EXPECT_EQ(m.client(a).stats().seats_lost, 0u);
    EXPECT_EQ(m.server->stats().resumes, 1u);
    EXPECT_EQ(m.server->stats().seats_held, 1u);
    EXPECT_EQ(m.server->seated_count(), 2);
    EXPECT_GT(m.server->stats().messages_resent, 0u);
    EXPECT_EQ(m.server->client_stats(slot).resumes, 1u);
    // Every chat line, in order, exactly once, on both clients; nothing lost in the gap, either way.
    ASSERT_GT(said, 20);
    EXPECT_EQ(m.client(a).stats().messages_resent, 1u);
    EXPECT_EQ(m.client(a).stats().messages_unsent, 0u);
    for (Stream& s : got) {
        EXPECT_EQ(s.gaps, 0u);
        EXPECT_EQ(std::count(s.chats.begin(), s.chats.end(), "last words"), 1);
        std::erase(s.chats, std::string("last words"));
        ASSERT_EQ(s.chats.size(), static_cast<std::size_t>(said));
        for (int i = 0; i < said; ++i)
            EXPECT_EQ(s.chats[static_cast<std::size_t>(i)], "line " + std::to_string(i));
    }
    EXPECT_EQ(got[0].resyncs, 0u);
    EXPECT_EQ(m.client(a).stats().resume_resyncs, 0u);
    EXPECT_EQ(m.client(a).stats().events_out_of_order, 0u);
    // The other client was told it went and came back.
    EXPECT_EQ(got[1].aways, 1u);
    EXPECT_EQ(got[1].backs, 1u);
    // It plays on from where it stood.
    m.client(a).set_input(move(0, 100));
    m.run(Micros{1'000'000}, poll);
    EXPECT_EQ(m.server->state().players[static_cast<std::size_t>(slot)].x, x);
    EXPECT_GT(m.server->state().players[static_cast<std::size_t>(slot)].y, 0);
    const auto own = m.client(a).own_entity();
    ASSERT_TRUE(own.has_value());
    EXPECT_EQ(own->x, x);
}

TEST(Reconnect, AStrangerWithTheWrongSecretGetsASeatOfItsOwnNeverTheHeldOne) {
    const std::uint64_t seed = 902;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(20));
    const int a = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    const auto ticket = m.client(a).resume_ticket();
    ASSERT_TRUE(ticket.has_value());
    const int slot = m.client(a).slot();
    // The owner's link goes; its seat is held.
    m.set_link(a, cut());
    m.run(Micros{6'500'000});
    ASSERT_TRUE(m.server->away(slot));
    // Someone claims the seat with a guessed secret (the slot is public).
    cs::ResumeTicket forged = *ticket;
    forged.secret[0] ^= 1;
    const int s = m.add_client();
    ASSERT_TRUE(m.client(s).connect(m.server_addr, m.now, forged).ok());
    m.run(Micros{3'000'000});
    EXPECT_EQ(m.client(s).phase(), cs::ClientPhase::playing);
    EXPECT_NE(m.client(s).slot(), slot);
    EXPECT_EQ(m.server->stats().resumes_refused, 1u);
    EXPECT_EQ(m.server->stats().resumes, 0u);
    EXPECT_TRUE(m.server->away(slot));
    // The owner still comes back to it.
    m.set_link(a, link(20));
    m.run(Micros{8'000'000});
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::playing);
    EXPECT_EQ(m.client(a).slot(), slot);
    EXPECT_EQ(m.server->stats().resumes, 1u);
}

TEST(Reconnect, PastTheGraceTheSeatIsFreedAndTheClientIsSeatedAnew) {
    const std::uint64_t seed = 903;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    cs::ServerConfig sc;
    sc.seat_grace = Micros{3'000'000};
    Match<> m(seed, link(20), sc);
    const int a = m.connect_client();
    const int b = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.client(a).set_input(move(100, 0));
    m.run(Micros{1'000'000});
    const int slot = m.client(a).slot();
    m.set_link(a, cut());
    m.run(Micros{12'000'000});  // timeout 5 s + grace 3 s, and more
    EXPECT_FALSE(m.server->away(slot));
    EXPECT_EQ(m.server->state().players[static_cast<std::size_t>(slot)].present, 0);
    EXPECT_EQ(m.server->stats().seats_expired, 1u);
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::reconnecting);
    m.set_link(a, link(20));
    ASSERT_TRUE(m.run_until_playing(Micros{10'000'000}));
    EXPECT_EQ(m.client(a).stats().seats_lost, 1u);
    EXPECT_EQ(m.client(a).stats().resumes, 0u);
    EXPECT_EQ(m.server->stats().resumes, 0u);
    EXPECT_EQ(m.server->seated_count(), 2);
    EXPECT_EQ(m.client(b).phase(), cs::ClientPhase::playing);
    // A new player: it starts where players start, not where the old one stood.
    const auto& p = m.server->state().players[static_cast<std::size_t>(m.client(a).slot())];
    EXPECT_EQ(p.present, 1);
    EXPECT_EQ(p.hits_scored, 0);
}

TEST(Reconnect, ARestartedClientWithItsSavedTicketGetsItsSeatBackAndIsToldToResync) {
    const std::uint64_t seed = 904;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(25, 3));
    const int a = m.connect_client();
    const int b = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.client(a).set_input(move(-100, 0));
    m.run(Micros{1'000'000});
    const int slot = m.client(a).slot();
    const std::string saved = cs::ticket_text(*m.client(a).resume_ticket());
    // The process dies without a word: its endpoint vanishes.
    m.net->close_endpoint(m.client_addrs[static_cast<std::size_t>(a)]);
    m.clients[static_cast<std::size_t>(a)].reset();
    m.run(Micros{1'500'000});  // restarted before the server even noticed
    EXPECT_TRUE(m.server->seated(slot));
    const auto ticket = cs::parse_ticket_text(saved);
    ASSERT_TRUE(ticket.ok());
    const int again = m.add_client();
    ASSERT_TRUE(m.client(again).connect(m.server_addr, m.now, ticket.value()).ok());
    ASSERT_TRUE(m.run_until_playing());
    Stream s;
    m.run(Micros{500'000}, [&] { drain(m.client(again), s); });
    EXPECT_EQ(m.client(again).slot(), slot);
    EXPECT_EQ(m.client(again).stats().resumes, 1u);
    EXPECT_EQ(s.resyncs, 1u);  // it remembered no message: told so
    EXPECT_EQ(s.gaps, 1u);     // the stream went on from the server's next message, not from 0
    EXPECT_EQ(m.client(again).stats().resume_resyncs, 1u);
    EXPECT_EQ(m.server->stats().resumes, 1u);
    EXPECT_EQ(m.server->stats().resume_resyncs, 1u);
    EXPECT_EQ(m.server->seated_count(), 2);
    EXPECT_EQ(m.client(b).phase(), cs::ClientPhase::playing);
    EXPECT_LT(m.server->state().players[static_cast<std::size_t>(slot)].x, 0);  // where it had walked to
}

TEST(Reconnect, MissedMessagesBeyondTheLogMakeAResyncNeverASilentGap) {
    const std::uint64_t seed = 905;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    cs::ServerConfig sc;
    sc.resume_log_messages = 4;
    Match<> m(seed, link(20), sc);
    const int a = m.connect_client();
    const int b = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    Stream sa, sb;
    m.set_link(a, cut());
    int frame = 0;
    m.run(Micros{7'000'000}, [&] {
        if (++frame % 400 == 0) {
            EXPECT_TRUE(m.client(b).send_chat("x").ok());
        }
        drain(m.client(b), sb);
    });
    m.set_link(a, link(20));
    ASSERT_TRUE(m.run_until_playing(Micros{10'000'000}));
    m.run(Micros{500'000}, [&] { drain(m.client(a), sa); });
    EXPECT_EQ(m.client(a).stats().resumes, 1u);
    EXPECT_EQ(sa.resyncs, 1u);
    EXPECT_EQ(m.client(a).stats().resume_resyncs, 1u);
    EXPECT_EQ(m.server->stats().resume_resyncs, 1u);
    EXPECT_EQ(m.server->stats().messages_resent, 0u);
}

TEST(Reconnect, WithoutAGraceALostLinkEndsTheSession) {
    const std::uint64_t seed = 906;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    cs::ServerConfig sc;
    sc.seat_grace = Micros{0};
    Match<> m(seed, link(20), sc);
    const int a = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    EXPECT_FALSE(m.client(a).resume_ticket().has_value());
    const int slot = m.client(a).slot();
    m.set_link(a, cut());
    m.run(Micros{7'000'000});
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(m.server->state().players[static_cast<std::size_t>(slot)].present, 0);
    EXPECT_EQ(m.server->stats().seats_held, 0u);
}

TEST(Reconnect, TheClientGivesUpAfterReconnectForAndSaysWhy) {
    const std::uint64_t seed = 907;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Match<> m(seed, link(20));
    m.client_config.reconnect_for = Micros{4'000'000};
    m.client_config.connect_timeout = Micros{1'000'000};  // each attempt waits 1 s for an answer
    const int a = m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.set_link(a, cut());
    m.run(Micros{6'000'000});
    ASSERT_EQ(m.client(a).phase(), cs::ClientPhase::reconnecting);
    EXPECT_GT(m.client(a).stats().connect_attempts, 0u);
    m.run(Micros{6'000'000});
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(m.client(a).stats().disconnect_code, cs::DisconnectCode::timed_out);
    EXPECT_GE(m.client(a).stats().connect_attempts, 3u);  // with a backoff: 0.25, 0.5, 1, 2 s ...
}

}  // namespace
