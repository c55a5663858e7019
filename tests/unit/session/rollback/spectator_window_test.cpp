// The host's spectator input history is a bounded window: memory stays flat, a spectator behind it is dropped
// with the reason too_far_behind on both sides, and one that keeps up follows past the window's length.
#include "rb_harness.hpp"

#include <rewind/session/rollback/spectator_session.hpp>

#include <algorithm>

namespace {

using namespace rbtest;
using rwd::rollback::LeaveReason;
using rwd::rollback::SessionEvent;
using rwd::rollback::SpectatorConfig;
using rwd::rollback::SpectatorSession;
using namespace rwd::literals;

LinkConfig window_link() {
    LinkConfig l;
    l.latency = 30_ms;
    l.jitter = 5_ms;
    l.loss = 0.02;
    return l;
}

/// A spectator of peer 0 (the host), advanced every 16 ms unless paused.
struct Viewer {
    Transport* transport = nullptr;
    std::unique_ptr<SpectatorSession<toy::Game>> session;
    std::vector<SessionEvent> events;
    bool paused = false;

    Viewer(Mesh<>& mesh, int index) {
        transport = mesh.net().listen(Address{"viewer" + std::to_string(index), 9100}, 4).value();
        const PeerId host = transport->connect(peer_address(0)).value();
        SpectatorConfig c;
        c.num_players = static_cast<int>(mesh.peers().size());
        c.seed = 2000 + static_cast<std::uint64_t>(index);
        c.max_catchup_frames = 30;
        session = SpectatorSession<toy::Game>::create(*transport, host, c, toy::State{}).value();
    }

    void tick(Micros now) {
        if (paused) return;
        (void)session->advance(now);
        SessionEvent e;
        while (session->poll_event(e)) events.push_back(e);
    }
};

void run_with(Mesh<>& mesh, Viewer& v, Micros duration) {
    const Micros end = mesh.now() + duration;
    while (mesh.now() < end) {
        mesh.run(1_ms);
        if ((mesh.now().count / 1000) % 16 == 0) v.tick(mesh.now());
    }
}

std::vector<SessionEvent> host_events(Mesh<>& mesh, SessionEvent::Type t) {
    std::vector<SessionEvent> out;
    for (const auto& e : mesh.peer(0).events)
        if (e.type == t) out.push_back(e);
    return out;
}

P2PConfig windowed(int frames) {
    P2PConfig c;
    c.spectator_history_frames = frames;
    return c;
}

void expect_players_undisturbed(Mesh<>& mesh) {
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::interrupted), 0u);
        EXPECT_EQ(mesh.count_events(i, SessionEvent::Type::disconnected), 0u);
    }
    EXPECT_GT(mesh.expect_agreement(), 200u);
}

TEST(SpectatorWindow, HistoryStaysWithinTheWindow) {
    const std::uint64_t seed = 201;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, window_link(), windowed(120));
    std::uint64_t most = 0;
    for (int k = 0; k < 40; ++k) {
        mesh.run(250_ms);
        most = std::max(most, mesh.peer(0).session->stats().spectator_history);
    }
    EXPECT_GT(mesh.peer(0).session->current_frame(), 500);  // several windows' worth of frames
    EXPECT_EQ(most, 120u) << "the window never filled, or grew past its bound";
    EXPECT_EQ(mesh.peer(0).session->stats().spectator_history, 120u);
}

TEST(SpectatorWindow, JoiningBehindTheWindowIsDroppedWithAReason) {
    const std::uint64_t seed = 203;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    Mesh mesh(2, seed, window_link(), windowed(120));
    mesh.run(5_s);  // ~300 frames: frame 0 has left the 120-frame window
    Viewer v(mesh, 0);
    run_with(mesh, v, 3_s);
    const auto left = host_events(mesh, SessionEvent::Type::spectator_left);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].reason, LeaveReason::too_far_behind);
    EXPECT_EQ(mesh.peer(0).session->stats().spectators_dropped, 1u);
    EXPECT_EQ(mesh.peer(0).session->num_spectators(), 0);
    EXPECT_EQ(v.session->leave_reason(), LeaveReason::too_far_behind);
    const auto gone = std::find_if(v.events.begin(), v.events.end(), [](const SessionEvent& e) {
        return e.type == SessionEvent::Type::disconnected;
    });
    ASSERT_NE(gone, v.events.end());
    EXPECT_EQ(gone->reason, LeaveReason::too_far_behind);
    EXPECT_EQ(v.session->advance(mesh.now()).status, rwd::rollback::AdvanceStatus::finished);
    EXPECT_EQ(v.session->current_frame(), 0);  // it never simulated inputs it could not have had whole
    expect_players_undisturbed(mesh);
}

TEST(SpectatorWindow, FallingBehindMidMatchIsDroppedKeepingUpIsNot) {
    const std::uint64_t seed = 207;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    P2PConfig c = windowed(60);  // one second
    c.disconnect_notice = 5_s;   // so that a paused spectator is dropped for the window, not for its silence
    c.disconnect_timeout = 10_s;
    Mesh mesh(2, seed, window_link(), c);
    Viewer v(mesh, 0);
    run_with(mesh, v, 6_s);  // keeps up for six windows
    ASSERT_TRUE(v.session->running());
    EXPECT_EQ(v.session->leave_reason(), LeaveReason::none);
    EXPECT_GT(v.session->current_frame(), 250);
    EXPECT_TRUE(host_events(mesh, SessionEvent::Type::spectator_left).empty());
    std::size_t same = 0;
    for (const auto& [f, cs] : mesh.peer(0).checksums) {
        std::uint64_t mine = 0;
        if (!v.session->frame_checksum(f, mine)) continue;
        EXPECT_EQ(mine, cs) << "frame " << f;
        ++same;
    }
    EXPECT_GT(same, 250u);
    v.paused = true;  // stops acknowledging for two windows
    run_with(mesh, v, 2_s);
    const auto left = host_events(mesh, SessionEvent::Type::spectator_left);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].reason, LeaveReason::too_far_behind);
    v.paused = false;
    run_with(mesh, v, 1_s);
    EXPECT_EQ(v.session->leave_reason(), LeaveReason::too_far_behind);
    EXPECT_LE(mesh.peer(0).session->stats().spectator_history, 60u);
    expect_players_undisturbed(mesh);
}

TEST(SpectatorWindow, WindowMustOutlastThePredictionWindow) {
    P2PConfig c;
    c.max_prediction = 8;
    c.spectator_history_frames = 9;
    EXPECT_FALSE(c.validate().ok());
    c.spectator_history_frames = 10;
    EXPECT_TRUE(c.validate().ok());
}

TEST(SpectatorWindow, GoodbyeCarriesItsReason) {
    for (const LeaveReason r : {LeaveReason::none, LeaveReason::left, LeaveReason::too_far_behind}) {
        rwd::rollback::Message m;
        m.type = rwd::rollback::MsgType::goodbye;
        m.sender_nonce = 77;
        m.reason = r;
        std::array<std::uint8_t, 64> buf{};
        const auto n = rwd::rollback::encode_message(m, buf);
        ASSERT_TRUE(n.ok());
        rwd::rollback::Message back;
        ASSERT_TRUE(
            rwd::rollback::decode_message(std::span<const std::uint8_t>(buf.data(), n.value()), back).ok());
        EXPECT_EQ(back.reason, r);
        EXPECT_EQ(rwd::rollback::leave_reason_name(r).empty(), false);
    }
}

}  // namespace
