/// A game's own message types over SimNetwork's hostile profile: reliable ones arrive exactly once, in order
/// and intact, unreliable ones at most once and intact; what a client may not send is refused and counted by
/// reason while the honest messages around it get through; sends that cannot succeed say why; the server's
/// inbox is bounded.
#include "msg_game.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace msg_test;
using rwd::Errc;
using rwd::Micros;

/// A text that differs with its number and length (so a damaged or swapped one shows).
std::string text_of(const std::string& head, std::uint32_t n) {
    std::string s = head + "#" + std::to_string(n) + ":";
    for (std::uint32_t i = 0; i < n % 17; ++i) s.push_back(static_cast<char>('a' + (n + i) % 26));
    return s;
}

/// The encoded payload of `m`.
template <class M>
std::vector<std::uint8_t> payload_of(const M& m) {
    std::vector<std::uint8_t> out;
    EXPECT_TRUE(cs::encode_payload(m, out).ok());
    return out;
}

/// What a client polled of the reliable channel.
struct Received {
    std::vector<Announcement> announcements;
    std::uint32_t next_sequence = 0;      ///< the sequence the next reliable message must have
    std::uint32_t spawns_and_leaves = 0;  ///< the library's Spawn, Leave, Away and Back
    std::uint32_t others = 0;             ///< reliable messages of any other type
};

/// Polls every message of a client into `r`, checking that its reliable messages come numbered 0, 1, 2, ...
/// (the library's spawns and leaves included).
void drain_client(cs::Client<MsgGame>& c, Received& r) {
    cs::Message msg;
    while (c.poll_message(msg)) {
        EXPECT_EQ(msg.from, -1);
        if (!msg.reliable) continue;
        EXPECT_EQ(msg.sequence, r.next_sequence) << "a reliable message lost, repeated or out of order";
        r.next_sequence = msg.sequence + 1;
        Announcement a;
        cs::Spawn spawn;
        cs::Leave leave;
        cs::Away away;
        cs::Back back;
        if (c.read(msg, a))
            r.announcements.push_back(a);
        else if (c.read(msg, spawn) || c.read(msg, leave) || c.read(msg, away) || c.read(msg, back))
            ++r.spawns_and_leaves;
        else
            ++r.others;
    }
}

void expect_same_announcements(const std::vector<Announcement>& got, const std::vector<Announcement>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
        EXPECT_EQ(got[k].seq, want[k].seq) << "announcement " << k;
        EXPECT_EQ(got[k].text, want[k].text) << "announcement " << k;
    }
}

TEST(GameMessages, ReliableMessagesArriveExactlyOnceInOrderAndIntactOverAHostileLink) {
    for (const std::uint64_t seed : {31u, 32u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        MsgMatch m(seed, hostile());
        constexpr int kClients = 3;
        for (int i = 0; i < kClients; ++i) m.connect_tapped_client();
        ASSERT_TRUE(m.run_until_playing(Micros{30'000'000}));
        std::array<std::vector<Announcement>, kClients> want;
        std::array<Received, kClients> got;
        std::array<std::vector<Vote>, toy::ToyGame::kMaxPlayers> votes;  // by slot
        int others = 0;                                                  // anything else the server polled
        const auto poll = [&] {
            for (int i = 0; i < kClients; ++i) drain_client(m.client(i), got[static_cast<std::size_t>(i)]);
            cs::Message msg;
            while (m.server->poll_message(msg)) {
                Vote v;
                if (!m.server->read(msg, v) || msg.from < 0 || msg.from >= toy::ToyGame::kMaxPlayers) {
                    ++others;
                    continue;
                }
                EXPECT_TRUE(msg.reliable);
                votes[static_cast<std::size_t>(msg.from)].push_back(v);
            }
        };
        constexpr std::uint32_t kRounds = 40;
        std::uint32_t round = 0;
        int frame = 0;
        // Every 100 ms: one announcement to everyone, one to each client alone, and one vote from each
        // client.
        m.run(Micros{kRounds * 100'000 + 1000}, [&] {
            if (++frame % 100 == 0 && round < kRounds) {
                const Announcement all{round, text_of("all", round)};
                EXPECT_TRUE(m.server->broadcast(all).ok());
                for (auto& w : want) w.push_back(all);
                for (int i = 0; i < kClients; ++i) {
                    const int slot = m.client(i).slot();
                    const Announcement one{1000 + round, text_of("to" + std::to_string(slot), round)};
                    EXPECT_TRUE(m.server->send(slot, one).ok());
                    want[static_cast<std::size_t>(i)].push_back(one);
                    EXPECT_TRUE(m.client(i)
                                    .send(Vote{round, static_cast<std::uint8_t>(
                                                          (round + static_cast<std::uint32_t>(i)) % 3)})
                                    .ok());
                }
                ++round;
            }
            poll();
        });
        ASSERT_EQ(round, kRounds);
        m.run(Micros{20'000'000}, poll);  // retransmissions settle
        EXPECT_EQ(others, 0);
        for (int i = 0; i < kClients; ++i) {
            SCOPED_TRACE("client " + std::to_string(i));
            ASSERT_EQ(m.client(i).phase(), cs::ClientPhase::playing);
            const Received& r = got[static_cast<std::size_t>(i)];
            expect_same_announcements(r.announcements, want[static_cast<std::size_t>(i)]);
            const cs::ClientStats& st = m.client(i).stats();
            EXPECT_EQ(st.events_out_of_order, 0u);
            EXPECT_EQ(st.messages_refused, 0u);
            EXPECT_EQ(st.events_received, r.next_sequence);
            // Two announcements a round, and the library's spawns (one per player at least; a connection the
            // hostile link broke while connecting leaves and spawns again); nothing else.
            EXPECT_EQ(r.next_sequence, 2 * kRounds + r.spawns_and_leaves);
            EXPECT_GE(r.spawns_and_leaves, std::uint32_t{kClients});
            EXPECT_EQ(r.others, 0u);
            const auto& v = votes[static_cast<std::size_t>(m.client(i).slot())];
            ASSERT_EQ(v.size(), kRounds);
            for (std::uint32_t k = 0; k < kRounds; ++k)
                EXPECT_EQ(v[k], (Vote{k, static_cast<std::uint8_t>((k + static_cast<std::uint32_t>(i)) % 3)}))
                    << "vote " << k;
        }
        const cs::ServerStats& ss = m.server->stats();
        EXPECT_EQ(ss.messages_received, std::uint64_t{kClients} * kRounds);
        for (std::size_t r = 0; r < cs::kMessageRefusalCount; ++r)
            EXPECT_EQ(ss.messages_refused[r], 0u)
                << cs::message_refusal_name(static_cast<cs::MessageRefusal>(r));
        // The link was as bad as advertised: the transport resent what it lost.
        const auto link = m.net->link_counters(m.server_addr, m.client_addrs[0]);
        ASSERT_TRUE(link.has_value());
        EXPECT_GT(link->dropped_random, link->submitted / 8);
        EXPECT_GT(link->duplicated, link->submitted / 8);
        EXPECT_GT(link->reordered, 0u);
    }
}

TEST(GameMessages, UnreliableMessagesArriveAtMostOnceAndIntactOverAHostileLink) {
    const std::uint64_t seed = 33;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    MsgMatch m(seed, hostile());
    constexpr int kClients = 2;
    for (int i = 0; i < kClients; ++i) m.connect_tapped_client();
    ASSERT_TRUE(m.run_until_playing(Micros{30'000'000}));
    std::array<std::vector<Ping>, kClients> at_client;
    std::array<std::vector<Ping>, toy::ToyGame::kMaxPlayers> at_server;  // by slot
    const auto poll = [&] {
        for (int i = 0; i < kClients; ++i) {
            cs::Message msg;
            while (m.client(i).poll_message(msg)) {
                Ping p;
                if (!m.client(i).read(msg, p)) continue;
                EXPECT_FALSE(msg.reliable);
                EXPECT_EQ(msg.sequence, 0u);
                EXPECT_LE(msg.tick, m.server->tick());
                at_client[static_cast<std::size_t>(i)].push_back(p);
            }
        }
        cs::Message msg;
        while (m.server->poll_message(msg)) {
            Ping p;
            ASSERT_TRUE(m.server->read(msg, p));
            EXPECT_FALSE(msg.reliable);
            ASSERT_GE(msg.from, 0);
            ASSERT_LT(msg.from, toy::ToyGame::kMaxPlayers);
            at_server[static_cast<std::size_t>(msg.from)].push_back(p);
        }
    };
    constexpr std::uint32_t kPings = 200;
    std::uint32_t sent = 0;
    int frame = 0;
    // Every 20 ms a ping from the server to everyone and one from each client to the server.
    m.run(Micros{kPings * 20'000 + 1000}, [&] {
        if (++frame % 20 == 0 && sent < kPings) {
            EXPECT_TRUE(m.server->broadcast(ping(sent)).ok());
            for (int i = 0; i < kClients; ++i) EXPECT_TRUE(m.client(i).send(ping(sent)).ok());
            ++sent;
        }
        poll();
    });
    m.run(Micros{3'000'000}, poll);
    ASSERT_EQ(sent, kPings);
    const auto check = [&](const std::vector<Ping>& got, const std::string& who) {
        SCOPED_TRACE(who);
        std::set<std::uint32_t> seen;
        for (const Ping& p : got) {
            EXPECT_LT(p.seq, kPings);
            EXPECT_EQ(p, ping(p.seq)) << "damaged";
            EXPECT_TRUE(seen.insert(p.seq).second) << "ping " << p.seq << " arrived twice";
        }
        // 25 % loss: most arrive, not all.
        EXPECT_GT(got.size(), kPings / 2);
        EXPECT_LT(got.size(), kPings);
    };
    std::uint64_t at_server_total = 0;
    for (int i = 0; i < kClients; ++i) {
        ASSERT_EQ(m.client(i).phase(), cs::ClientPhase::playing);
        check(at_client[static_cast<std::size_t>(i)], "at client " + std::to_string(i));
        EXPECT_EQ(m.client(i).stats().unreliable_messages_received,
                  at_client[static_cast<std::size_t>(i)].size());
        EXPECT_EQ(m.client(i).stats().messages_refused, 0u);
        const auto slot = static_cast<std::size_t>(m.client(i).slot());
        check(at_server[slot], "at the server from client " + std::to_string(i));
        EXPECT_EQ(m.server->client_stats(static_cast<int>(slot)).messages_received, at_server[slot].size());
        at_server_total += at_server[slot].size();
    }
    EXPECT_EQ(m.server->stats().messages_received, at_server_total);
    for (std::size_t r = 0; r < cs::kMessageRefusalCount; ++r)
        EXPECT_EQ(m.server->stats().messages_refused[r], 0u)
            << cs::message_refusal_name(static_cast<cs::MessageRefusal>(r));
}

TEST(GameMessages, WhatAClientMayNotSendIsRefusedAndCountedByReason) {
    const std::uint64_t seed = 34;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    MsgMatch m(seed, hostile());
    const int bad = m.connect_tapped_client();
    const int good = m.connect_tapped_client();
    ASSERT_TRUE(m.run_until_playing(Micros{30'000'000}));
    const int bad_slot = m.client(bad).slot(), good_slot = m.client(good).slot();
    const auto reliable = tr::Delivery::reliable_ordered;
    constexpr int kEmotes = 50;
    constexpr int kWrongChannelDatagrams = 3;
    int frame = 0;
    std::vector<Vote> bad_votes, good_votes;
    std::vector<Emote> bad_emotes, good_emotes;
    int others = 0;
    const auto poll = [&] {
        cs::Message msg;
        while (m.server->poll_message(msg)) {
            Vote v;
            Emote e;
            if (m.server->read(msg, v))
                (msg.from == bad_slot ? bad_votes : good_votes).push_back(v);
            else if (m.server->read(msg, e))
                (msg.from == bad_slot ? bad_emotes : good_emotes).push_back(e);
            else
                ++others;
        }
        for (int i = 0; i < 2; ++i) {
            while (m.client(i).poll_message(msg)) {
            }
        }
    };
    m.run(Micros{2'000'000}, [&] {
        ++frame;
        poll();
        cs::Client<MsgGame>& c = m.client(bad);
        Tap& tap = m.tap(bad);
        if (frame == 100) {
            // Honest votes with every kind of refused message between them, on the same reliable channel.
            EXPECT_TRUE(c.send(Vote{0, 0}).ok());
            tap.send_framed(cs::ClientMessage{id_of<Vote>(), std::vector<std::uint8_t>(9, 0)},
                            reliable);  // oversized
            EXPECT_TRUE(c.send(Vote{1, 1}).ok());
            tap.send_framed(cs::ClientMessage{200, {1, 2, 3}}, reliable);  // no such type
            EXPECT_TRUE(c.send(Vote{2, 2}).ok());
            tap.send_framed(cs::ClientMessage{id_of<Announcement>(), payload_of(Announcement{1, "x"})},
                            reliable);  // a server-to-client type
            EXPECT_TRUE(c.send(Vote{3, 0}).ok());
            tap.send_framed(cs::ClientMessage{cs::kSpawnMessageId, payload_of(cs::Spawn{0, 1})},
                            reliable);  // the library's own server-to-client type
            EXPECT_TRUE(c.send(Vote{4, 1}).ok());
            tap.send_framed(cs::ClientMessage{id_of<Ping>(), payload_of(ping(7))},
                            reliable);  // unreliable type
            EXPECT_TRUE(c.send(Vote{5, 2}).ok());
            tap.send_framed(cs::ClientMessage{id_of<Vote>(), std::vector<std::uint8_t>(5, 0xFF)},
                            reliable);                                            // choice 3: out of range
            tap.send_framed(cs::ClientMessage{id_of<Vote>(), {0x01}}, reliable);  // cut short
            EXPECT_TRUE(c.send(Vote{6, 0}).ok());
            // A reliable type on the unreliable channel (datagrams: they may be lost or duplicated).
            for (int k = 0; k < kWrongChannelDatagrams; ++k)
                tap.send_framed(cs::UnreliableMessage{rwd::Tick{}, id_of<Vote>(), payload_of(Vote{99, 0}),
                                                      static_cast<std::uint16_t>(k)},
                                tr::Delivery::unreliable);
        }
        if (frame == 200) {
            // A flood: 50 emotes at once where 5 in a burst and 2 a second are allowed; then an honest vote.
            for (int k = 0; k < kEmotes; ++k) EXPECT_TRUE(c.send(Emote{static_cast<std::uint16_t>(k)}).ok());
            EXPECT_TRUE(c.send(Vote{7, 1}).ok());
            // The other client sends within the rules meanwhile.
            for (std::uint32_t k = 0; k < 3; ++k)
                EXPECT_TRUE(m.client(good).send(Vote{k, static_cast<std::uint8_t>(k)}).ok());
            EXPECT_TRUE(m.client(good).send(Emote{1000}).ok());
        }
    });
    m.run(Micros{20'000'000}, poll);  // retransmissions settle

    // The honest messages all got through, in order.
    ASSERT_EQ(bad_votes.size(), 8u);
    for (std::uint32_t k = 0; k < 8; ++k)
        EXPECT_EQ(bad_votes[k], (Vote{k, static_cast<std::uint8_t>(k % 3)})) << k;
    ASSERT_EQ(good_votes.size(), 3u);
    for (std::uint32_t k = 0; k < 3; ++k)
        EXPECT_EQ(good_votes[k], (Vote{k, static_cast<std::uint8_t>(k)})) << k;
    ASSERT_EQ(good_emotes.size(), 1u);
    EXPECT_EQ(good_emotes[0].id, 1000);
    EXPECT_EQ(others, 0);
    // The flood: the first burst went through, in order; most of the rest was refused.
    ASSERT_GE(bad_emotes.size(), 5u);
    for (std::size_t k = 0; k < bad_emotes.size(); ++k) {
        if (k < 5) {
            EXPECT_EQ(bad_emotes[k].id, k);
        }
        if (k > 0) {
            EXPECT_GT(bad_emotes[k].id, bad_emotes[k - 1].id);
        }
    }

    using R = cs::MessageRefusal;
    const auto refused = [](const auto& stats, R r) {
        return stats.messages_refused[static_cast<std::size_t>(r)];
    };
    const cs::ServerStats& ss = m.server->stats();
    EXPECT_EQ(refused(ss, R::oversized), 1u);
    EXPECT_EQ(refused(ss, R::unknown_type), 3u);
    EXPECT_EQ(refused(ss, R::malformed), 2u);
    EXPECT_EQ(refused(ss, R::rate_limited), kEmotes - bad_emotes.size());
    EXPECT_GE(refused(ss, R::rate_limited), 30u);
    // The reliable one always; of the datagrams, whatever the link delivered (each at most once).
    EXPECT_GE(refused(ss, R::wrong_channel), 1u);
    EXPECT_LE(refused(ss, R::wrong_channel), 1u + kWrongChannelDatagrams);
    EXPECT_EQ(refused(ss, R::queue_full), 0u);
    EXPECT_EQ(ss.messages_received, 8u + bad_emotes.size() + 3u + 1u);
    // Per client: all of it the offender's, none of it the other client's.
    const cs::ServerClientStats& bs = m.server->client_stats(bad_slot);
    const cs::ServerClientStats& gs = m.server->client_stats(good_slot);
    for (std::size_t r = 0; r < cs::kMessageRefusalCount; ++r) {
        EXPECT_EQ(bs.messages_refused[r], ss.messages_refused[r])
            << cs::message_refusal_name(static_cast<R>(r));
        EXPECT_EQ(gs.messages_refused[r], 0u) << cs::message_refusal_name(static_cast<R>(r));
    }
    EXPECT_EQ(bs.messages_received, 8u + bad_emotes.size());
    EXPECT_EQ(gs.messages_received, 4u);
    // Oversized and undecodable count as malformed, unknown types and wrong channels as unexpected: toward
    // the garbage kick, which this many does not reach.
    EXPECT_EQ(bs.malformed, 3u);
    EXPECT_EQ(bs.unexpected, 3u + refused(ss, R::wrong_channel));
    EXPECT_TRUE(bs.flagged);
    EXPECT_EQ(gs.malformed + gs.unexpected, 0u);
    EXPECT_TRUE(m.server->seated(bad_slot));
    EXPECT_EQ(m.client(bad).phase(), cs::ClientPhase::playing);
    EXPECT_EQ(m.client(good).phase(), cs::ClientPhase::playing);
}

TEST(GameMessages, SendsThatCannotSucceedSayWhy) {
    const std::uint64_t seed = 35;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    MsgMatch m(seed, hostile());
    const int i = m.connect_tapped_client();
    EXPECT_EQ(m.client(i).send(Vote{}).code(), Errc::not_connected);  // no accept yet
    ASSERT_TRUE(m.run_until_playing(Micros{30'000'000}));
    const int slot = m.client(i).slot();
    // A slot nobody holds, or no slot at all.
    for (const int nobody : {slot + 1, -1, 99, toy::ToyGame::kMaxPlayers})
        EXPECT_EQ(m.server->send(nobody, Announcement{0, "nobody"}).code(), Errc::not_connected) << nobody;
    // Over the type's max_bytes (48): 4 bytes of number, 6 bits of length, at most 43 bytes of text.
    EXPECT_TRUE(m.server->send(slot, Announcement{1, "x"}).ok());
    EXPECT_EQ(m.server->send(slot, Announcement{2, std::string(44, 'a')}).code(), Errc::length_too_long);
    EXPECT_EQ(m.server->broadcast(Announcement{3, std::string(60, 'b')}).code(), Errc::length_too_long);
    EXPECT_TRUE(m.server->broadcast(Announcement{4, std::string(43, 'c')}).ok());
    // The client likewise (Shout's max_bytes is 24: at most 19 bytes of text), and its chat.
    std::vector<std::uint8_t> out;
    EXPECT_EQ(cs::encode_payload(Shout{5, std::string(20, 's')}, out).code(), Errc::length_too_long);
    EXPECT_EQ(m.client(i).send(Shout{5, std::string(20, 's')}).code(), Errc::length_too_long);
    EXPECT_TRUE(m.client(i).send(Shout{6, std::string(19, 't')}).ok());
    EXPECT_EQ(m.client(i).send_chat(std::string(cs::kMaxChatBytes + 1, 'u')).code(), Errc::length_too_long);
    Received got;
    std::vector<Shout> shouts;
    int others = 0;
    m.run(Micros{15'000'000}, [&] {
        drain_client(m.client(i), got);
        cs::Message msg;
        while (m.server->poll_message(msg)) {
            Shout s;
            if (m.server->read(msg, s))
                shouts.push_back(s);
            else
                ++others;
        }
    });
    // Only what was sent arrived; nothing refused went out.
    expect_same_announcements(got.announcements,
                              {Announcement{1, "x"}, Announcement{4, std::string(43, 'c')}});
    EXPECT_EQ(got.others, 0u);
    ASSERT_EQ(shouts.size(), 1u);
    EXPECT_EQ(shouts[0], (Shout{6, std::string(19, 't')}));
    EXPECT_EQ(others, 0);
    EXPECT_EQ(m.client(i).stats().messages_refused, 0u);
    for (std::size_t r = 0; r < cs::kMessageRefusalCount; ++r)
        EXPECT_EQ(m.server->stats().messages_refused[r], 0u);
    // Gone: its slot is nobody's again.
    m.client(i).disconnect(m.now);
    m.run(Micros{3'000'000});
    ASSERT_FALSE(m.server->seated(slot));
    EXPECT_EQ(m.server->send(slot, Announcement{7, "gone"}).code(), Errc::not_connected);
    EXPECT_EQ(m.client(i).send(Vote{}).code(), Errc::not_connected);
    EXPECT_TRUE(
        m.server->broadcast(Announcement{8, "to nobody"}).ok());  // everyone, even when that is no one
}

TEST(GameMessages, TheServerInboxIsBoundedAndDropsTheOldest) {
    const std::uint64_t seed = 36;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    MsgMatch m(seed, hostile());
    const int i = m.connect_tapped_client();
    ASSERT_TRUE(m.run_until_playing(Micros{30'000'000}));
    const int slot = m.client(i).slot();
    constexpr std::uint32_t kInbox = 4096, kSent = kInbox + 104;
    std::uint32_t sent = 0;
    int frame = 0;
    // 500 a second (the transport's queue of unacknowledged messages stays far from full), never polled.
    m.run(Micros{10'000'000}, [&] {
        if (++frame % 20 != 0) return;
        for (int k = 0; k < 10 && sent < kSent; ++k, ++sent)
            EXPECT_TRUE(m.client(i).send(Shout{sent, text_of("", sent % 13)}).ok());
    });
    ASSERT_EQ(sent, kSent);
    m.run(Micros{20'000'000});
    const auto queue_full = static_cast<std::size_t>(cs::MessageRefusal::queue_full);
    EXPECT_EQ(m.server->stats().messages_received, kSent);
    EXPECT_EQ(m.server->stats().messages_refused[queue_full], kSent - kInbox);
    EXPECT_EQ(m.server->client_stats(slot).messages_refused[queue_full], kSent - kInbox);
    EXPECT_EQ(m.server->client_stats(slot).malformed + m.server->client_stats(slot).unexpected, 0u);
    // The newest kInbox wait, oldest first.
    cs::Message msg;
    std::uint32_t polled = 0;
    while (m.server->poll_message(msg)) {
        Shout s;
        ASSERT_TRUE(m.server->read(msg, s));
        EXPECT_EQ(msg.from, slot);
        EXPECT_EQ(s, (Shout{kSent - kInbox + polled, text_of("", (kSent - kInbox + polled) % 13)})) << polled;
        ++polled;
    }
    EXPECT_EQ(polled, kInbox);
    EXPECT_EQ(m.client(i).phase(), cs::ClientPhase::playing);
}

}  // namespace
