// ReplayRecorder and ReplayPlayer: a lossy 3-peer match recorded from one peer's session plays back
// bit-exactly, seeks from saved states, and a tampered replay is caught at its next checksum.
#include "rb_harness.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/session/rollback/replay_player.hpp>
#include <rewind/session/rollback/replay_recorder.hpp>

namespace {

using namespace rbtest;
using namespace rwd::literals;
using rwd::rollback::parse_replay;
using rwd::rollback::ReplayData;
using rwd::rollback::ReplayHeader;
using rwd::rollback::ReplayPlayer;
using rwd::rollback::ReplayRecorder;

ReplayHeader toy_header(int players, int interval) {
    ReplayHeader h;
    h.game_id = "toy";
    h.game_version = 1;
    h.seed = 0;
    for (int p = 0; p < players; ++p) h.players.push_back(std::string("peer").append(std::to_string(p)));
    h.checksum_interval = interval;
    return h;
}

LinkConfig lossy() {
    LinkConfig l;
    l.latency = 40_ms;
    l.jitter = 10_ms;
    l.loss = 0.05;
    return l;
}

struct Recorded {
    std::vector<std::uint8_t> bytes;
    std::map<Frame, std::uint64_t> peer_checksums;  // every confirmed frame of peer 1
    Frame frames = 0;
};

/// Records peer 0 of a 3-peer match (5 % loss, 10 ms jitter) for 8 s, calling record() after every 1 ms tick.
Recorded record_match(std::uint64_t seed, int interval) {
    Mesh mesh(3, seed, lossy(), P2PConfig{});
    auto rec = ReplayRecorder<toy::Game>::create(toy_header(3, interval)).value();
    for (int ms = 0; ms < 8000; ++ms) {
        mesh.run(1_ms);
        EXPECT_TRUE(rec.record(*mesh.peer(0).session).ok());
    }
    EXPECT_EQ(rec.checksums_missed(), 0u);
    EXPECT_EQ(mesh.count_events(0, rwd::rollback::SessionEvent::Type::desync_detected), 0u);
    Recorded r;
    r.bytes = rec.bytes();
    r.peer_checksums = mesh.peer(1).checksums;
    r.frames = rec.frames();
    return r;
}

ReplayPlayer<toy::Game> open(const std::vector<std::uint8_t>& bytes, int keyframes = 120) {
    auto data = parse_replay(bytes);
    EXPECT_TRUE(data.ok()) << data.error().detail;
    auto p = ReplayPlayer<toy::Game>::create(std::move(data.value()), toy::State{}, keyframes);
    EXPECT_TRUE(p.ok()) << p.error().detail;
    return std::move(p.value());
}

TEST(ReplayPlayer, RecordedMatchReplaysBitExactlyAtEveryChecksumFrame) {
    const std::uint64_t seed = 21;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const Recorded r = record_match(seed, 30);
    ASSERT_GT(r.frames, 400);
    auto player = open(r.bytes);
    EXPECT_EQ(player.frames(), r.frames);
    // Every frame, not only the checksum frames, equals what another peer computed for it.
    std::size_t compared = 0;
    while (!player.at_end()) {
        const Frame f = player.frame();
        ASSERT_TRUE(player.step());
        const auto it = r.peer_checksums.find(f);
        if (it == r.peer_checksums.end()) continue;
        ++compared;
        ASSERT_EQ(player.checksum(), it->second) << "frame " << f;
    }
    EXPECT_GT(compared, 400u);
    EXPECT_EQ(player.checksum_mismatches(), 0u);
    EXPECT_EQ(player.checksums_verified(), static_cast<std::uint64_t>(r.frames / 30));
    EXPECT_TRUE(player.play_to_end().ok());
}

TEST(ReplayPlayer, SeekingMatchesAStraightReplayAndStartsFromTheNearestSavedState) {
    const std::uint64_t seed = 22;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const Recorded r = record_match(seed, 60);
    std::vector<std::uint64_t> straight;  // straight[f] = checksum at the start of frame f (f >= 1)
    {
        auto p = open(r.bytes);
        straight.push_back(0);
        while (p.step()) straight.push_back(p.checksum());
    }
    auto p = open(r.bytes, 50);
    rwd::Rng rng(seed, 1);
    p.seek(r.frames);  // passes every keyframe once
    for (int i = 0; i < 200; ++i) {
        const Frame target = static_cast<Frame>(rng.uniform(static_cast<std::uint32_t>(r.frames))) + 1;
        const std::uint64_t before = p.frames_simulated();
        const Frame from = p.frame();
        p.seek(target);
        ASSERT_EQ(p.frame(), target);
        ASSERT_EQ(p.checksum(), straight[static_cast<std::size_t>(target)]) << "seek to " << target;
        const std::uint64_t cost = p.frames_simulated() - before;
        if (target < from) {
            EXPECT_LT(cost, 50u) << "seek back from " << from << " to " << target;
        }
    }
    p.seek(0);
    EXPECT_EQ(p.frame(), 0);
    EXPECT_EQ(p.state().frame, toy::State{}.frame);
    EXPECT_EQ(p.checksum_mismatches(), 0u);
}

TEST(ReplayPlayer, ATamperedInputIsCaughtAtTheNextChecksumFrame) {
    const std::uint64_t seed = 23;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const Recorded r = record_match(seed, 20);
    const ReplayData d = parse_replay(r.bytes).value();
    // Re-write the replay with slot 2 pressing a button at frame 105 that it never pressed.
    auto w = rwd::rollback::ReplayWriter::create(d.header()).value();
    for (Frame f = 0; f < d.frames(); ++f) {
        std::vector<rwd::rollback::InputBits> in;
        for (int s = 0; s < 3; ++s) in.push_back(d.input(s, f));
        if (f == 105) {
            toy::Input changed{};
            ASSERT_TRUE(rwd::rollback::bits_to_input<toy::Game>(in[2], changed));
            changed.buttons ^= 1;
            ASSERT_TRUE(rwd::rollback::input_to_bits<toy::Game>(changed, in[2]));
        }
        ASSERT_TRUE(w.add_frame(in).ok());
    }
    for (const auto& c : d.checksums()) ASSERT_TRUE(w.add_checksum(c.frame, c.checksum).ok());
    auto p = open(w.bytes());
    EXPECT_EQ(p.play_to_end().code(), rwd::Errc::desync);
    EXPECT_EQ(p.first_mismatch(), 119);
}

TEST(ReplayPlayer, InputsThatDoNotDecodeAsTheGamesInputAreRefused) {
    auto w = rwd::rollback::ReplayWriter::create(toy_header(1, 10)).value();
    rwd::rollback::InputBits junk;
    junk.size = 9;
    junk.bytes.fill(0);
    for (std::size_t i = 0; i < 9; ++i) junk.bytes[i] = 0xFF;
    ASSERT_TRUE(w.add_frame(std::vector<rwd::rollback::InputBits>{junk}).ok());
    auto data = parse_replay(w.bytes());
    ASSERT_TRUE(data.ok());
    EXPECT_EQ(ReplayPlayer<toy::Game>::create(std::move(data.value()), toy::State{}).code(),
              rwd::Errc::malformed);
}

}  // namespace
