/// The client core through Client<ToyGame> on a hand-driven transport: input packets are byte for byte the
/// game's own InputPacket encoding, snapshot headers are counted right, the accept is checked, and the event
/// stream is ordered and bounded.
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

TEST(ClientCore, EventsArriveInOrderAndAnUnpolledQueueStaysBounded) {
    FakeTransport t;
    cs::Client<ToyGame> client(t, cs::ClientConfig{});
    ASSERT_TRUE(client.connect({"server", 1}, Micros{0}).ok());
    for (std::uint32_t i = 0; i < 4100; ++i) {
        cs::Event ev;
        ev.sequence = i;
        ev.expected_sequence = i;  // as a server sends it: coded against the one after the previous event
        ev.kind = cs::EventKind::score;
        ev.value = static_cast<std::int32_t>(i);
        t.deliver(ev, tr::Delivery::reliable_ordered);
    }
    client.update(Micros{1000});
    EXPECT_EQ(client.stats().events_received, 4100u);
    EXPECT_EQ(client.stats().events_out_of_order, 0u);
    cs::Event ev;
    std::uint32_t polled = 0, first = 0;
    while (client.poll_event(ev)) {
        if (polled == 0) first = ev.sequence;
        EXPECT_EQ(ev.sequence, first + polled);
        ++polled;
    }
    EXPECT_EQ(polled, 4096u);  // the oldest went first
    EXPECT_EQ(first, 4u);
    ev = cs::Event{};
    ev.sequence = 5000;  // a gap: counted, still delivered
    ev.expected_sequence = 4100;
    t.deliver(ev, tr::Delivery::reliable_ordered);
    client.update(Micros{2000});
    EXPECT_EQ(client.stats().events_out_of_order, 1u);
    EXPECT_TRUE(client.poll_event(ev));
    EXPECT_EQ(ev.sequence, 5000u);
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
