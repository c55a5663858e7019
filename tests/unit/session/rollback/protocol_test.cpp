// Rollback wire protocol and time sync: round trips, untrusted bytes, and frame distances beyond small
// integers.
#include "toy_game.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/protocol.hpp>
#include <rewind/session/rollback/time_sync.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace {

using namespace rwd::rollback;

std::vector<std::uint8_t> encode(const Message& m) {
    std::vector<std::uint8_t> buf(8192);
    const auto n = encode_message(m, buf);
    EXPECT_TRUE(n.ok()) << rwd::error_name(n.code());
    buf.resize(n.ok() ? *n : 0);
    return buf;
}

InputBits bits_of(const toy::Input& in) {
    InputBits b;
    EXPECT_TRUE(input_to_bits<toy::Game>(in, b));
    return b;
}

Message sample_input_message(std::uint64_t seed) {
    Message m;
    m.type = MsgType::input;
    m.sender_nonce = 0xDEADBEEF;
    m.ack = 41;
    m.sender_frame = 50;
    m.advantage = -3;
    m.num_status = 3;
    m.status[1] = PlayerStatus{true, 17};
    m.has_checksum = true;
    m.checksum = ChecksumReport{30, 0x0123456789ABCDEFull, 77};
    for (std::uint8_t p : {std::uint8_t{0}, std::uint8_t{2}}) {
        InputStream st{p, 42, {}};
        for (int f = 42; f < 52; ++f) st.inputs.push_back(bits_of(toy::scripted_input(seed, p, f)));
        m.streams.push_back(st);
    }
    return m;
}

TEST(RollbackProtocol, InputMessageRoundTrips) {
    const Message m = sample_input_message(3);
    const auto bytes = encode(m);
    EXPECT_EQ(bytes.size() * 8, (measure_message(m) + 7) / 8 * 8);
    Message d;
    ASSERT_TRUE(decode_message(bytes, d).ok());
    EXPECT_EQ(d.ack, 41);
    EXPECT_EQ(d.sender_frame, 50);
    EXPECT_EQ(d.advantage, -3);
    EXPECT_EQ(d.status[1], (PlayerStatus{true, 17}));
    EXPECT_EQ(d.status[0], (PlayerStatus{false, kNullFrame}));
    EXPECT_EQ(d.checksum, m.checksum);
    ASSERT_EQ(d.streams.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(d.streams[i].player, m.streams[i].player);
        EXPECT_EQ(d.streams[i].start, 42);
        ASSERT_EQ(d.streams[i].inputs.size(), m.streams[i].inputs.size());
        for (std::size_t k = 0; k < d.streams[i].inputs.size(); ++k)
            EXPECT_EQ(d.streams[i].inputs[k], m.streams[i].inputs[k]);
    }
    EXPECT_EQ(encode(d), bytes) << "one message, one encoding";
}

TEST(RollbackProtocol, UnchangedInputsCostOneBitEach) {
    Message m;
    m.type = MsgType::input;
    InputStream st{0, 0, {}};
    const InputBits held = bits_of(toy::Input{3, -2, 1, 0});
    for (int i = 0; i < 200; ++i) st.inputs.push_back(held);
    m.streams.push_back(st);
    const std::size_t with_200 = measure_message(m);
    m.streams[0].inputs.resize(1);
    const std::size_t with_1 = measure_message(m);
    EXPECT_EQ(with_200 - with_1, 199u);
    EXPECT_EQ(input_bits_cost(held, held), 1u);
    EXPECT_LE(input_bits_cost(InputBits{}, held), 1u + 7u + 9u * held.size);
}

TEST(RollbackProtocol, EveryTypeRoundTrips) {
    for (int t = 1; t <= static_cast<int>(kMaxMsgType); ++t) {
        Message m;
        m.type = static_cast<MsgType>(t);
        m.sender_nonce = 12345;
        m.request_nonce = 999;
        m.role = Role::spectator;
        m.session_tag = 7;
        m.num_players = 4;
        m.players_mask = 0x5;
        m.stamp = 0xFFFFFFF0u;
        m.state_frame = 120;
        m.state_checksum = 42;
        m.state_serialized = true;
        m.state_total = 300;
        m.state_offset = 100;
        m.state_bytes.assign(200, 0xAB);
        m.join_slot = 3;
        m.join_frame = 150;  // a joiner plays after the state's frame
        m.num_status = 2;
        m.status[1] = PlayerStatus{false, rwd::rollback::kNullFrame, 140, 90};
        const auto bytes = encode(m);
        Message d;
        ASSERT_TRUE(decode_message(bytes, d).ok()) << "type " << t;
        EXPECT_EQ(d.type, m.type);
        EXPECT_EQ(d.sender_nonce, 12345u);
        EXPECT_EQ(encode(d), bytes) << "type " << t;
    }
}

TEST(RollbackProtocol, JoinStatusesAndTheJoinStateRoundTripAndInvalidOnesAreRefused) {
    Message m = sample_input_message(3);
    m.num_status = 3;
    m.status[0] = PlayerStatus{true, 77, rwd::rollback::kNullFrame, rwd::rollback::kNullFrame};
    m.status[1] = PlayerStatus{false, rwd::rollback::kNullFrame, 200, rwd::rollback::kNullFrame};
    m.status[2] = PlayerStatus{true, 260, 200, 150};  // joined at 200 after a gap from 151, left after 260
    Message d;
    ASSERT_TRUE(decode_message(encode(m), d).ok());
    for (int p = 0; p < 3; ++p) EXPECT_EQ(d.status[p], m.status[p]) << "slot " << p;

    std::vector<std::uint8_t> buf(4096);
    Message bad = m;
    bad.status[1].gap_last = 200;  // the gap must end before the join
    EXPECT_FALSE(encode_message(bad, buf).ok());
    bad = m;
    bad.status[2].last_frame = 100;  // a joined player cannot leave before it joined
    EXPECT_FALSE(encode_message(bad, buf).ok());
    bad = m;
    bad.status[0].gap_last = 5;  // a gap without a join
    EXPECT_FALSE(encode_message(bad, buf).ok());

    Message js;
    js.type = MsgType::join_state;
    js.join_slot = 2;
    js.join_frame = 90;
    js.state_frame = 90;  // the join frame must come after the state's frame
    js.state_total = 4;
    js.state_bytes.assign(4, 1);
    EXPECT_FALSE(encode_message(js, buf).ok());
    js.join_frame = 91;
    ASSERT_TRUE(decode_message(encode(js), d).ok());
    EXPECT_EQ(d.join_slot, 2);
    EXPECT_EQ(d.join_frame, 91);
}

TEST(RollbackProtocol, RejectsTruncatedTrailingAndInvalidMessages) {
    const auto bytes = encode(sample_input_message(5));
    Message d;
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        EXPECT_FALSE(decode_message(std::span(bytes.data(), n), d).ok()) << "truncated to " << n;
    }
    auto longer = bytes;
    longer.push_back(0);
    EXPECT_FALSE(decode_message(longer, d).ok());
    // Two streams for the same player: the encoder refuses, and so does the decoder (patched bytes).
    Message dup = sample_input_message(5);
    dup.streams[1].player = dup.streams[0].player;
    std::vector<std::uint8_t> dbuf(4096);
    EXPECT_FALSE(encode_message(dup, dbuf).ok());
    // A chunk outside its declared total.
    Message chunk;
    chunk.type = MsgType::state_chunk;
    chunk.state_total = 10;
    chunk.state_offset = 5;
    chunk.state_bytes.assign(6, 1);
    std::vector<std::uint8_t> buf(256);
    EXPECT_FALSE(encode_message(chunk, buf).ok());
    // Message type 0 and types past the last.
    for (std::uint8_t first : {std::uint8_t{0x00}, std::uint8_t{0x0A}, std::uint8_t{0x0F}}) {
        std::vector<std::uint8_t> raw(16, 0);
        raw[0] = first;
        EXPECT_FALSE(decode_message(raw, d).ok());
    }
}

TEST(RollbackProtocol, RandomAndMutatedBytesNeverCrashAndDecodeCanonically) {
    rwd::Rng rng(20240601);
    const auto valid = encode(sample_input_message(9));
    Message d;
    int decoded = 0;
    for (int i = 0; i < 20000; ++i) {
        std::vector<std::uint8_t> b;
        if (i % 2 == 0) {
            b.resize(rng.uniform(80));
            for (auto& x : b) x = static_cast<std::uint8_t>(rng.next_u32());
        } else {
            b = valid;
            const int flips = 1 + static_cast<int>(rng.uniform(4));
            for (int k = 0; k < flips; ++k)
                b[rng.uniform(static_cast<std::uint32_t>(b.size()))] ^=
                    static_cast<std::uint8_t>(1u << rng.uniform(8));
        }
        if (decode_message(b, d).ok()) {
            ++decoded;
            ASSERT_EQ(encode(d), b) << "accepted bytes must be the canonical encoding";
        }
    }
    EXPECT_GT(decoded, 0);
}

TEST(RollbackProtocol, InvalidInputBitsAreRejected) {
    toy::Input in{-8, 7, 15, 0};
    InputBits b = bits_of(in);
    toy::Input out;
    ASSERT_TRUE(bits_to_input<toy::Game>(b, out));
    EXPECT_EQ(out, in);
    InputBits longer = b;
    longer.size = static_cast<std::uint8_t>(b.size + 1);  // same input, padded: not canonical
    EXPECT_FALSE(bits_to_input<toy::Game>(longer, out));
    InputBits empty;
    EXPECT_FALSE(bits_to_input<toy::Game>(empty, out));
}

TEST(RollbackTimeSync, FrameAdvantageBeyondSmallIntegersKeepsItsSign) {
    // Regression: peers 40 000 (or 200) frames apart overflowed 8/16-bit advantage fields in other libraries.
    for (const std::int64_t apart : {std::int64_t{200}, std::int64_t{40000}, std::int64_t{3'000'000'000}}) {
        SCOPED_TRACE("apart=" + std::to_string(apart));
        TimeSync behind;  // the remote is `apart` frames ahead of us
        for (int i = 0; i < 40; ++i) {
            behind.add_local(apart);
            behind.add_remote(-apart);
        }
        EXPECT_LT(behind.frames_ahead(), -static_cast<double>(apart) + 1);
        EXPECT_GT(recommend_time_scale(behind.frames_ahead(), 0.01, 0.05, 0.5), 1.0) << "must speed up";
        TimeSync ahead;
        for (int i = 0; i < 40; ++i) {
            ahead.add_local(-apart);
            ahead.add_remote(apart);
        }
        EXPECT_GT(ahead.frames_ahead(), static_cast<double>(apart) - 1);
        EXPECT_DOUBLE_EQ(recommend_time_scale(ahead.frames_ahead(), 0.01, 0.05, 0.5), 0.95)
            << "must slow down";
    }
    EXPECT_EQ(saturate_advantage(3'000'000'000), std::numeric_limits<std::int32_t>::max());
    EXPECT_EQ(saturate_advantage(-3'000'000'000), std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(saturate_advantage(40000), 40000);
    // And the wire carries the full 32-bit range.
    for (const std::int32_t adv : {40000, -40000, std::numeric_limits<std::int32_t>::min(),
                                   std::numeric_limits<std::int32_t>::max()}) {
        Message m;
        m.type = MsgType::input;
        m.advantage = adv;
        Message d;
        ASSERT_TRUE(decode_message(encode(m), d).ok());
        EXPECT_EQ(d.advantage, adv);
    }
}

TEST(RollbackTimeSync, SmallAdvantagesGiveSmoothSmallChanges) {
    EXPECT_DOUBLE_EQ(recommend_time_scale(0.3, 0.01, 0.05, 0.5), 1.0);
    EXPECT_DOUBLE_EQ(recommend_time_scale(2.0, 0.01, 0.05, 0.5), 0.98);
    EXPECT_DOUBLE_EQ(recommend_time_scale(-2.0, 0.01, 0.05, 0.5), 1.02);
}

}  // namespace
