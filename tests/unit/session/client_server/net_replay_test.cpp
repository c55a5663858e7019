// Network recordings: a client recorded on a bursty, lossy link is re-run offline from the file alone and
// sends every datagram it sent, makes every correction it made (same ticks, same errors) and ends in the same
// state; a re-run with another config diverges and says so; damaged files are refused.
#include "toy_harness.hpp"

#include <rewind/session/client_server/net_replay.hpp>
#include <rewind/transport/net_recording.hpp>

namespace {

using namespace toy;
using rwd::transport::NetRecordingData;
using rwd::transport::parse_net_recording;
using rwd::transport::RecordingTransport;

struct Recorded {
    std::vector<std::uint8_t> bytes;
    std::uint64_t corrections = 0;
    rwd::Tick final_tick{};
};

/// One client whose up link's latency jumps by 50 ms for 60 ms every 1.1 s, with 5 % loss: late inputs the
/// server repeats (no replays) make it correct itself. It draws every frame and records everything.
Recorded record(std::uint64_t seed, const cs::ClientConfig& cc) {
    cs::ServerConfig sc;
    sc.adaptive_input_buffer = false;
    sc.late_input_replay_ticks = 0;
    Match<> m(seed, link(40, 4, 0.05), sc);
    const rwd::transport::Address addr{"recorded", 100};
    m.client_addrs.push_back(addr);
    auto* ep = m.net->create_endpoint(addr).value();
    RecordingTransport rec(*ep, rwd::transport::NetRecordingHeader{"net_replay_test", "toy", 0, 0});
    m.clients.push_back(std::make_unique<cs::Client<ToyGame>>(rec, cc));
    cs::Client<ToyGame>& c = m.client(0);
    c.record_to(&rec);
    EXPECT_TRUE(c.connect(m.server_addr, m.now).ok());
    const auto each = [&] {
        c.set_input(move(c.tick().value % 2 ? 100 : -100, 50));
        (void)c.render_entities(m.now);
    };
    m.run(rwd::Micros{1'000'000}, each);
    for (int b = 0; b < 4; ++b) {
        EXPECT_TRUE(m.net->set_link(addr, m.server_addr, link(90)).ok());
        m.run(rwd::Micros{60'000}, each);
        EXPECT_TRUE(m.net->set_link(addr, m.server_addr, link(40, 4, 0.05)).ok());
        m.run(rwd::Micros{1'100'000}, each);
    }
    c.disconnect(m.now);
    rec.note_result(cs::correction_log_bytes(c.corrections()));
    Recorded out;
    out.bytes = rec.bytes();
    out.corrections = c.stats().corrections;
    out.final_tick = c.tick();
    c.record_to(nullptr);
    return out;
}

cs::ClientConfig config() {
    cs::ClientConfig cc;
    cc.correction_log_size = 4096;
    return cc;
}

TEST(NetReplay, ARecordedClientReRunsExactlyFromTheFile) {
    const std::uint64_t seed = 51;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const Recorded r = record(seed, config());
    ASSERT_GT(r.corrections, 0u) << "the bursts must make the client correct itself";
    auto data = parse_net_recording(r.bytes);
    ASSERT_TRUE(data.ok()) << data.error().detail;
    EXPECT_EQ(data->header.app, "net_replay_test");
    const auto replay = cs::replay_client<ToyGame>(data.value(), config());
    EXPECT_TRUE(replay.divergence.none())
        << "differing sends " << replay.divergence.sends_differing << ", extra "
        << replay.divergence.sends_extra << ", skipped " << replay.divergence.records_skipped;
    EXPECT_GT(replay.divergence.sends_compared, 300u);
    EXPECT_EQ(replay.bad_calls, 0u);
    EXPECT_EQ(replay.stats.corrections, r.corrections);
    EXPECT_EQ(replay.stats.tick, r.final_tick);
    EXPECT_FALSE(replay.recorded_result.empty());
    EXPECT_EQ(cs::correction_log_bytes(replay.corrections), replay.recorded_result);
}

TEST(NetReplay, AReRunWithAnotherConfigDivergesAndSaysSo) {
    const std::uint64_t seed = 52;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const Recorded r = record(seed, config());
    auto data = parse_net_recording(r.bytes);
    ASSERT_TRUE(data.ok());
    cs::ClientConfig other = config();
    other.initial_extra_lead_ticks = 9;
    const auto replay = cs::replay_client<ToyGame>(data.value(), other);
    EXPECT_FALSE(replay.divergence.none());
    EXPECT_GT(replay.divergence.sends_differing + replay.divergence.records_skipped, 0u);
}

TEST(NetReplay, ARecordedServerReRunsExactlyFromTheFile) {
    const std::uint64_t seed = 54;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    cs::ServerConfig sc;
    sc.late_input_replay_ticks = 8;  // late inputs replayed, so the re-run must replay them the same way
    sc.resume_key.fill(0x5A);  // the secrets in the accepts: a re-run draws the same only from the same key
    Match<> m(seed, link(40, 8, 0.05), sc);
    RecordingTransport rec(*m.server_ep,
                           rwd::transport::NetRecordingHeader{"net_replay_test", "toy server", 0, 0});
    m.server = std::make_unique<cs::Server<ToyGame>>(rec, sc);
    m.server->record_to(&rec);
    for (int i = 0; i < 3; ++i) m.connect_client();
    ASSERT_TRUE(m.run_until_playing());
    m.run(rwd::Micros{4'000'000}, [&] {
        for (int i = 0; i < 3; ++i)
            m.client(i).set_input(move(m.client(i).tick().value % 3 ? 100 : -100, i * 30, i == 1));
    });
    m.server->kick(2, cs::DisconnectCode::cheating, m.now);
    m.run(rwd::Micros{500'000});
    rec.note_result(cs::server_outcome_bytes(*m.server));
    const auto live_replays = m.server->stats().replays;
    m.server->record_to(nullptr);
    auto data = parse_net_recording(rec.bytes());
    ASSERT_TRUE(data.ok()) << data.error().detail;
    const auto replay = cs::replay_server<ToyGame>(data.value(), sc, ToyGame::State{});
    EXPECT_TRUE(replay.divergence.none())
        << "differing sends " << replay.divergence.sends_differing << ", extra "
        << replay.divergence.sends_extra << ", skipped " << replay.divergence.records_skipped;
    EXPECT_GT(replay.divergence.sends_compared, 300u);
    EXPECT_EQ(replay.bad_calls, 0u);
    EXPECT_EQ(replay.result, replay.recorded_result);
    EXPECT_EQ(replay.stats.replays, live_replays);
    EXPECT_EQ(replay.stats.kicked_cheating, 1u);
}

TEST(NetReplay, DamagedTruncatedAndOtherVersionFilesAreRefused) {
    const Recorded r = record(53, config());
    const auto& b = r.bytes;
    for (std::size_t n = 0; n < b.size(); n += 1 + n / 64)
        EXPECT_FALSE(parse_net_recording(std::span<const std::uint8_t>(b.data(), n)).ok()) << n;
    for (std::size_t i = 0; i < b.size(); i += 1 + i / 64) {
        auto d = b;
        d[i] ^= 0x04;
        EXPECT_FALSE(parse_net_recording(d).ok()) << "byte " << i;
    }
    auto old = b;
    old[4] = 0;
    EXPECT_EQ(parse_net_recording(old).code(), rwd::Errc::rejected);
}

}  // namespace
