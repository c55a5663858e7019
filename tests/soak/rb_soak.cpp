// The rollback soak: arena bots as rollback peers in a full mesh on SimNetwork with the soak link; every
// confirmed frame's checksum is compared across all peers; heap sampled every simulated interval.
#include "soak/rb_soak.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>

#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/transport/sim_network.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

namespace soak {
namespace {

using arena::ArenaGame;
using rwd::Micros;
using rwd::rollback::Frame;
namespace rb = rwd::rollback;
namespace tp = rwd::transport;
using Session = rb::P2PSession<ArenaGame>;

constexpr Micros kStep{2'000};  // the loop's resolution; frames are due every 16 667 us of scaled time
constexpr double kFrameUs = 16'667.0;

struct RbPeer {
    tp::Address addr;
    tp::Transport* ep = nullptr;
    std::unique_ptr<Session> session;
    arena::Bot bot{0};
    double accumulator = 0.0;
    Frame checked = rb::kNullFrame;
};

/// Per confirmed frame: the first checksum reported, how many peers reported, whether any differed.
struct FrameCheck {
    std::uint64_t checksum = 0;
    bool has = false;
    int reports = 0;
    bool mismatch = false;
};

}  // namespace

RbSoakReport run_rb_soak(const SoakOptions& o) {
    const auto wall0 = std::chrono::steady_clock::now();
    RbSoakReport r;
    const int n = o.rb_peers;
    r.peers = n;
    tp::SimNetworkConfig nc;
    nc.seed = o.seed + 1;
    nc.default_link = soak_link();
    tp::SimNetwork net(nc);
    std::vector<RbPeer> peers(static_cast<std::size_t>(n));
    Micros now{1'000'000};
    for (int i = 0; i < n; ++i) {
        RbPeer& p = peers[static_cast<std::size_t>(i)];
        p.addr = tp::Address{"peer" + std::to_string(i), static_cast<std::uint16_t>(7000 + i)};
        p.ep = net.listen(p.addr, 8).value();
        p.bot = arena::Bot(o.seed * 7919 + static_cast<std::uint64_t>(i));
    }
    // Full mesh, one pair at a time (a connected event does not say who connected, so pairs go one by one);
    // the transports' own retries carry each handshake through the loss.
    std::vector<std::vector<tp::PeerId>> ids(static_cast<std::size_t>(n),
                                             std::vector<tp::PeerId>(static_cast<std::size_t>(n)));
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            RbPeer& a = peers[static_cast<std::size_t>(i)];
            RbPeer& b = peers[static_cast<std::size_t>(j)];
            const tp::PeerId ab = a.ep->connect(b.addr).value();
            tp::PeerId ba = tp::kInvalidPeer;
            bool a_ok = false;
            for (int k = 0; k < 30'000 && (!a_ok || ba == tp::kInvalidPeer); ++k) {
                now += Micros{1'000};
                net.advance_to(now);
                tp::TransportEvent ev;
                while (a.ep->poll(ev))
                    a_ok = a_ok || (ev.type == tp::TransportEvent::Type::connected && ev.peer == ab);
                while (b.ep->poll(ev))
                    if (ev.type == tp::TransportEvent::Type::connected) ba = ev.peer;
            }
            if (!a_ok || ba == tp::kInvalidPeer) return r;
            ids[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = ab;
            ids[static_cast<std::size_t>(j)][static_cast<std::size_t>(i)] = ba;
        }
    }
    arena::State initial = arena::new_match(o.seed);
    for (int i = 0; i < n; ++i) ArenaGame::add_player(initial, i);
    for (int i = 0; i < n; ++i) {
        rb::P2PConfig c;
        c.num_players = n;
        c.input_delay = 4;
        c.max_prediction = 16;  // 300 ms one way is 18 frames: a deep window keeps the match moving
        c.max_spectators = 0;   // no spectators: no spectator input history
        c.seed = o.seed * 31 + static_cast<std::uint64_t>(i);
        RbPeer& p = peers[static_cast<std::size_t>(i)];
        p.session = Session::create(*p.ep, c, initial).value();
        if (!p.session->add_local_player(i).ok()) return r;
        for (int j = 0; j < n; ++j)
            if (j != i &&
                !p.session
                     ->add_remote_player(j, ids[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)])
                     .ok())
                return r;
    }

    std::map<Frame, FrameCheck> checks;
    auto collect = [&](RbPeer& p) {
        rb::SessionEvent e;
        while (p.session->poll_event(e)) {
            if (e.type == rb::SessionEvent::Type::desync_detected) ++r.desync_events;
            if (e.type == rb::SessionEvent::Type::disconnected) ++r.disconnect_events;
        }
        const Frame c = p.session->confirmed_frame();
        for (Frame f = p.checked + 1; f <= c; ++f) {
            FrameCheck& fc = checks[f];
            std::uint64_t sum = 0;
            if (!p.session->frame_checksum(f, sum)) {
                ++r.frames_missed;
            } else if (!fc.has) {
                fc.has = true;
                fc.checksum = sum;
            } else if (fc.checksum != sum) {
                fc.mismatch = true;
            }
            if (++fc.reports == n) {
                ++r.frames_compared;
                if (fc.mismatch) ++r.checksum_mismatches;
                checks.erase(f);
            }
        }
        p.checked = std::max(p.checked, c);
    };
    auto step = [&] {
        now += kStep;
        for (int i = 0; i < n; ++i) {
            RbPeer& p = peers[static_cast<std::size_t>(i)];
            p.accumulator += static_cast<double>(kStep.count) * p.session->time_scale();
            if (p.accumulator >= kFrameUs) {
                p.accumulator = std::min(p.accumulator - kFrameUs, 4 * kFrameUs);
                const arena::Input in = p.bot.think(arena::view_of(p.session->state(), i));
                (void)p.session->add_local_input(i, in);
                (void)p.session->advance(now);
            } else {
                p.session->update(now);
            }
            collect(p);
        }
    };
    const Micros start_limit = now + Micros{60'000'000};
    while (now < start_limit &&
           !std::all_of(peers.begin(), peers.end(), [](const RbPeer& p) { return p.session->running(); }))
        step();
    r.running = std::all_of(peers.begin(), peers.end(), [](const RbPeer& p) { return p.session->running(); });
    const Micros start = now;
    const Micros end = start + Micros::from_seconds(o.rb_minutes * 60.0);
    const Micros every = Micros::from_seconds(o.sample_seconds);
    Micros next_sample = start;
    while (r.running && now < end) {
        step();
        if (now >= next_sample) {
            r.heap.sample();
            next_sample += every;
        }
    }
    r.simulated_seconds = (now - start).seconds();
    r.frames = peers.empty() ? 0 : peers[0].checked;
    for (RbPeer& p : peers) {
        r.frames = std::min<std::int64_t>(r.frames, p.checked);
        const rb::SessionStats st = p.session->stats();
        r.rollbacks += st.rollbacks;
        r.malformed += st.malformed;
    }
    r.real_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    char line[512];
    std::snprintf(
        line, sizeof line,
        "rollback soak seed=%llu: %d peers, %.0f s simulated in %.1f s real; %lld frames confirmed by all; "
        "%llu frames compared, %llu mismatched, %llu missed; desync events %llu, disconnects %llu; "
        "rollbacks %llu; malformed %llu; heap MiB early peak %.2f late peak %.2f",
        static_cast<unsigned long long>(o.seed), n, r.simulated_seconds, r.real_seconds,
        static_cast<long long>(r.frames), static_cast<unsigned long long>(r.frames_compared),
        static_cast<unsigned long long>(r.checksum_mismatches),
        static_cast<unsigned long long>(r.frames_missed), static_cast<unsigned long long>(r.desync_events),
        static_cast<unsigned long long>(r.disconnect_events), static_cast<unsigned long long>(r.rollbacks),
        static_cast<unsigned long long>(r.malformed), static_cast<double>(r.heap.early_peak()) / 1048576.0,
        static_cast<double>(r.heap.late_peak()) / 1048576.0);
    r.summary = std::string(line) + " [" + r.heap.describe() + "]";
    return r;
}

}  // namespace soak
