// SpectatorSession: joins mid-match and catches up, starts before the host, leaves without disturbing
// players.
#include "rb_harness.hpp"

#include <rewind/session/rollback/spectator_session.hpp>

namespace {

using namespace rbtest;
using rwd::rollback::SessionEvent;
using rwd::rollback::SpectatorConfig;
using rwd::rollback::SpectatorSession;
using namespace rwd::literals;

LinkConfig spectator_link() {
    LinkConfig l;
    l.latency = 40_ms;
    l.jitter = 5_ms;
    l.loss = 0.03;
    l.reorder = 0.03;
    return l;
}

/// A spectator endpoint connected to peer 0 (the host) of `mesh`.
struct Watcher {
    Transport* transport = nullptr;
    std::unique_ptr<SpectatorSession<toy::Game>> session;
    std::vector<SessionEvent> events;
    bool paused = false;

    Watcher(Mesh<>& mesh, int index, SpectatorConfig c = {}) {
        transport = mesh.net().listen(Address{"spectator" + std::to_string(index), 9000}, 4).value();
        const PeerId host = transport->connect(peer_address(0)).value();
        c.num_players = static_cast<int>(mesh.peers().size());
        c.seed = 1000 + static_cast<std::uint64_t>(index);
        session = SpectatorSession<toy::Game>::create(*transport, host, c, toy::State{}).value();
    }

    void tick(Micros now) {
        if (paused) return;
        (void)session->advance(now);
        SessionEvent e;
        while (session->poll_event(e)) events.push_back(e);
    }
};

/// Runs the mesh and the watchers together in 1 ms steps; watchers advance once per 16 ms.
void run_with(Mesh<>& mesh, std::vector<Watcher*> watchers, Micros duration) {
    const Micros end = mesh.now() + duration;
    while (mesh.now() < end) {
        mesh.run(1_ms);
        if ((mesh.now().count / 1000) % 16 == 0) {
            for (Watcher* w : watchers) w->tick(mesh.now());
        }
    }
}

/// Every frame the spectator still remembers matches the host's confirmed checksum.
std::size_t expect_same_as_host(Mesh<>& mesh, const Watcher& w) {
    std::size_t n = 0;
    for (const auto& [f, cs] : mesh.peer(0).checksums) {
        std::uint64_t mine = 0;
        if (!w.session->frame_checksum(f, mine)) continue;
        EXPECT_EQ(mine, cs) << "frame " << f;
        ++n;
    }
    return n;
}

std::size_t count(const std::vector<SessionEvent>& ev, SessionEvent::Type t) {
    return static_cast<std::size_t>(
        std::count_if(ev.begin(), ev.end(), [t](const SessionEvent& e) { return e.type == t; }));
}

TEST(Spectator, JoinsMidMatchCatchesUpAndFollows) {
    const std::uint64_t seed = 71;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, spectator_link(), P2PConfig{});
    mesh.run(4_s);
    Watcher w(mesh, 0);
    run_with(mesh, {&w}, 6_s);
    EXPECT_TRUE(w.session->running());
    EXPECT_EQ(count(w.events, SessionEvent::Type::running), 1u);
    EXPECT_GT(w.session->catchups(), 0u) << "never ran faster to catch up";
    EXPECT_LT(w.session->frames_behind(), 12) << "did not catch up";
    EXPECT_GT(w.session->current_frame(), mesh.peer(0).session->current_frame() - 15);
    EXPECT_GT(expect_same_as_host(mesh, w), 300u);
    EXPECT_EQ(mesh.count_events(0, SessionEvent::Type::spectator_joined), 1u);
    // The players saw nothing but that.
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::interrupted), 0u);
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::disconnected), 0u);
    }
    EXPECT_GT(mesh.expect_agreement(), 400u);
}

TEST(Spectator, StartedBeforeTheHost) {
    // Regression: a spectator that knocks before the host's session runs must still get in and see frame 0
    // on.
    const std::uint64_t seed = 73;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, spectator_link(), P2PConfig{});
    mesh.peer(0).paused = true;
    mesh.peer(1).paused = true;
    Watcher w(mesh, 0);
    run_with(mesh, {&w}, 1500_ms);  // the host's session does not exist yet as far as the network can tell
    EXPECT_FALSE(w.session->running());
    EXPECT_EQ(w.session->current_frame(), 0);
    mesh.peer(0).paused = false;
    mesh.peer(1).paused = false;
    run_with(mesh, {&w}, 5_s);
    EXPECT_TRUE(w.session->running());
    EXPECT_GT(w.session->current_frame(), 200);
    EXPECT_GT(expect_same_as_host(mesh, w), 200u);
}

TEST(Spectator, LeavingMidMatchDoesNotDisturbThePlayers) {
    const std::uint64_t seed = 79;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, spectator_link(), P2PConfig{});
    Watcher polite(mesh, 0);
    Watcher vanishing(mesh, 1);
    run_with(mesh, {&polite, &vanishing}, 4_s);
    ASSERT_EQ(mesh.peer(0).session->num_spectators(), 2);
    const Frame f0 = mesh.peer(0).session->current_frame();
    polite.session->close(mesh.now());
    vanishing.paused = true;  // just stops, never says goodbye
    mesh.net().close_endpoint(Address{"spectator1", 9000});
    // The players keep their full pace through the spectators' departure (no stall waiting for them).
    for (int k = 0; k < 15; ++k) {
        const Frame a = mesh.peer(0).session->current_frame();
        run_with(mesh, {&polite, &vanishing}, 200_ms);
        EXPECT_GE(mesh.peer(0).session->current_frame() - a, 10) << "players stalled at step " << k;
    }
    EXPECT_GE(mesh.peer(0).session->current_frame() - f0, 170);
    EXPECT_EQ(mesh.count_events(0, SessionEvent::Type::spectator_left), 2u);
    EXPECT_EQ(mesh.peer(0).session->num_spectators(), 0);
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::interrupted), 0u);
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::disconnected), 0u);
    }
    // A new spectator can take the freed seat.
    Watcher late(mesh, 2);
    run_with(mesh, {&late}, 4_s);
    EXPECT_TRUE(late.session->running());
    EXPECT_GT(expect_same_as_host(mesh, late), 100u);
}

TEST(Spectator, CatchesUpFromMoreThan32767FramesBehind) {
    // Regression: the distance to the host does not fit a 16-bit integer; catching up must still run faster.
    const std::uint64_t seed = 83;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    LinkConfig clean;
    clean.latency = 10_ms;
    Mesh mesh(2, seed, clean, P2PConfig{});
    mesh.run(Micros{560'000'000});  // 560 s: about 33 600 frames
    ASSERT_GT(mesh.peer(0).session->current_frame(), 32767 + 200);
    SpectatorConfig c;
    c.max_catchup_frames = 200;
    Watcher w(mesh, 0, c);
    Frame max_behind = 0;
    for (int k = 0; k < 250; ++k) {
        run_with(mesh, {&w}, 100_ms);
        max_behind = std::max(max_behind, w.session->frames_behind());
    }
    ASSERT_TRUE(w.session->running());
    EXPECT_GT(max_behind, 32767) << "the spectator never knew how far behind it was";
    EXPECT_LT(w.session->frames_behind(), 12);
    EXPECT_GT(expect_same_as_host(mesh, w), 300u);
}

}  // namespace
