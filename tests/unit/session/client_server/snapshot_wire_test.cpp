/// Snapshots on the wire: what the server writes straight into the datagram is byte for byte the reference
/// SnapshotPacket encoding, and a reader resolves baselines through the finder it passes (no stored
/// callback).
#include "toy_harness.hpp"

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace {

namespace cs = rwd::client_server;
using toy::ToyGame;
using Record = ToyGame::EntityRecord;
using Snapshot = cs::SnapshotPacket<Record>;
using rwd::Micros;
using rwd::Tick;

std::vector<std::uint8_t> encode(Snapshot& s) {
    std::vector<std::uint8_t> out;
    EXPECT_TRUE(cs::encode_message(s, out).ok());
    return out;
}

TEST(SnapshotWire, DecodeSnapshotResolvesTheBaselineThroughTheFinder) {
    const std::vector<Record> base{{1, {10, 20, 0}}, {2, {30, 40, 1}}};
    Snapshot s;
    s.sequence = 500;
    s.server_tick = Tick{77};
    s.baseline_age = 3;
    s.baseline = base;
    s.entities = {{1, {11, 20, 0}}, {2, {30, 40, 1}}, {5, {1, 2, 3}}};
    const auto bytes = encode(s);

    Snapshot got;
    std::uint16_t asked = 0;
    const auto finder = [&](std::uint16_t seq) -> const std::vector<Record>* {
        asked = seq;
        return &base;
    };
    ASSERT_TRUE(cs::decode_snapshot(bytes, got, finder).ok());
    EXPECT_EQ(asked, 497);
    ASSERT_EQ(got.entities.size(), 3u);
    EXPECT_EQ(got.entities[0].snap, s.entities[0].snap);
    EXPECT_EQ(got.entities[2].id, 5u);
    EXPECT_FALSE(got.baseline_missing);

    // A reader that does not hold the baseline fails and says why; so does one without a finder.
    Snapshot missing;
    const auto none = [](std::uint16_t) -> const std::vector<Record>* { return nullptr; };
    EXPECT_FALSE(cs::decode_snapshot(bytes, missing, none).ok());
    EXPECT_TRUE(missing.baseline_missing);
    Snapshot plain;
    EXPECT_FALSE(cs::decode_message(bytes, plain).ok());
    EXPECT_TRUE(plain.baseline_missing);
}

// A raw endpoint plays the client: it acknowledges what it decodes, so the server codes deltas against real
// baselines, and every datagram must equal the reference encoding of what it decoded.
TEST(SnapshotWire, ServerWritesExactlyTheReferenceEncoding) {
    toy::Match<> m(11);
    rwd::transport::Address raw_addr{"raw", 9};
    auto* raw = m.net->create_endpoint(raw_addr).value();
    const auto server = raw->connect(m.server_addr).value();
    std::map<std::uint16_t, std::vector<Record>> held;
    int compared = 0;
    int with_baseline = 0;
    bool has_ack = false;
    Tick ack{};
    std::uint16_t seq = 0;
    for (int frame = 0; frame < 3000; ++frame) {
        m.now += Micros{1000};
        // Move the players so entities change between snapshots.
        for (auto& p : m.server->state().players)
            if (p.present) p.x = (p.x + 37) % ToyGame::kBound;
        m.server->update(m.now);
        raw->update(m.now);
        rwd::transport::TransportEvent ev;
        while (raw->poll(ev)) {
            if (ev.type == rwd::transport::TransportEvent::Type::connected) {
                cs::ConnectRequest hello{};
                std::vector<std::uint8_t> b;
                ASSERT_TRUE(cs::encode_message(hello, b).ok());
                ASSERT_TRUE(raw->send(server, rwd::transport::Delivery::reliable_ordered, b).ok());
            }
            if (ev.type != rwd::transport::TransportEvent::Type::message) continue;
            const auto type = cs::peek_message_type(ev.data);
            if (!type.ok() || type.value() != cs::MessageType::snapshot) continue;
            Snapshot got;
            const auto finder = [&](std::uint16_t s) -> const std::vector<Record>* {
                const auto it = held.find(s);
                return it == held.end() ? nullptr : &it->second;
            };
            ASSERT_TRUE(cs::decode_snapshot(ev.data, got, finder).ok());
            Snapshot again = got;
            again.baseline = got.baseline;
            const std::vector<std::uint8_t> data(ev.data.begin(), ev.data.end());
            ASSERT_EQ(encode(again), data) << "snapshot " << got.sequence;
            ++compared;
            with_baseline += got.baseline_age != 0 ? 1 : 0;
            held[got.sequence] = got.entities;
            has_ack = true;
            ack = got.server_tick;
        }
        if (frame % 16 == 0) {
            cs::InputPacket<ToyGame::Input> pkt;
            pkt.sequence = seq++;
            pkt.newest_tick = m.server->tick() + 2;
            pkt.count = 1;
            pkt.has_ack = has_ack;
            pkt.ack_snapshot_tick = ack;
            std::vector<std::uint8_t> b;
            ASSERT_TRUE(cs::encode_message(pkt, b).ok());
            ASSERT_TRUE(raw->send(server, rwd::transport::Delivery::unreliable, b).ok());
        }
    }
    EXPECT_GT(compared, 60);
    EXPECT_GT(with_baseline, compared / 2);  // most are deltas against an acknowledged baseline
}

}  // namespace
