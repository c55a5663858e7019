/// --transport websocket: the option, and a short client-server pass over the TCP-like stream (every event
/// delivered in order, the stream's figures filled in, snapshots stalling behind losses as they do not on
/// UDP).
#include "cs_match.hpp"
#include "options.hpp"

#include <gtest/gtest.h>
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace {

lab::LabOptions parse(std::vector<std::string> args) {
    lab::LabOptions o;
    CLI::App app;
    lab::add_options(app, o);
    args.insert(args.begin(), "rewind-lab");
    std::vector<const char*> argv;
    for (auto& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    return o;
}

lab::PassConfig short_pass(std::uint64_t seed, bool stream) {
    lab::PassConfig p;
    p.players = 4;
    p.duration_s = 12;
    p.seed = seed;
    p.up.latency = p.down.latency = rwd::Micros{100'000};
    p.up.jitter = p.down.jitter = rwd::Micros{20'000};
    p.up.loss = p.down.loss = 0.05;
    p.stream = stream;
    return p;
}

}  // namespace

TEST(LabTransport, TheOptionTakesUdpOrWebsocketAndOnlyForClientServer) {
    EXPECT_EQ(parse({}).transport, "udp");
    EXPECT_FALSE(parse({}).stream());
    const auto ws = parse({"--transport", "websocket"});
    EXPECT_TRUE(ws.stream());
    EXPECT_TRUE(ws.validate().ok());
    EXPECT_FALSE(parse({"--transport", "websocket", "--model", "rollback"}).validate().ok());
    EXPECT_THROW(parse({"--transport", "tcp"}), CLI::ValidationError);
}

TEST(LabTransport, AWebsocketPassDeliversEveryEventAndStallsBehindLosses) {
    for (std::uint64_t seed : {1ULL, 7ULL}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        const lab::PassFigures udp = lab::run_pass(short_pass(seed, false));
        const lab::PassFigures ws = lab::run_pass(short_pass(seed, true));
        EXPECT_EQ(udp.transport.transport, "udp");
        EXPECT_EQ(ws.transport.transport, "websocket");
        EXPECT_EQ(ws.playing, 4);
        EXPECT_EQ(ws.disconnects, 0u);
        // Reliable events: all of them, once, in order, on both.
        EXPECT_GT(ws.channel.events_sent, 0u);
        EXPECT_EQ(ws.channel.events_received, ws.channel.events_sent);
        EXPECT_EQ(ws.channel.events_out_of_order, 0u);
        // The stream resends about 5 % of its segments and holds later ones back behind them.
        EXPECT_GT(ws.transport.segments_down, 0u);
        EXPECT_GT(ws.transport.retransmissions_down, ws.transport.segments_down / 50);
        EXPECT_LT(ws.transport.retransmissions_down, ws.transport.segments_down / 10);
        EXPECT_GT(ws.transport.held_back_down, ws.transport.retransmissions_down);
        EXPECT_GT(ws.transport.max_held_back_ms, 150.0);  // at least a loss: about 1.25 RTT of 200 ms
        EXPECT_EQ(udp.transport.segments_down, 0u);
        // Head-of-line blocking: the longest stall without a snapshot is far longer than on UDP.
        EXPECT_GT(ws.channel.max_snapshot_gap_ms, udp.channel.max_snapshot_gap_ms + 100.0);
        EXPECT_GT(ws.transport.wire_kbps_down, 0.0);
        EXPECT_GT(udp.transport.wire_kbps_down, 0.0);
    }
}
