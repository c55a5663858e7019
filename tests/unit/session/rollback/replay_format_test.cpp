// The replay file layout: round trips, compact repeats, and every damaged, truncated or foreign file refused.
#include <rewind/core/checksum.hpp>
#include <rewind/session/rollback/replay.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using namespace rwd::rollback;
using rwd::Errc;

ReplayHeader header(int players) {
    ReplayHeader h;
    h.game_id = "toy";
    h.game_version = 3;
    h.model = ReplayModel::lockstep;
    h.seed = 0x1234567890ABCDEFull;
    for (int p = 0; p < players; ++p) h.players.push_back(std::string(1, 'p').append(std::to_string(p)));
    h.checksum_interval = 10;
    return h;
}

InputBits bits(std::uint8_t a, std::uint8_t size = 2) {
    InputBits b;
    b.size = size;
    for (std::uint8_t i = 0; i < size; ++i) b.bytes[i] = static_cast<std::uint8_t>(a + i);
    return b;
}

/// 3 slots, 100 frames: slot 1 changes every 7 frames, the others rarely; a checksum every 10 frames.
ReplayWriter sample() {
    ReplayWriter w = ReplayWriter::create(header(3)).value();
    for (Frame f = 0; f < 100; ++f) {
        const std::vector<InputBits> in{bits(f < 50 ? 1 : 2), bits(static_cast<std::uint8_t>(f / 7), 1),
                                        bits(9, 3)};
        EXPECT_TRUE(w.add_frame(in).ok());
        if ((f + 1) % 10 == 0) {
            EXPECT_TRUE(w.add_checksum(f, 1000u + static_cast<std::uint64_t>(f)).ok());
        }
    }
    return w;
}

TEST(ReplayFormat, RoundTripsHeaderInputsAndChecksums) {
    const ReplayWriter w = sample();
    const auto bytes = w.bytes();
    const auto parsed = parse_replay(bytes);
    ASSERT_TRUE(parsed.ok()) << parsed.error().detail;
    const ReplayData& d = parsed.value();
    EXPECT_EQ(d.header(), header(3));
    EXPECT_EQ(d.frames(), 100);
    ASSERT_EQ(d.checksums().size(), 10u);
    EXPECT_EQ(d.checksums()[3], (ReplayChecksum{39, 1039}));
    for (Frame f = 0; f < 100; ++f) {
        EXPECT_EQ(d.input(0, f), bits(f < 50 ? 1 : 2)) << f;
        EXPECT_EQ(d.input(1, f), bits(static_cast<std::uint8_t>(f / 7), 1)) << f;
        EXPECT_EQ(d.input(2, f), bits(9, 3)) << f;
        for (int s = 0; s < 3; ++s) EXPECT_EQ(d.input(s, f), w.data().input(s, f));
    }
    EXPECT_EQ(d.changes(0).size(), 2u);  // frame 0 and frame 50
    EXPECT_EQ(d.changes(2).size(), 1u);
    EXPECT_EQ(replay_format_version(bytes), kReplayFormatVersion);
}

TEST(ReplayFormat, RepeatedFramesCostAlmostNothing) {
    ReplayWriter w = ReplayWriter::create(header(4)).value();
    const std::vector<InputBits> in(4, bits(5, 4));
    for (int f = 0; f < 100000; ++f) ASSERT_TRUE(w.add_frame(in).ok());
    const auto bytes = w.bytes();
    EXPECT_LT(bytes.size(), 100u);  // header, one frame record, one repeat record, the end record
    const auto d = parse_replay(bytes);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->frames(), 100000);
    EXPECT_EQ(d->input(3, 99999), bits(5, 4));
}

TEST(ReplayFormat, EveryTruncationAndEveryFlippedByteIsRefused) {
    const auto bytes = sample().bytes();
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const auto r = parse_replay(std::span<const std::uint8_t>(bytes.data(), n));
        EXPECT_FALSE(r.ok()) << "truncated to " << n;
    }
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        for (const std::uint8_t bit : {std::uint8_t{0x01}, std::uint8_t{0x80}}) {
            auto damaged = bytes;
            damaged[i] ^= bit;
            EXPECT_FALSE(parse_replay(damaged).ok()) << "byte " << i << " ^ " << int{bit};
        }
    }
    auto longer = bytes;
    longer.push_back(0);
    EXPECT_EQ(parse_replay(longer).code(), Errc::malformed);
}

TEST(ReplayFormat, OlderAndNewerFormatVersionsAreRefusedByName) {
    auto bytes = sample().bytes();
    bytes[4] = 0;  // version 0
    auto r = parse_replay(bytes);
    EXPECT_EQ(r.code(), Errc::rejected);
    EXPECT_NE(std::string(r.error().detail).find("older"), std::string::npos);
    EXPECT_EQ(replay_format_version(bytes), 0);
    bytes[4] = static_cast<std::uint8_t>(kReplayFormatVersion + 1);
    r = parse_replay(bytes);
    EXPECT_EQ(r.code(), Errc::rejected);
    EXPECT_NE(std::string(r.error().detail).find("newer"), std::string::npos);
    EXPECT_EQ(parse_replay(std::vector<std::uint8_t>{'R', 'W', 'X', 'P', 1, 0}).code(), Errc::malformed);
    EXPECT_EQ(replay_format_version(std::vector<std::uint8_t>{'n', 'o'}), 0);
}

TEST(ReplayFormat, HeadersAndCallsOutsideTheFormatAreRejected) {
    ReplayHeader h = header(2);
    h.game_id.clear();
    EXPECT_EQ(ReplayWriter::create(h).code(), Errc::invalid_argument);
    h = header(9);
    EXPECT_EQ(ReplayWriter::create(h).code(), Errc::invalid_argument);
    h = header(2);
    h.players[1] = std::string(65, 'x');
    EXPECT_EQ(ReplayWriter::create(h).code(), Errc::invalid_argument);
    h = header(2);
    h.players[0] = "tab\there";
    EXPECT_EQ(ReplayWriter::create(h).code(), Errc::invalid_argument);
    h = header(2);
    h.checksum_interval = 0;
    EXPECT_EQ(ReplayWriter::create(h).code(), Errc::invalid_argument);

    ReplayWriter w = ReplayWriter::create(header(2)).value();
    EXPECT_FALSE(w.add_frame(std::vector<InputBits>(3)).ok());
    EXPECT_FALSE(w.add_checksum(0, 1).ok());  // no frame yet
    ASSERT_TRUE(w.add_frame(std::vector<InputBits>{bits(1), bits(2)}).ok());
    ASSERT_TRUE(w.add_frame(std::vector<InputBits>{bits(1), bits(2)}).ok());
    EXPECT_TRUE(w.add_checksum(1, 7).ok());
    EXPECT_FALSE(w.add_checksum(0, 7).ok());  // out of order
    EXPECT_FALSE(w.add_checksum(2, 7).ok());  // not added yet

    EXPECT_TRUE(check_replay_game(header(2), "toy", 3, 8).ok());
    EXPECT_FALSE(check_replay_game(header(2), "arena", 3, 8).ok());
    EXPECT_FALSE(check_replay_game(header(2), "toy", 4, 8).ok());
    EXPECT_FALSE(check_replay_game(header(3), "toy", 3, 2).ok());
}

/// A replay of one frame followed by a repeat record of `repeat` frames, with a correct end record.
std::vector<std::uint8_t> with_repeat(std::uint32_t repeat) {
    ReplayWriter w = ReplayWriter::create(header(1)).value();
    EXPECT_TRUE(w.add_frame(std::vector<InputBits>{bits(1)}).ok());
    auto b = w.bytes();
    b.erase(b.end() - 13, b.end());  // drop the end record: tag, frames, file checksum
    const auto put = [&b](std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    put(0x02, 1);
    put(repeat, 4);
    put(0xFF, 1);
    put(std::uint64_t{repeat} + 1, 4);
    put(rwd::checksum64(std::as_bytes(std::span<const std::uint8_t>(b))), 8);
    return b;
}

TEST(ReplayFormat, ATinyFileCannotAskForBillionsOfFrames) {
    const auto fine = parse_replay(with_repeat(static_cast<std::uint32_t>(kMaxReplayFrames) - 1));
    ASSERT_TRUE(fine.ok()) << fine.error().detail;
    EXPECT_EQ(fine->frames(), kMaxReplayFrames);
    EXPECT_EQ(parse_replay(with_repeat(static_cast<std::uint32_t>(kMaxReplayFrames))).code(),
              Errc::malformed);
    EXPECT_EQ(parse_replay(with_repeat(0x7FFFFFFEu)).code(), Errc::malformed);
}

TEST(ReplayFormat, EmptyReplayRoundTrips) {
    const auto bytes = ReplayWriter::create(header(1)).value().bytes();
    const auto d = parse_replay(bytes);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->frames(), 0);
    EXPECT_TRUE(d->checksums().empty());
}

}  // namespace
