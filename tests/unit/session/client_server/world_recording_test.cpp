// World recordings: the layout round-trips and refuses damage; a server's recording of a lossy 3-client match
// plays back every tick's final world (late-input replays included), the messages the clients received, and
// seeks from keyframes.
#include "toy_harness.hpp"

#include <rewind/session/client_server/world_player.hpp>
#include <rewind/session/client_server/world_recorder.hpp>

#include <map>

namespace {

using namespace toy;
using rwd::Errc;
using rwd::Tick;
using rwd::client_server::parse_world_recording;
using rwd::client_server::WorldEntityBytes;
using rwd::client_server::WorldPlayer;
using rwd::client_server::WorldRecorder;
using rwd::client_server::WorldRecordingHeader;
using rwd::client_server::WorldWriter;

WorldRecordingHeader header() { return WorldRecordingHeader{"toy", 2, 60}; }

std::vector<std::uint8_t> blob(std::uint8_t v, std::size_t n) { return std::vector<std::uint8_t>(n, v); }

/// 50 ticks: entity 1 always, entity 2 from tick 10 to 29 (changing), entity 3 constant; a keyframe every 16.
std::vector<std::uint8_t> sample_file() {
    WorldWriter w = WorldWriter::create(header(), 16).value();
    for (std::uint32_t t = 100; t < 150; ++t) {
        const auto a = blob(static_cast<std::uint8_t>(t), 3), b = blob(static_cast<std::uint8_t>(t / 2), 5),
                   c = blob(7, 1);
        std::vector<WorldEntityBytes> world{{1, a}};
        if (t >= 110 && t < 130) world.push_back({2, b});
        world.push_back({3, c});
        EXPECT_TRUE(w.add_tick(Tick{t}, world).ok());
        if (t % 7 == 0) {
            rwd::client_server::OutMessage m;
            m.type = 9;
            m.payload = blob(static_cast<std::uint8_t>(t), 2);
            EXPECT_TRUE(w.add_message(Tick{t}, m).ok());
        }
    }
    return w.bytes();
}

TEST(WorldRecording, RoundTripsKeyframesChangesAndMessages) {
    const auto bytes = sample_file();
    const auto d = parse_world_recording(bytes);
    ASSERT_TRUE(d.ok()) << d.error().detail;
    EXPECT_EQ(d->header(), header());
    ASSERT_EQ(d->ticks().size(), 50u);
    EXPECT_TRUE(d->ticks()[0].keyframe);
    EXPECT_TRUE(d->ticks()[16].keyframe);
    EXPECT_FALSE(d->ticks()[17].keyframe);
    // Tick 101 changes entity 1 only; tick 110 adds entity 2; tick 130 removes it.
    EXPECT_EQ(d->entries(d->ticks()[1]).size(), 1u);
    EXPECT_EQ(d->entries(d->ticks()[10]).size(), 2u);
    const auto removal = d->entries(d->ticks()[30]);
    ASSERT_EQ(removal.size(), 2u);
    EXPECT_TRUE(removal[1].removed);
    EXPECT_EQ(d->messages().size(), 7u);
    EXPECT_EQ(rwd::client_server::world_recording_version(bytes), rwd::client_server::kWorldRecordingVersion);
    EXPECT_TRUE(rwd::client_server::is_world_recording(bytes));
}

TEST(WorldRecording, EveryTruncationFlipAndOtherVersionIsRefused) {
    const auto bytes = sample_file();
    for (std::size_t n = 0; n < bytes.size(); ++n)
        EXPECT_FALSE(parse_world_recording(std::span<const std::uint8_t>(bytes.data(), n)).ok()) << n;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        auto damaged = bytes;
        damaged[i] ^= 0x10;
        EXPECT_FALSE(parse_world_recording(damaged).ok()) << "byte " << i;
    }
    auto old = bytes;
    old[4] = 0;
    const auto r = parse_world_recording(old);
    EXPECT_EQ(r.code(), Errc::rejected);
    EXPECT_NE(std::string(r.error().detail).find("older"), std::string::npos);
}

TEST(WorldRecording, TheWriterRefusesWhatItCannotWrite) {
    EXPECT_FALSE(WorldWriter::create(WorldRecordingHeader{"", 1, 60}, 10).ok());
    EXPECT_FALSE(WorldWriter::create(WorldRecordingHeader{"toy", 1, 0}, 10).ok());
    EXPECT_FALSE(WorldWriter::create(header(), 0).ok());
    WorldWriter w = WorldWriter::create(header(), 10).value();
    const auto a = blob(1, 2);
    const std::vector<WorldEntityBytes> unsorted{{2, a}, {1, a}};
    EXPECT_FALSE(w.add_tick(Tick{5}, unsorted).ok());
    const auto big = blob(1, 256);
    EXPECT_FALSE(w.add_tick(Tick{5}, std::vector<WorldEntityBytes>{{1, big}}).ok());
    EXPECT_TRUE(w.add_tick(Tick{5}, std::vector<WorldEntityBytes>{{1, a}}).ok());
    EXPECT_FALSE(w.add_tick(Tick{5}, std::vector<WorldEntityBytes>{{1, a}}).ok());  // not after the last
}

/// The world the server ended up with after each tick (a late-input replay overwrites its ticks).
struct Expected {
    std::map<std::uint32_t, std::vector<ToyGame::EntityRecord>> worlds;
    static void observe(void* user, Tick t, const ToyGame::State&, const ToyGame::State& after, bool) {
        auto& w = static_cast<Expected*>(user)->worlds[t.value];
        ToyGame::capture(after, w);
    }
};

TEST(WorldRecorder, AServersRecordingPlaysBackEveryFinalWorldAndTheMessagesClientsGot) {
    const std::uint64_t seed = 41;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    rwd::client_server::ServerConfig sc;
    sc.adaptive_input_buffer = false;  // a fixed buffer: the latency bursts below make inputs late
    Match<ToyGame> m(seed, link(40, 5, 0.05), sc);
    Expected expected;
    m.server->set_tick_observer(&Expected::observe, &expected);
    auto rec =
        WorldRecorder<ToyGame>::create(header(), 30, m.server->config().late_input_replay_ticks).value();
    m.server->set_recorder(rec.get());
    for (int i = 0; i < 3; ++i) m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    std::vector<HitMessage> received;  // client 0's, in order
    std::uint32_t first_tick = 0;
    const auto each = [&] {
        for (int i = 0; i < 3; ++i) {
            const std::uint32_t t = m.client(i).tick().value;
            m.client(i).set_input(move(i == 0 ? 100 : -60, 0, (t + static_cast<std::uint32_t>(i)) % 9 == 0));
        }
        rwd::client_server::Message msg;
        HitMessage h;
        while (m.client(0).poll_message(msg))
            if (m.client(0).read(msg, h)) {
                if (first_tick == 0) first_tick = msg.tick.value;
                received.push_back(h);
            }
    };
    for (int burst = 0; burst < 5; ++burst) {  // client 1's up link jumps by 50 ms for 60 ms every 1.1 s
        m.run(Micros{1'100'000}, each);
        ASSERT_TRUE(m.net->set_link(m.client_addrs[1], m.server_addr, link(90)).ok());
        m.run(Micros{60'000}, each);
        ASSERT_TRUE(m.net->set_link(m.client_addrs[1], m.server_addr, link(40, 5, 0.05)).ok());
    }
    m.run(Micros{500'000}, each);
    m.server->set_recorder(nullptr);
    EXPECT_EQ(rec->late_replays(), 0u);
    EXPECT_EQ(rec->errors(), 0u);
    EXPECT_GT(m.server->stats().replays, 0u) << "the jitter must make the server replay some ticks";
    const auto bytes = rec->bytes();
    auto data = parse_world_recording(bytes);
    ASSERT_TRUE(data.ok()) << data.error().detail;
    auto player = WorldPlayer<ToyGame>::create(std::move(data.value())).value();
    ASSERT_EQ(player.size(), expected.worlds.size());
    std::size_t compared = 0;
    std::vector<HitMessage> recorded;
    do {
        const auto& want = expected.worlds.at(player.tick().value);
        const auto& got = player.entities();
        ASSERT_EQ(got.size(), want.size()) << "tick " << player.tick().value;
        for (std::size_t i = 0; i < got.size(); ++i) {
            ASSERT_EQ(got[i].id, want[i].id);
            ASSERT_EQ(got[i].snap, want[i].snap) << "tick " << player.tick().value << " entity " << got[i].id;
        }
        ++compared;
        for (const auto& rm : player.messages()) {
            HitMessage h;
            if (first_tick != 0 && rm.tick.value >= first_tick &&
                rwd::client_server::read_message_as<ToyGame>(WorldPlayer<ToyGame>::as_message(rm), h))
                recorded.push_back(h);
        }
    } while (player.step());
    EXPECT_GT(compared, 300u);
    EXPECT_EQ(player.checksum_mismatches(), 0u);
    EXPECT_EQ(player.checksums_verified(), player.size());
    ASSERT_GT(received.size(), 5u);
    // Everything client 0 received from its first hit on was recorded in the same order (the recording may
    // hold a few more: sent near the end, still on their way).
    ASSERT_GE(recorded.size(), received.size());
    for (std::size_t i = 0; i < received.size(); ++i) EXPECT_EQ(recorded[i], received[i]) << i;

    const auto v = rwd::client_server::verify_world(player, 64, seed);
    EXPECT_TRUE(v.exact());
    EXPECT_LE(v.seek_ticks_mean, 31.0) << "a seek applies at most a keyframe interval of ticks";
    // Seeking far ahead first and then playing from the start still checks (and counts) every tick once.
    auto again = WorldPlayer<ToyGame>::create(parse_world_recording(bytes).value()).value();
    again.seek(again.size() - 1);
    again.seek(0);
    while (again.step()) {
    }
    EXPECT_EQ(again.checksums_verified(), again.size());
    EXPECT_EQ(again.checksum_mismatches(), 0u);
}

}  // namespace
