// P2PCore (src/session/rollback) without a game: it decides which frames to simulate and with which input
// bits, and asks the adapter for checksums and snapshots of confirmed frames only.
#include "session/rollback/p2p_core_impl.hpp"

#include <rewind/transport/sim_network.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace {

using rwd::Micros;
using rwd::rollback::Frame;
using rwd::rollback::InputBits;
using rwd::rollback::P2PConfig;
using rwd::rollback::detail::FrameInput;
using rwd::rollback::detail::GameAccess;
using rwd::rollback::detail::P2PCore;
using rwd::rollback::detail::SimTiming;
using rwd::rollback::detail::StateBytes;

InputBits bits_of(std::uint8_t v) {
    InputBits b;
    b.size = 1;
    b.bytes[0] = v;
    return b;
}

bool accept_all(const InputBits&) { return true; }

/// Records what the core asks of the game.
struct RecordingGame final : GameAccess {
    P2PCore* core = nullptr;
    std::vector<Frame> simulated;
    std::vector<InputBits> local_inputs;  // slot 0's bits per simulated frame
    std::vector<Frame> kept;
    int empty_slot_non_neutral = 0;

    SimTiming simulate(Frame f) override {
        simulated.push_back(f);
        const FrameInput in = core->frame_input(0, f);
        EXPECT_FALSE(in.predicted);
        local_inputs.push_back(in.bits != nullptr ? *in.bits : InputBits{});
        core->set_used(0, f, in.bits);
        empty_slot_non_neutral += core->frame_input(1, f).bits != nullptr ? 1 : 0;
        return {};
    }
    bool load(Frame) override { return false; }
    bool checksum_after(Frame f, std::uint64_t& out) const override {
        out = static_cast<std::uint64_t>(f) * 7;
        return true;
    }
    void keep_snapshot(Frame f) override { kept.push_back(f); }
    void forget_snapshots_after(Frame) override {}
    bool snapshot_bytes(Frame, StateBytes&) const override { return false; }
    bool saved_bytes(Frame, StateBytes&) const override { return false; }
    bool load_bytes(std::span<const std::uint8_t>, std::uint64_t&) override { return false; }
    void describe_diff(const rwd::rollback::DesyncReport&, std::string&) const override {}
};

TEST(P2PCore, SimulatesEachFrameOnceWithTheDelayedLocalBitsAndChecksumsConfirmedFrames) {
    rwd::transport::SimNetwork net(rwd::transport::SimNetworkConfig{});
    rwd::transport::Transport* t = net.listen(rwd::transport::Address{"solo", 7000}, 4).value();
    P2PConfig c;
    c.num_players = 2;  // slot 1 stays empty: neutral and confirmed
    c.input_delay = 2;
    c.checksum_interval = 5;
    RecordingGame game;
    const InputBits neutral = bits_of(0);
    P2PCore core(*t, c, &accept_all, &neutral, game);
    game.core = &core;
    ASSERT_TRUE(core.add_local_player(0).ok());
    Micros now{0};
    for (int f = 0; f < 21; ++f) {
        now += Micros{16'667};
        ASSERT_TRUE(core.add_local_input(0, bits_of(static_cast<std::uint8_t>(f + 1))).ok());
        const auto r = core.advance(now);
        ASSERT_TRUE(r.advanced()) << f;
        EXPECT_EQ(r.frame, f);
    }
    ASSERT_EQ(game.simulated.size(), 21u);
    for (int f = 0; f < 21; ++f) {
        EXPECT_EQ(game.simulated[static_cast<std::size_t>(f)], f);
        const InputBits expected = f < 2 ? neutral : bits_of(static_cast<std::uint8_t>(f - 1));
        EXPECT_EQ(game.local_inputs[static_cast<std::size_t>(f)], expected) << f;
    }
    EXPECT_EQ(game.empty_slot_non_neutral, 0);
    EXPECT_EQ(core.confirmed_frame(), 20);
    EXPECT_EQ(game.kept, (std::vector<Frame>{0, 5, 10, 15, 20}));
    const InputBits* confirmed = nullptr;
    ASSERT_TRUE(core.confirmed_input(0, 7, confirmed));
    ASSERT_NE(confirmed, nullptr);
    EXPECT_EQ(*confirmed, bits_of(6));
    ASSERT_TRUE(core.confirmed_input(1, 7, confirmed));
    EXPECT_EQ(confirmed, nullptr);  // empty slot: neutral
    EXPECT_EQ(core.stats().rollbacks, 0u);
}

TEST(P2PCore, RefusesLocalInputForASlotItDoesNotPlay) {
    rwd::transport::SimNetwork net(rwd::transport::SimNetworkConfig{});
    rwd::transport::Transport* t = net.listen(rwd::transport::Address{"solo", 7000}, 4).value();
    RecordingGame game;
    P2PCore core(*t, P2PConfig{}, &accept_all, nullptr, game);
    ASSERT_TRUE(core.add_local_player(0).ok());
    EXPECT_FALSE(core.add_local_input(1, bits_of(1)).ok());
    EXPECT_FALSE(core.add_local_input(-1, bits_of(1)).ok());
    EXPECT_TRUE(core.add_local_input(0, bits_of(1)).ok());
}

}  // namespace
