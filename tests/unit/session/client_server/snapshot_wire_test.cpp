/// Snapshots on the wire: what the server writes straight into the datagram is byte for byte the reference
/// SnapshotPacket encoding, and a reader resolves baselines through the finder it passes (no stored
/// callback).
#include "toy_harness.hpp"

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>
#include <rewind/wire/range_training.hpp>

#include <rewind/core/rng.hpp>

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

namespace {

namespace cs = rwd::client_server;
using toy::ToyGame;
using Record = ToyGame::EntityRecord;
using Snapshot = cs::SnapshotPacket<Record>;
using rwd::Micros;
using rwd::Tick;

/// Whether a snapshot datagram's server tick is in the short form (it does not decode without a reference).
bool short_tick(std::span<const std::uint8_t> data) {
    rwd::wire::ReadStream s(data);
    cs::SnapshotHeader head;
    cs::Framed<cs::SnapshotHeader> f{&head};
    return !serialize(s, f) && s.error() == rwd::Errc::malformed;
}

/// Whether a snapshot datagram's entity list is range-coded: its reference encoding with and without the
/// coder decides (the flag sits right after the header and the age).
bool coded_section(std::span<const std::uint8_t> data);

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
    cs::RangeSectionScratch range;
    int compared = 0, range_coded = 0;
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
            // A short server tick is expanded against the newest snapshot held, as the client does.
            got.has_tick_reference = has_ack;
            got.tick_reference = ack;
            const auto finder = [&](std::uint16_t s) -> const std::vector<Record>* {
                const auto it = held.find(s);
                return it == held.end() ? nullptr : &it->second;
            };
            ASSERT_TRUE(cs::decode_snapshot(ev.data, got, finder).ok());
            Snapshot again = got;
            again.baseline = got.baseline;
            // The server wrote the short tick against the newest ack it had; the same bytes come from any
            // reference just before the tick when it did, and from none when it did not.
            again.has_tick_reference = short_tick(ev.data);
            again.tick_reference = got.server_tick - 1;
            again.range = coded_section(ev.data) ? &range : nullptr;  // the server range-codes by default
            const std::vector<std::uint8_t> data(ev.data.begin(), ev.data.end());
            ASSERT_EQ(encode(again), data) << "snapshot " << got.sequence;
            ++compared;
            range_coded += again.range != nullptr ? 1 : 0;
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
    EXPECT_EQ(range_coded, compared);        // every one range-coded (SnapshotConfig::range_coded)
}

bool coded_section(std::span<const std::uint8_t> data) {
    // Read the header and the section prefix the way the client does, stopping at the coding flag.
    rwd::wire::ReadStream s(data);
    cs::SnapshotHeader head;
    head.has_tick_reference = true;  // any: only the bits' layout matters here
    cs::Framed<cs::SnapshotHeader> f{&head};
    std::uint8_t age = 0;
    bool predicted = false, coded = false;
    if (!serialize(s, f) || !rwd::wire::serialize_int(s, age, std::uint8_t{0}, std::uint8_t{64}))
        return false;
    if (age != 0 && !rwd::wire::serialize_bool(s, predicted)) return false;
    return rwd::wire::serialize_bool(s, coded) && coded;
}

TEST(SnapshotWire, ARangeCodedListRoundTripsAndIsSmallerThanTheBitPackedOne) {
    std::vector<Record> base;
    for (std::uint32_t i = 0; i < 40; ++i)
        base.push_back({i * 2, {static_cast<std::int32_t>(i * 100), static_cast<std::int32_t>(i), 0}});
    Snapshot s;
    s.sequence = 70;
    s.server_tick = Tick{1000};
    s.baseline_age = 2;
    s.baseline = base;
    s.entities = base;
    for (std::size_t i = 0; i < s.entities.size(); i += 3) s.entities[i].snap.x += 7;  // a third moved a bit
    s.entities.push_back({500, {1, 2, 3}});
    const auto plain = encode(s);
    cs::RangeSectionScratch range;
    s.range = &range;
    const auto coded = encode(s);
    EXPECT_LT(coded.size(), plain.size());
    EXPECT_TRUE(coded_section(coded));
    EXPECT_FALSE(coded_section(plain));
    const auto finder = [&](std::uint16_t) -> const std::vector<Record>* { return &base; };
    Snapshot got;
    ASSERT_TRUE(cs::decode_snapshot(coded, got, finder).ok());
    ASSERT_EQ(got.entities.size(), s.entities.size());
    for (std::size_t i = 0; i < s.entities.size(); ++i) {
        EXPECT_EQ(got.entities[i].id, s.entities[i].id);
        EXPECT_EQ(got.entities[i].snap, s.entities[i].snap);
    }
    // A range-coded list has no field lengths to run out of: a cut can decode to some other, valid list (the
    // datagram's own integrity check, UDP's or the transport's, is what catches a damaged one). What holds:
    // nothing crashes, a refusal changes nothing, and nearly every cut is refused.
    int refused = 0;
    for (std::size_t n = 0; n < coded.size(); ++n) {
        Snapshot t;
        t.entities = {{9, {9, 9, 9}}};
        const std::vector<std::uint8_t> cut(coded.begin(), coded.begin() + static_cast<std::ptrdiff_t>(n));
        const bool ok = cs::decode_snapshot(cut, t, finder).ok();
        refused += ok ? 0 : 1;
        if (ok) {
            EXPECT_NE(t.entities.size(), 0u) << n;
        }
    }
    EXPECT_GE(refused, static_cast<int>(coded.size()) - 2);
    auto longer = coded;
    longer.push_back(0);
    Snapshot t;
    EXPECT_FALSE(cs::decode_snapshot(longer, t, finder).ok());
}

TEST(SnapshotWire, AListCodedWithATrainedTableNeedsThatTable) {
    // A table trained on lists like this one (ids 0, 2, 4, ... entering, x a multiple of 100).
    std::vector<Record> world;
    for (std::uint32_t i = 0; i < 30; ++i)
        world.push_back({i * 2, {static_cast<std::int32_t>(i * 100), static_cast<std::int32_t>(i), 0}});
    rwd::wire::RangeModelTrainer trainer;
    cs::RangeSectionScratch train;
    train.trainer = &trainer;
    for (int k = 0; k < 20; ++k) {
        Snapshot t;
        t.sequence = static_cast<std::uint16_t>(k);
        t.entities = world;
        t.range = &train;
        (void)encode(t);
    }
    ASSERT_GT(trainer.messages(), 10u);
    const auto model = std::make_unique<rwd::wire::RangeModel>(trainer.model());

    Snapshot s;
    s.sequence = 90;
    s.server_tick = Tick{1000};
    s.entities = world;
    cs::RangeSectionScratch untrained;
    s.range = &untrained;
    const auto plain = encode(s);
    cs::RangeSectionScratch trained;
    trained.model = model.get();
    s.range = &trained;
    const auto coded = encode(s);
    EXPECT_LT(coded.size(), plain.size());

    const auto none = [](std::uint16_t) -> const std::vector<Record>* { return nullptr; };
    // Without the table the trained list is refused (the bit says it needs one); with it, it decodes and
    // says which table it used. An untrained list decodes either way.
    Snapshot got;
    EXPECT_EQ(cs::decode_snapshot(coded, got, none).code(), rwd::Errc::malformed);
    cs::RangeSectionScratch reader;
    reader.model = model.get();
    ASSERT_TRUE(cs::decode_snapshot(coded, got, none, cs::NoPrediction{}, &reader).ok());
    EXPECT_EQ(got.model, model.get());
    ASSERT_EQ(got.entities.size(), world.size());
    for (std::size_t i = 0; i < world.size(); ++i) EXPECT_EQ(got.entities[i].snap, world[i].snap);
    // What was read re-encodes to the same bytes (the table travels with the decoded message).
    EXPECT_EQ(encode(got), coded);
    Snapshot got_plain;
    ASSERT_TRUE(cs::decode_snapshot(plain, got_plain, none, cs::NoPrediction{}, &reader).ok());
    EXPECT_EQ(got_plain.model, nullptr);
}

TEST(SnapshotWire, APredictedSectionWithAnEmptyBaselineIsRefused) {
    // Hand-made: baseline age 1 naming an empty list, "predicted" set, bit-packed, nothing enters.
    std::vector<std::uint8_t> bytes(64, 0);
    rwd::wire::WriteStream w{std::span<std::uint8_t>(bytes)};
    cs::SnapshotHeader head;
    head.sequence = 9;
    head.server_tick = Tick{500};
    cs::Framed<cs::SnapshotHeader> f{&head};
    ASSERT_TRUE(serialize(w, f));
    std::uint8_t age = 1;
    bool predicted = true, coded = false, enters = false;
    ASSERT_TRUE(rwd::wire::serialize_int(w, age, std::uint8_t{0}, std::uint8_t{64}) &&
                rwd::wire::serialize_bool(w, predicted) && rwd::wire::serialize_bool(w, coded) &&
                rwd::wire::serialize_bool(w, enters));
    w.flush();
    bytes.resize(w.bytes_used());
    const std::vector<Record> empty;
    const auto finder = [&](std::uint16_t) -> const std::vector<Record>* { return &empty; };
    const auto predict = [&](std::uint16_t, std::span<const Record>, std::span<const Record>& ref) {
        ref = {};
        return true;
    };
    Snapshot got;
    EXPECT_FALSE(cs::decode_snapshot(bytes, got, finder, predict).ok());
    // The same with "predicted" clear is the one encoding of that list.
    Snapshot plain;
    plain.sequence = 9;
    plain.server_tick = Tick{500};
    plain.baseline_age = 1;
    const auto again = encode(plain);
    Snapshot ok;
    EXPECT_TRUE(cs::decode_snapshot(again, ok, finder, predict).ok());
}

TEST(SnapshotWire, ARangeCodedListThatDoesNotFitWhatIsLeftGoesBitPacked) {
    // A short list of random values: the coder has nothing to learn from, and for some of them its closing
    // byte and byte alignment make it longer than the packed list. In a message sized for the packed list
    // the writer then packs it.
    int found = 0;
    for (std::uint64_t seed = 1; seed <= 200 && found < 3; ++seed) {
        rwd::Rng rng(seed);
        Snapshot s;
        s.sequence = 3;
        s.server_tick = Tick{40};
        s.entities.push_back({17 + rng.uniform(5000),
                              {static_cast<std::int32_t>(rng.uniform(2 * ToyGame::kBound)) - ToyGame::kBound,
                               static_cast<std::int32_t>(rng.uniform(2 * ToyGame::kBound)) - ToyGame::kBound,
                               static_cast<std::int32_t>(rng.uniform(7))}});
        const auto plain = encode(s);
        cs::RangeSectionScratch range;
        s.range = &range;
        const auto coded = encode(s);  // with room to spare: range-coded
        ASSERT_TRUE(coded_section(coded)) << seed;
        if (coded.size() <= plain.size()) continue;
        ++found;
        SCOPED_TRACE("seed=" + std::to_string(seed));
        std::vector<std::uint8_t> out(plain.size(), 0);
        rwd::wire::WriteStream w{std::span<std::uint8_t>(out)};
        cs::Framed<cs::SnapshotPacket<Record>> f{&s};
        ASSERT_TRUE(serialize(w, f)) << rwd::error_name(w.error());
        w.flush();
        out.resize(w.bytes_used());
        EXPECT_EQ(out, plain);
        EXPECT_FALSE(coded_section(out));
        const auto finder = [](std::uint16_t) -> const std::vector<Record>* { return nullptr; };
        Snapshot a, b;
        ASSERT_TRUE(cs::decode_snapshot(out, a, finder).ok());
        ASSERT_TRUE(cs::decode_snapshot(coded, b, finder).ok());
        ASSERT_EQ(a.entities.size(), 1u);
        ASSERT_EQ(b.entities.size(), 1u);
        EXPECT_EQ(a.entities[0].snap, s.entities[0].snap);
        EXPECT_EQ(b.entities[0].snap, s.entities[0].snap);
    }
    EXPECT_EQ(found, 3);  // such lists exist, and the fallback was exercised on them
}

}  // namespace
