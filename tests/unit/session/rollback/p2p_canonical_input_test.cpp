// P2PSession simulates inputs as the peers decode them: a local input with a field serialize() drops, and a
// predictor's guess with no bits of its own, never split the peers.
#include "rb_harness.hpp"

namespace {

using namespace rbtest;
using rwd::rollback::SessionEvent;
using namespace rwd::literals;

/// The toy game whose step also reads Input::reserved, a field toy::serialize() never sends.
struct ReservedGame {
    static constexpr int kMaxPlayers = 8;
    using State = toy::State;
    using Input = toy::Input;
    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<ReservedGame>*) {
        toy::step_state(s, inputs);
        for (std::size_t p = 0; p < inputs.size(); ++p) s.bodies[p].score += inputs[p].reserved;
    }
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s); }
};

/// ReservedGame with a predictor whose guesses set `reserved`: equal on the wire to the last input, yet
/// different to simulate.
struct GuessingGame {
    static constexpr int kMaxPlayers = 8;
    using State = toy::State;
    using Input = toy::Input;
    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<GuessingGame>*) {
        ReservedGame::step(s, inputs, nullptr);
    }
    static std::uint64_t checksum(const State& s) { return rwd::checksum_of(s); }
    static Input predict_input(const Input& last, Frame) {
        Input guess = last;
        guess.reserved = 1;
        return guess;
    }
};

LinkConfig jittery_link() {
    LinkConfig l;
    l.latency = 50_ms;
    l.jitter = 10_ms;
    return l;
}

TEST(P2PCanonicalInput, LocalInputIsSimulatedAsThePeersDecodeIt) {
    const std::uint64_t seed = 71;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh<ReservedGame> mesh(2, seed, jittery_link(), P2PConfig{});
    mesh.peer(0).input_fn = [seed](int slot, Frame f) {
        toy::Input in = toy::scripted_input(seed, slot, f);
        in.reserved = 3;  // not on the wire: the peer sees 0, so this side must simulate 0 as well
        return in;
    };
    mesh.run(4_s);
    EXPECT_GT(mesh.peer(0).session->current_frame(), 150);
    EXPECT_GT(mesh.expect_agreement(), 150u);
    for (int i = 0; i < 2; ++i) EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
    for (const auto& [f, inputs] : mesh.peer(0).inputs) ASSERT_EQ(inputs[0].reserved, 0) << f;
}

TEST(P2PCanonicalInput, AGuessWithoutBitsOfItsOwnIsAlwaysCorrected) {
    const std::uint64_t seed = 72;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh<GuessingGame> mesh(2, seed, jittery_link(), P2PConfig{});
    mesh.run(4_s);
    EXPECT_GT(mesh.peer(0).session->current_frame(), 150);
    // Every guess encodes like the confirmed input it stands for, yet simulates differently: comparing bits
    // alone would keep the guesses and split the peers.
    EXPECT_GT(mesh.expect_agreement(), 150u);
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::desync_detected), 0u);
        EXPECT_GT(mesh.peer(i).session->stats().rollbacks, 50u);
    }
}

}  // namespace
