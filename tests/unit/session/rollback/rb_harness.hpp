// Test helper: N rollback peers (toy game) in a full mesh over a seeded SimNetwork, driven by virtual frame
// clocks.
#pragma once

#include "toy_game.hpp"

#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/transport/sim_network.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rbtest {

using rwd::Micros;
using rwd::rollback::Frame;
using rwd::rollback::P2PConfig;
using rwd::rollback::P2PSession;
using rwd::transport::Address;
using rwd::transport::LinkConfig;
using rwd::transport::PeerId;
using rwd::transport::SimNetwork;
using rwd::transport::SimNetworkConfig;
using rwd::transport::Transport;
using rwd::transport::TransportEvent;

inline Address peer_address(int i) { return Address{"peer" + std::to_string(i), 7000}; }

/// Connects endpoint a to endpoint b and runs the network until both sides saw `connected`.
/// Returns {a's id for b, b's id for a}.
inline std::pair<PeerId, PeerId> connect_pair(SimNetwork& net, Transport& a, Transport& b,
                                              const Address& b_addr, Micros& now) {
    const PeerId ab = a.connect(b_addr).value();
    PeerId ba = rwd::transport::kInvalidPeer;
    bool a_ok = false;
    for (int i = 0; i < 20000 && (!a_ok || ba == rwd::transport::kInvalidPeer); ++i) {
        now += Micros{1000};
        net.advance_to(now);
        TransportEvent e;
        while (a.poll(e)) a_ok = a_ok || (e.type == TransportEvent::Type::connected && e.peer == ab);
        while (b.poll(e)) {
            if (e.type == TransportEvent::Type::connected) ba = e.peer;
        }
    }
    return {ab, ba};
}

/// One machine: its endpoint, its session (one local player in slot `index`), its frame clock.
template <class G = toy::Game>
struct Peer {
    Transport* transport = nullptr;
    std::unique_ptr<P2PSession<G>> session;
    int index = 0;
    double accumulator = 0.0;
    bool paused = false;         ///< no update/advance calls at all (a frozen process)
    bool use_time_scale = true;  ///< follow the session's recommended speed
    double clock_rate = 1.0;     ///< this machine's clock speed (drift)
    Frame checked = rwd::rollback::kNullFrame;
    std::map<Frame, std::uint64_t> checksums;         ///< checksum of every confirmed frame
    std::map<Frame, std::vector<toy::Input>> inputs;  ///< final inputs of every confirmed frame, all players
    std::vector<toy::Input> committed;  ///< local inputs of advances that simulated a frame, in order
    std::vector<rwd::rollback::SessionEvent> events;
    std::function<toy::Input(int, Frame)> input_fn;
    std::uint64_t advances = 0;
};

/// N peers in a full mesh.
template <class G = toy::Game>
class Mesh {
public:
    Mesh(int n, std::uint64_t seed, const LinkConfig& link, const P2PConfig& base,
         std::function<typename G::State(int)> initial_for = nullptr)
        : seed_(seed), net_(make_net_config(seed, link)) {
        peers_.resize(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) peers_[i].transport = net_.listen(peer_address(i), 16).value();
        std::vector<std::vector<PeerId>> ids(n, std::vector<PeerId>(n, 0));
        for (int i = 0; i < n; ++i) {
            for (int j = i + 1; j < n; ++j) {
                auto [ij, ji] =
                    connect_pair(net_, *peers_[i].transport, *peers_[j].transport, peer_address(j), now_);
                ids[i][j] = ij;
                ids[j][i] = ji;
            }
        }
        for (int i = 0; i < n; ++i) {
            P2PConfig c = base;
            c.num_players = n;
            c.seed = seed * 31 + static_cast<std::uint64_t>(i);
            Peer<G>& p = peers_[i];
            p.index = i;
            const typename G::State initial = initial_for ? initial_for(i) : typename G::State{};
            p.session = P2PSession<G>::create(*p.transport, c, initial).value();
            EXPECT_TRUE(p.session->add_local_player(i).ok());
            for (int j = 0; j < n; ++j) {
                if (j != i) {
                    EXPECT_TRUE(p.session->add_remote_player(j, ids[i][j]).ok());
                }
            }
            p.input_fn = [seed](int slot, Frame f) { return toy::scripted_input(seed, slot, f); };
        }
    }

    static SimNetworkConfig make_net_config(std::uint64_t seed, const LinkConfig& link) {
        SimNetworkConfig c;
        c.seed = seed;
        c.default_link = link;
        return c;
    }

    /// Runs `duration` of virtual time in 1 ms ticks: every peer updates every 4 ms and advances whenever its
    /// frame clock (scaled by its recommended speed) has a frame due.
    void run(Micros duration) {
        const Micros end = now_ + duration;
        while (now_ < end) {
            now_ += Micros{1000};
            net_.advance_to(now_);
            for (Peer<G>& p : peers_) tick(p);
        }
    }

    void tick(Peer<G>& p) {
        if (p.paused) return;
        const double scale = p.use_time_scale ? p.session->time_scale() : 1.0;
        p.accumulator += 1000.0 * scale * p.clock_rate;
        if (p.accumulator >= 16667.0) {
            p.accumulator -= 16667.0;
            if (p.accumulator > 16667.0 * 4) p.accumulator = 16667.0 * 4;
            const Frame f = p.session->current_frame();
            EXPECT_TRUE(p.session->add_local_input(p.index, p.input_fn(p.index, f)).ok());
            const toy::Input in = p.input_fn(p.index, f);
            const auto r = p.session->advance(now_);
            if (r.advanced()) {
                ++p.advances;
                p.committed.push_back(in);
            }
        } else if ((now_.count / 1000) % 4 == 0) {
            p.session->update(now_);
        }
        collect(p);
    }

    void collect(Peer<G>& p) {
        rwd::rollback::SessionEvent e;
        while (p.session->poll_event(e)) p.events.push_back(e);
        const Frame c = p.session->confirmed_frame();
        for (Frame f = p.checked + 1; f <= c; ++f) {
            std::uint64_t cs = 0;
            if (p.session->frame_checksum(f, cs)) p.checksums[f] = cs;
            std::vector<toy::Input> all(static_cast<std::size_t>(peers_.size()));
            for (int s = 0; s < static_cast<int>(peers_.size()); ++s) {
                EXPECT_TRUE(p.session->confirmed_input(s, f, all[static_cast<std::size_t>(s)]));
            }
            p.inputs[f] = std::move(all);
            p.checked = f;
        }
    }

    /// Frames compared between every pair of peers; fails the test on the first difference.
    std::size_t expect_agreement() const {
        std::size_t compared = 0;
        for (std::size_t a = 0; a < peers_.size(); ++a) {
            for (std::size_t b = a + 1; b < peers_.size(); ++b) {
                for (const auto& [f, cs] : peers_[a].checksums) {
                    const auto it = peers_[b].checksums.find(f);
                    if (it == peers_[b].checksums.end()) continue;
                    ++compared;
                    if (it->second != cs) {
                        ADD_FAILURE() << "peers " << a << " and " << b << " differ at confirmed frame " << f;
                        return compared;
                    }
                }
            }
        }
        return compared;
    }

    std::size_t count_events(int peer, rwd::rollback::SessionEvent::Type t) const {
        std::size_t n = 0;
        for (const auto& e : peers_[peer].events) n += e.type == t ? 1 : 0;
        return n;
    }

    SimNetwork& net() { return net_; }
    std::vector<Peer<G>>& peers() { return peers_; }
    Peer<G>& peer(int i) { return peers_[static_cast<std::size_t>(i)]; }
    Micros now() const { return now_; }

private:
    std::uint64_t seed_;
    SimNetwork net_;
    std::vector<Peer<G>> peers_;
    Micros now_{};
};

/// Checksums of a plain single-process run where player p's input at frame f + delay is scripted(seed, p, f)
/// and the first `delay` frames are neutral: what every peer must compute for its confirmed frames.
inline std::vector<std::uint64_t> reference_checksums(std::uint64_t seed, int players, int delay,
                                                      int frames) {
    std::vector<std::uint64_t> out;
    toy::State s{};
    std::array<toy::Input, 8> in{};
    for (int f = 0; f < frames; ++f) {
        for (int p = 0; p < players; ++p)
            in[p] = f < delay ? toy::Input{} : toy::scripted_input(seed, p, f - delay);
        toy::Game::step(s, in, nullptr);
        out.push_back(toy::Game::checksum(s));
    }
    return out;
}

}  // namespace rbtest
