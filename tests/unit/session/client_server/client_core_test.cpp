/// The client core through Client<ToyGame> on a hand-driven transport: input packets are byte for byte the
/// game's own InputPacket encoding, snapshot headers are counted right, the accept is checked, and the
/// message stream is ordered, bounded and refuses what the game does not know.
#include "fake_transport.hpp"
#include "toy_harness.hpp"

#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/packets.hpp>

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace toy;
using rwd::Micros;
using rwd::Tick;
namespace cs = rwd::client_server;
namespace tr = rwd::transport;
using Input = ToyGame::Input;
using InputPacket = cs::InputPacket<Input>;
using Snapshot = cs::SnapshotPacket<ToyGame::EntityRecord>;

constexpr Micros kFrame{16'667};

/// A Client<ToyGame> whose server is the test: every frame one snapshot that echoes the newest ping.
struct Driven {
    FakeTransport t;
    cs::Client<ToyGame> client{t, cs::ClientConfig{}};
    Micros now{1'000'000};
    Snapshot snap;
    Tick server_tick{1000};
    std::uint16_t sequence = 0;
    std::size_t echoed = 0;  // sent datagrams already looked at for pings

    explicit Driven(std::uint16_t tick_rate_hz = 60) {
        EXPECT_TRUE(client.connect({"server", 1}, now).ok());
        t.deliver(cs::ConnectAccept{0, Tick{1000}, tick_rate_hz, 30, 2}, tr::Delivery::reliable_ordered);
        ToyGame::State w;
        ToyGame::add_player(w, 0);
        ToyGame::capture(w, snap.entities);
    }
    /// Queues the next snapshot (echoing the newest ping) and runs one frame.
    void frame() {
        for (; echoed < t.sent.size(); ++echoed) {
            InputPacket in;
            if (cs::decode_message(t.sent[echoed].bytes, in).ok()) snap.pong_time = in.ping_time;
        }
        snap.sequence = sequence++;
        snap.server_tick = server_tick++;
        t.deliver(snap);
        now += kFrame;
        client.update(now);
    }
    bool run_until_playing() {
        for (int i = 0; i < 600 && client.phase() != cs::ClientPhase::playing; ++i) frame();
        return client.phase() == cs::ClientPhase::playing;
    }
};

TEST(ClientCore, InputPacketsAreTheGamesOwnEncodingByteForByte) {
    Driven d;
    ASSERT_TRUE(d.run_until_playing());
    // While syncing, only pings went out: input packets without inputs (then the frame that started ticking
    // sent its first inputs).
    int pings = 0;
    bool ticking = false;
    for (const auto& s : d.t.sent) {
        InputPacket p;
        if (!cs::decode_message(s.bytes, p).ok()) continue;
        if (p.count > 0) ticking = true;
        EXPECT_EQ(p.count == 0, !ticking);
        pings += p.count == 0;
    }
    EXPECT_GE(pings, 2);

    const std::size_t first = d.t.sent.size();
    const std::uint64_t sent_before = d.client.stats().inputs_sent;
    std::map<std::uint32_t, Input>
        given;  // tick -> the input the client was given for it (view time stamped)
    for (int f = 0; f < 40; ++f) {
        Input in = move(f % 7 * 10 - 30, 50 - f, f % 3 == 0);
        d.client.set_input(in);
        const Tick before = d.client.tick();
        d.frame();
        // A shot is stamped with the render time sampled before this frame's ticks.
        if (ToyGame::fires(in)) ToyGame::set_view_time(in, before, d.client.render_time().view_time());
        for (Tick t = before; t < d.client.tick(); ++t) given[t.value] = in;
    }
    int packets = 0;
    for (std::size_t i = first; i < d.t.sent.size(); ++i) {
        InputPacket p;
        if (!cs::decode_message(d.t.sent[i].bytes, p).ok()) continue;
        ++packets;
        // Re-encoding the decoded packet with the game's serialize() gives the very same bytes.
        std::vector<std::uint8_t> again;
        ASSERT_TRUE(cs::encode_message(p, again).ok());
        EXPECT_EQ(again, d.t.sent[i].bytes);
        ASSERT_GE(p.count, 1);
        EXPECT_TRUE(p.has_ack);
        for (int k = 0; k < p.count; ++k) {
            const auto it = given.find((p.newest_tick - k).value);
            if (it == given.end()) continue;  // ticks before this test's inputs
            EXPECT_EQ(p.inputs[static_cast<std::size_t>(k)], it->second)
                << "tick " << (p.newest_tick - k).value;
        }
    }
    EXPECT_GE(packets, 35);
    EXPECT_EQ(d.client.stats().inputs_sent - sent_before, static_cast<std::uint64_t>(packets));
    // Redundancy: after a few ticks every packet carries the newest kInputsPerPacket inputs.
    InputPacket last;
    ASSERT_TRUE(cs::decode_message(d.t.sent.back().bytes, last).ok());
    EXPECT_EQ(last.count, cs::kInputsPerPacket);
}

TEST(ClientCore, SnapshotHeadersAreCountedAsUnknownBaselineMalformedOrStale) {
    Driven d;
    ASSERT_TRUE(d.run_until_playing());
    const cs::ClientStats before = d.client.stats();

    Snapshot unknown = d.snap;  // names a baseline five sequences back that was never received
    unknown.sequence = 60000;
    unknown.server_tick = d.server_tick + 5;
    unknown.baseline_age = 5;
    d.t.deliver(unknown);
    std::vector<std::uint8_t> trailing;  // a good snapshot with a stray byte after it
    Snapshot good = d.snap;
    good.sequence = 60001;
    good.server_tick = d.server_tick + 6;
    ASSERT_TRUE(cs::encode_message(good, trailing).ok());
    trailing.push_back(0xFF);
    d.t.deliver_bytes(trailing);
    Snapshot old = d.snap;  // older than the newest received
    old.sequence = 60002;
    old.server_tick = d.server_tick - 10;
    d.t.deliver(old);
    d.now += Micros{1000};
    d.client.update(d.now);

    const cs::ClientStats& after = d.client.stats();
    EXPECT_EQ(after.snapshots_unknown_baseline, before.snapshots_unknown_baseline + 1);
    EXPECT_EQ(after.malformed, before.malformed + 1);
    EXPECT_EQ(after.snapshots_stale, before.snapshots_stale + 1);
    EXPECT_EQ(after.snapshots_received, before.snapshots_received);
    EXPECT_EQ(d.client.newest_server_tick(), d.server_tick - 1);
}

TEST(ClientCore, ASnapshotWithAnOlderSequenceIsStaleWhateverTickItClaims) {
    Driven d;
    ASSERT_TRUE(d.run_until_playing());
    const cs::ClientStats before = d.client.stats();
    const Tick newest = d.client.newest_server_tick();
    // A datagram from long ago: its sequence is older than the newest snapshot's, its tick far newer (as a
    // short tick expanded against today's reference could come out).
    Snapshot late = d.snap;
    late.sequence = static_cast<std::uint16_t>(d.snap.sequence - 3);
    late.server_tick = newest + 4096;
    d.t.deliver(late);
    d.now += Micros{1000};
    d.client.update(d.now);
    const cs::ClientStats& after = d.client.stats();
    EXPECT_EQ(after.snapshots_stale, before.snapshots_stale + 1);
    EXPECT_EQ(after.snapshots_received, before.snapshots_received);
    EXPECT_EQ(d.client.newest_server_tick(), newest);
}

TEST(ClientCore, AcceptWithAnotherTickRateSaysGoodbyeAsBadProtocol) {
    Driven d(30);
    d.now += Micros{1000};
    d.client.update(d.now);
    EXPECT_EQ(d.client.phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(d.client.stats().disconnect_code, cs::DisconnectCode::bad_protocol);
    EXPECT_EQ(d.t.disconnects, 1);
    cs::Disconnect bye;
    ASSERT_TRUE(cs::decode_message(d.t.sent.back().bytes, bye).ok());
    EXPECT_EQ(bye.code, cs::DisconnectCode::client_quit);
}

TEST(ClientCore, AcceptForASlotOutOfRangeIsMalformed) {
    FakeTransport t;
    cs::Client<ToyGame> client(t, cs::ClientConfig{});
    ASSERT_TRUE(client.connect({"server", 1}, Micros{0}).ok());
    t.deliver(cs::ConnectAccept{ToyGame::kMaxPlayers, Tick{1}, 60, 30, 2}, tr::Delivery::reliable_ordered);
    client.update(Micros{1000});
    EXPECT_EQ(client.stats().malformed, 1u);
    EXPECT_EQ(client.phase(), cs::ClientPhase::connecting);
    EXPECT_EQ(client.slot(), -1);
}

/// A reliable server message as the server sends the `sequence`th one: coded against the one before it.
cs::ServerMessage server_message(std::uint32_t sequence, std::uint32_t expected, cs::MessageId type,
                                 std::vector<std::uint8_t> payload) {
    cs::ServerMessage m;
    m.sequence = sequence;
    m.expected_sequence = expected;
    m.type = type;
    m.payload = std::move(payload);
    return m;
}

/// The encoded payload of `m`.
template <class M>
std::vector<std::uint8_t> payload_of(const M& m) {
    std::vector<std::uint8_t> out;
    EXPECT_TRUE(cs::encode_payload(m, out).ok());
    return out;
}

TEST(ClientCore, MessagesArriveInOrderAndAnUnpolledQueueStaysBounded) {
    FakeTransport t;
    cs::Client<ToyGame> client(t, cs::ClientConfig{});
    ASSERT_TRUE(client.connect({"server", 1}, Micros{0}).ok());
    for (std::uint32_t i = 0; i < 4100; ++i)
        t.deliver(server_message(i, i, cs::kSpawnMessageId, payload_of(cs::Spawn{3, i})),
                  tr::Delivery::reliable_ordered);
    client.update(Micros{1000});
    EXPECT_EQ(client.stats().events_received, 4100u);
    EXPECT_EQ(client.stats().events_out_of_order, 0u);
    EXPECT_EQ(client.stats().messages_refused, 0u);
    cs::Message msg;
    std::uint32_t polled = 0, first = 0;
    while (client.poll_message(msg)) {
        if (polled == 0) first = msg.sequence;
        EXPECT_EQ(msg.sequence, first + polled);
        EXPECT_TRUE(msg.reliable);
        cs::Spawn spawn;
        ASSERT_TRUE(client.read(msg, spawn));
        EXPECT_EQ(spawn, (cs::Spawn{3, msg.sequence}));
        ++polled;
    }
    EXPECT_EQ(polled, 4096u);  // the oldest went first
    EXPECT_EQ(first, 4u);
    // A gap: counted, still delivered.
    t.deliver(server_message(5000, 4100, cs::kLeaveMessageId, payload_of(cs::Leave{2, 3})),
              tr::Delivery::reliable_ordered);
    client.update(Micros{2000});
    EXPECT_EQ(client.stats().events_out_of_order, 1u);
    ASSERT_TRUE(client.poll_message(msg));
    EXPECT_EQ(msg.sequence, 5000u);
    cs::Leave leave;
    ASSERT_TRUE(client.read(msg, leave));
    EXPECT_EQ(leave, (cs::Leave{2, 3}));
    cs::Spawn not_a_spawn;
    EXPECT_FALSE(client.read(msg, not_a_spawn));
}

TEST(ClientCore, MessagesTheGameDoesNotKnowOrThatDoNotDecodeAreRefused) {
    FakeTransport t;
    cs::Client<ToyGame> client(t, cs::ClientConfig{});
    ASSERT_TRUE(client.connect({"server", 1}, Micros{0}).ok());
    constexpr cs::MessageId kHit = cs::message_id<ToyGame, toy::HitMessage>();
    static_assert(kHit == cs::kFirstGameMessageId);
    const auto reliable = tr::Delivery::reliable_ordered;
    std::uint32_t seq = 0;
    const auto next = [&](cs::MessageId type, std::vector<std::uint8_t> payload) {
        t.deliver(server_message(seq, seq, type, std::move(payload)), reliable);
        ++seq;
    };
    next(kHit, payload_of(toy::HitMessage{1, 2}));            // 0: good
    next(kHit + 1, payload_of(toy::HitMessage{1, 2}));        // 1: no such type in this game
    next(5, {});                                              // 2: an id between the library's and the game's
    next(kHit, std::vector<std::uint8_t>{0xFF});              // 3: hits out of range: does not decode
    next(kHit, std::vector<std::uint8_t>(5, 0));              // 4: over HitMessage's 4 bytes
    next(cs::kChatMessageId, payload_of(cs::Chat{1, "hi"}));  // 5: good
    constexpr cs::MessageId kFlash = cs::message_id<ToyGame, toy::FlashMessage>();
    next(kFlash, payload_of(toy::FlashMessage{1, 2}));  // 6: an unreliable type on the reliable channel
    // Unreliable: one good, one of an unknown type, one that does not decode, one of a reliable type.
    t.deliver(cs::UnreliableMessage{Tick{7}, kFlash, payload_of(toy::FlashMessage{4, 1}), 0});
    t.deliver(cs::UnreliableMessage{Tick{8}, 200, {1, 2}, 1});
    t.deliver(cs::UnreliableMessage{Tick{9}, cs::kSpawnMessageId, {}, 2});
    t.deliver(cs::UnreliableMessage{Tick{10}, kHit, payload_of(toy::HitMessage{4, 1}), 3});
    client.update(Micros{1000});
    EXPECT_EQ(client.stats().events_received, 7u);  // every reliable one is a step of the channel
    EXPECT_EQ(client.stats().events_out_of_order, 0u);
    EXPECT_EQ(client.stats().unreliable_messages_received, 1u);
    EXPECT_EQ(client.stats().messages_refused, 8u);
    EXPECT_EQ(client.stats().malformed, 0u);  // well framed: refused as messages, not as garbage
    cs::Message msg;
    ASSERT_TRUE(client.poll_message(msg));
    toy::HitMessage hit;
    ASSERT_TRUE(client.read(msg, hit));
    EXPECT_EQ(hit, (toy::HitMessage{1, 2}));
    EXPECT_EQ(msg.sequence, 0u);
    ASSERT_TRUE(client.poll_message(msg));
    cs::Chat chat;
    ASSERT_TRUE(client.read(msg, chat));
    EXPECT_EQ(chat, (cs::Chat{1, "hi"}));
    EXPECT_EQ(msg.sequence, 5u);
    ASSERT_TRUE(client.poll_message(msg));
    EXPECT_FALSE(msg.reliable);
    EXPECT_EQ(msg.tick, Tick{7});
    toy::FlashMessage flash;
    ASSERT_TRUE(client.read(msg, flash));
    EXPECT_EQ(flash, (toy::FlashMessage{4, 1}));
    EXPECT_FALSE(client.poll_message(msg));
}

TEST(ClientCore, AnUnreliableMessageTheNetworkDeliveredTwiceIsTakenOnce) {
    FakeTransport t;
    cs::Client<ToyGame> client(t, cs::ClientConfig{});
    ASSERT_TRUE(client.connect({"server", 1}, Micros{0}).ok());
    constexpr cs::MessageId kFlash = cs::message_id<ToyGame, toy::FlashMessage>();
    const auto unreliable = [&](std::uint16_t sequence, std::uint8_t shooter) {
        t.deliver(cs::UnreliableMessage{Tick{sequence}, kFlash, payload_of(toy::FlashMessage{shooter, 1}),
                                        sequence});
    };
    // Sequences wrap; late ones within the window still count, copies and stale ones do not.
    for (const int s : {65534, 65535, 0, 2, 65535, 1, 0, 2, 1})
        unreliable(static_cast<std::uint16_t>(s), static_cast<std::uint8_t>(s % 7));
    // The window moves on: 2 is now as far behind as it reaches, and still known.
    constexpr auto kEdge = static_cast<std::uint16_t>(2 + cs::kUnreliableWindow - 1);
    unreliable(kEdge, 3);
    unreliable(2, 4);  // a copy
    // Further on: 3 has never come, but is now one too far behind (stale); 4 is just within.
    constexpr auto kNewest = static_cast<std::uint16_t>(3 + cs::kUnreliableWindow);
    unreliable(kNewest, 5);
    unreliable(3, 6);
    unreliable(4, 0);
    client.update(Micros{1000});
    EXPECT_EQ(client.stats().unreliable_messages_received, 8u);
    EXPECT_EQ(client.stats().messages_refused, 0u);
    std::vector<std::uint32_t> ticks;
    cs::Message msg;
    while (client.poll_message(msg)) {
        EXPECT_FALSE(msg.reliable);
        toy::FlashMessage flash;
        ASSERT_TRUE(client.read(msg, flash));
        ticks.push_back(msg.tick.value);
    }
    EXPECT_EQ(ticks, (std::vector<std::uint32_t>{65534, 65535, 0, 2, 1, kEdge, kNewest, 4}));
    // A new connection starts a new count: its first sequences are taken again.
    client.disconnect(Micros{2000});
    ASSERT_TRUE(client.connect({"server", 1}, Micros{3000}).ok());
    unreliable(0, 6);
    client.update(Micros{4000});
    ASSERT_TRUE(client.poll_message(msg));
    EXPECT_EQ(msg.tick, Tick{0});
}

}  // namespace

namespace {

TEST(ClientCore, ASilentServerIsAnInterruptionAfterTheNotice) {
    Driven d;
    ASSERT_TRUE(d.run_until_playing());
    EXPECT_FALSE(d.client.connection_interrupted(d.now));
    // No message from the server: silent, and after interruption_notice (1 s) interrupted.
    Micros t = d.now;
    for (int i = 0; i < 55; ++i) {
        t += kFrame;
        d.client.update(t);
    }
    EXPECT_NEAR(static_cast<double>(d.client.server_silence(t).count), 55.0 * kFrame.count, 1.0);
    EXPECT_FALSE(d.client.connection_interrupted(t));  // 0.92 s
    for (int i = 0; i < 10; ++i) {
        t += kFrame;
        d.client.update(t);
    }
    EXPECT_TRUE(d.client.connection_interrupted(t));  // 1.08 s
    // One snapshot is word from the server: the interruption is over.
    d.now = t;
    d.frame();
    EXPECT_FALSE(d.client.connection_interrupted(d.now));
    EXPECT_LT(d.client.server_silence(d.now).count, kFrame.count * 2);
}

}  // namespace
