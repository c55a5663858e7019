// The rollback/lockstep pass runner: mesh set-up, the virtual-time loop of every peer's frame clock,
// collection.
#include "rb_match.hpp"

#include "rb_replay.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>
#include <swarm/swarm_game.hpp>

#include <rewind/core/fixed_step.hpp>
#include <rewind/core/rng.hpp>
#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/transport/sim_network.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <deque>
#include <memory>
#include <optional>

namespace lab {
namespace {

using rwd::Micros;
using rwd::rollback::Frame;

/// The arena: flat State, lag-compensated step (rollback passes no rewound targets).
struct ArenaLabGame {
    using Game = arena::ArenaGame;
    using Bot = arena::Bot;
    static constexpr std::string_view kGameId = arena::kGameId;
    static constexpr std::uint32_t kRulesVersion = arena::kRulesVersion;
    static arena::State initial(std::uint64_t seed, int players) {
        return arena::new_seated_match(seed, players);
    }
    static arena::Input think(Bot& bot, const arena::State& s, int slot) {
        return bot.think(arena::view_of(s, slot));
    }
    static void step(arena::State& s, std::span<const arena::Input> in) {
        arena::ArenaGame::step(s, in, nullptr);
    }
};

/// Swarm: a world of heap vectors, rolled back through its save/load hooks.
struct SwarmLabGame {
    using Game = swarm::SwarmGame;
    using Bot = swarm::Bot;
    static constexpr std::string_view kGameId = swarm::kGameId;
    static constexpr std::uint32_t kRulesVersion = swarm::kRulesVersion;
    static swarm::State initial(std::uint64_t, int players) { return swarm::new_match(players); }
    static swarm::Input think(Bot& bot, const swarm::State& s, int slot) { return bot.think(s, slot); }
    static void step(swarm::State& s, std::span<const swarm::Input> in) { swarm::SwarmGame::step(s, in); }
};

constexpr Micros kSampleEvery{250'000};
constexpr Micros kConnectGiveUp{20'000'000};  // per pair; far beyond any profile's handshake

Micros seconds(double s) { return Micros{static_cast<std::int64_t>(std::llround(s * 1e6))}; }

// The statistics-only clock: the sessions time save/load/step with it. The simulation never reads it, so runs
// stay exactly repeatable; only the timing figures vary from run to run.
std::uint64_t wall_ns(void*) {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

/// One machine of the mesh and what the lab tracks about it.
template <class L>
struct RbPeer {
    using Game = typename L::Game;
    using Input = typename Game::Input;
    using Session = rwd::rollback::P2PSession<Game>;

    int index = 0;
    rwd::transport::Address addr;
    rwd::transport::Transport* ep = nullptr;
    std::unique_ptr<Session> session;
    typename L::Bot bot;
    rwd::Rng rng;          // render frame timing
    rwd::FixedStep clock;  // the frame clock, run at the session's recommended speed
    Micros next_frame{};
    Micros last_frame{};
    Frame last_input_frame = rwd::rollback::kNullFrame;
    Input handed{};                                      // the newest input handed to the session
    Input committed{};                                   // the input of the newest committed frame
    Frame recorded_through = rwd::rollback::kNullFrame;  // frames of its inputs written to sent_
    int delay_at_start = -1;                             // the session's input delay at its first frame
    Frame collected = rwd::rollback::kNullFrame;         // confirmed frames taken in
    std::vector<std::uint64_t> checksums;                // by frame
    std::vector<bool> has_checksum;                      // by frame
    std::optional<Micros> running_at;
    std::array<std::uint64_t, rwd::rollback::kRollbackHistogramSize>
        last_depths{};                                           // histogram at the last sample
    std::deque<std::pair<Micros, std::uint64_t>> resim_history;  // (time, frames re-simulated), last second
    std::vector<double> ahead_samples;
    double scale_min = 1, scale_max = 1;
    std::uint64_t desyncs = 0, disconnects = 0;

    RbPeer(int i, std::uint64_t seed, int tick_rate)
        : index(i),
          bot(seed * 1000 + static_cast<std::uint64_t>(i)),
          rng(seed, 0x7262 + static_cast<std::uint64_t>(i)),
          clock(rwd::FixedStepConfig{tick_rate, 8}) {}
};

template <class L>
class RbMatch {
    using Game = typename L::Game;
    using Input = typename Game::Input;
    using Peer = RbPeer<L>;
    using Session = typename Peer::Session;

public:
    explicit RbMatch(const RbPassConfig& c) : cfg_(c) {
        rwd::transport::SimNetworkConfig nc;
        nc.seed = c.seed;
        nc.default_link = c.up;
        net_ = std::make_unique<rwd::transport::SimNetwork>(nc);
        initial_ = L::initial(c.seed, c.players);
        sent_.assign(static_cast<std::size_t>(c.players), {});
        peers_.reserve(static_cast<std::size_t>(c.players));
        for (int i = 0; i < c.players; ++i) {
            Peer& p = peers_.emplace_back(i, c.seed, c.tick_rate);
            p.addr =
                rwd::transport::Address{"peer" + std::to_string(i), static_cast<std::uint16_t>(7000 + i)};
            p.ep = net_->listen(p.addr, 8).value();
        }
        for (int i = 0; i < c.players; ++i)
            for (int j = i + 1; j < c.players; ++j) {
                (void)net_->set_link(peers_[i].addr, peers_[j].addr, c.up);
                (void)net_->set_link(peers_[j].addr, peers_[i].addr, c.down);
            }
    }

    RbFigures run() {
        const auto wall0 = std::chrono::steady_clock::now();
        fig_.mode = cfg_.max_prediction == 0 ? "lockstep" : "rollback";
        fig_.players = cfg_.players;
        fig_.input_delay = cfg_.input_delay;
        fig_.max_prediction = cfg_.max_prediction;
        std::vector<std::string> names;
        for (const Peer& p : peers_) names.push_back(p.addr.host);
        replay_.emplace(cfg_.replay_path, cfg_.max_prediction == 0, cfg_.seed, cfg_.tick_rate, names,
                        fig_.replay);
        if (connect_mesh()) {
            fig_.connect_s = now_.seconds();
            loop();
        }
        finish();
        if (!peers_.empty()) replay_->finish(peers_.front().checksums, peers_.front().has_checksum);
        fig_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        return fig_;
    }

private:
    // Every pair i < j: i connects to j; the network runs until both ends saw `connected`.
    bool connect_mesh() {
        const int n = cfg_.players;
        std::vector<std::vector<rwd::transport::PeerId>> ids(n, std::vector<rwd::transport::PeerId>(n, 0));
        for (int i = 0; i < n; ++i) {
            for (int j = i + 1; j < n; ++j) {
                const auto ij = peers_[i].ep->connect(peers_[j].addr);
                if (!ij) return false;
                rwd::transport::PeerId ji = rwd::transport::kInvalidPeer;
                bool i_ok = false;
                const Micros give_up = now_ + kConnectGiveUp;
                while ((!i_ok || ji == rwd::transport::kInvalidPeer) && now_ < give_up) {
                    now_ += Micros{1000};
                    net_->advance_to(now_);
                    rwd::transport::TransportEvent e;
                    while (peers_[i].ep->poll(e))
                        i_ok = i_ok ||
                               (e.type == rwd::transport::TransportEvent::Type::connected && e.peer == *ij);
                    while (peers_[j].ep->poll(e))
                        if (e.type == rwd::transport::TransportEvent::Type::connected) ji = e.peer;
                }
                if (!i_ok || ji == rwd::transport::kInvalidPeer) return false;
                ids[i][j] = *ij;
                ids[j][i] = ji;
            }
        }
        for (int i = 0; i < n; ++i) {
            rwd::rollback::P2PConfig pc;
            pc.num_players = n;
            pc.input_delay = cfg_.input_delay;
            pc.adapt_input_delay = cfg_.adapt_input_delay;
            pc.max_prediction = cfg_.max_prediction;
            pc.frame_duration = Micros{static_cast<std::int64_t>(std::llround(1e6 / cfg_.tick_rate))};
            pc.max_spectators = 0;
            pc.session_tag = static_cast<std::uint32_t>(cfg_.seed * 2654435761u);
            pc.seed = cfg_.seed * 31 + static_cast<std::uint64_t>(i);
            pc.clock = rwd::rollback::ClockFn{&wall_ns, nullptr};
            Peer& p = peers_[i];
            p.session = Session::create(*p.ep, pc, initial_).value();
            (void)p.session->add_local_player(i);
            for (int j = 0; j < n; ++j)
                if (j != i) (void)p.session->add_remote_player(j, ids[i][j]);
            p.next_frame = now_ + Micros{static_cast<std::int64_t>(p.rng.uniform(7000))};
            p.last_frame = now_;
        }
        return true;
    }

    void loop() {
        start_ = now_;
        end_ = start_ + seconds(cfg_.duration_s);
        Micros next_sample = start_ + kSampleEvery;
        while (true) {
            Peer* first = &peers_.front();
            for (Peer& p : peers_)
                if (p.next_frame < first->next_frame) first = &p;
            if (next_sample <= first->next_frame) {
                if (next_sample > end_) break;
                now_ = next_sample;
                sample();
                next_sample += kSampleEvery;
                continue;
            }
            if (first->next_frame > end_) break;
            now_ = first->next_frame;
            render_frame(*first);
        }
        now_ = end_;
    }

    // One render frame of a peer: the frame clock (at the recommended speed) says how many frames are due.
    void render_frame(Peer& p) {
        const double jitter =
            cfg_.frame_jitter * (2.0 * (static_cast<double>(p.rng.uniform(1u << 20)) / (1u << 20)) - 1.0);
        p.next_frame =
            now_ + Micros{static_cast<std::int64_t>(std::llround(1e6 / cfg_.fps * (1.0 + jitter)))};
        const double scale = p.session->time_scale();
        p.clock.set_time_scale(scale);
        p.scale_min = std::min(p.scale_min, scale);
        p.scale_max = std::max(p.scale_max, scale);
        const int due = p.clock.advance(now_ - p.last_frame);
        p.last_frame = now_;
        if (due == 0) p.session->update(now_);
        for (int k = 0; k < due; ++k) frame(p);
        if (!p.running_at && p.session->running()) {
            p.running_at = now_;
            p.delay_at_start = p.session->input_delay();
        }
        collect(p);
    }

    // One frame: the bot picks the input from this peer's own (predicted) state, once per distinct frame.
    void frame(Peer& p) {
        Session& s = *p.session;
        const Frame f = s.current_frame();
        if (f != p.last_input_frame) {
            const Input in = L::think(p.bot, s.state(), p.index);
            if (!s.add_local_input(p.index, in).ok()) return;
            p.handed = in;
            p.last_input_frame = f;
        }
        (void)s.advance(now_);
        record_committed(p);
    }

    // The frame the session put the newest input in (it commits it in advance(), at the frame its delay
    // says): that frame gets the input the bot handed over, the frames before it the previous input (a
    // longer delay repeats it; the first frames are neutral). No new frame: the input repeated the previous
    // one and was merged away (a shorter delay).
    void record_committed(Peer& p) {
        const Frame last = p.session->last_local_input_frame();
        if (last <= p.recorded_through) return;
        auto& mine = sent_[static_cast<std::size_t>(p.index)];
        const auto at = static_cast<std::size_t>(last);
        if (mine.size() <= at) mine.resize(at + 1, Input{});
        for (Frame g = p.recorded_through + 1; g < last; ++g) mine[static_cast<std::size_t>(g)] = p.committed;
        mine[at] = p.handed;
        p.committed = p.handed;
        p.recorded_through = last;
    }

    // Events, and the checksum and inputs of every newly confirmed frame (while they are still in the rings).
    void collect(Peer& p) {
        Session& s = *p.session;
        rwd::rollback::SessionEvent e;
        while (s.poll_event(e)) {
            if (e.type == rwd::rollback::SessionEvent::Type::desync_detected) ++p.desyncs;
            if (e.type == rwd::rollback::SessionEvent::Type::disconnected) ++p.disconnects;
        }
        if (p.index == 0) replay_->record(s);
        const Frame c = s.confirmed_frame();
        RbDeterminism& d = fig_.determinism;
        for (Frame f = p.collected + 1; f <= c; ++f) {
            const auto fi = static_cast<std::size_t>(f);
            if (p.checksums.size() <= fi) {
                p.checksums.resize(fi + 1024, 0);
                p.has_checksum.resize(fi + 1024, false);
            }
            std::uint64_t cs = 0;
            if (s.frame_checksum(f, cs)) {
                p.checksums[fi] = cs;
                p.has_checksum[fi] = true;
            } else {
                ++d.missing_checksums;
            }
            for (int slot = 0; slot < cfg_.players; ++slot) {
                Input in{};
                const auto& sent = sent_[static_cast<std::size_t>(slot)];
                ++d.input_comparisons;
                if (!s.confirmed_input(slot, f, in) || sent.size() <= fi || !(sent[fi] == in))
                    ++d.input_mismatches;
            }
            p.collected = f;
        }
    }

    void sample() {
        const double t = (now_ - start_).seconds();
        for (Peer& p : peers_) {
            const auto st = p.session->stats();
            p.resim_history.emplace_back(now_, st.frames_resimulated);
            while (p.resim_history.size() > 1 && now_ - p.resim_history.front().first > Micros{1'000'000})
                p.resim_history.pop_front();
            const auto& [t0, r0] = p.resim_history.front();
            const double span = (now_ - t0).seconds();
            int depth = 0;  // deepest rollback since the previous sample: the top histogram bucket that grew
            for (std::size_t d = 0; d < st.rollback_depth.size(); ++d)
                if (st.rollback_depth[d] != p.last_depths[d]) depth = static_cast<int>(d);
            p.last_depths = st.rollback_depth;
            RbSample smp;
            smp.t = t;
            smp.peer = p.index;
            smp.max_depth = depth;
            smp.frames_ahead = p.session->frames_ahead();
            smp.time_scale = p.session->time_scale();
            smp.resim_per_s = span > 0 ? static_cast<double>(st.frames_resimulated - r0) / span : 0.0;
            fig_.samples.push_back(smp);
            if (p.session->running()) p.ahead_samples.push_back(std::fabs(smp.frames_ahead));
        }
    }

    void finish();
    void replay();

    RbPassConfig cfg_;
    std::unique_ptr<rwd::transport::SimNetwork> net_;
    typename Game::State initial_{};
    std::vector<Peer> peers_;
    std::vector<std::vector<Input>> sent_;  // by slot, by frame: the input each bot's session committed
    std::optional<RbReplay<L>> replay_;     // peer 0's confirmed frames (--save-replay)
    Micros now_{};
    Micros start_{};
    Micros end_{};
    RbFigures fig_;
};

template <class L>
void RbMatch<L>::finish() {
    fig_.simulated_s = (end_ - start_).seconds();
    Micros all_running = start_;
    for (const Peer& p : peers_) all_running = std::max(all_running, p.running_at.value_or(end_));
    fig_.running_s = (end_ - all_running).seconds();
    fig_.rollback_depth.assign(rwd::rollback::kRollbackHistogramSize, 0);
    std::vector<double> all_ahead;
    std::uint64_t rollback_ns = 0;
    double peer_running_s = 0;
    for (const Peer& p : peers_) {
        if (!p.session) continue;
        const auto st = p.session->stats();
        RbPeerFigures pf;
        pf.index = p.index;
        pf.final_frame = st.frame;
        pf.confirmed_frame = st.confirmed_frame;
        pf.frames_advanced = st.frames_advanced;
        pf.frames_resimulated = st.frames_resimulated;
        pf.rollbacks = st.rollbacks;
        pf.rollback_depth.assign(st.rollback_depth.begin(), st.rollback_depth.end());
        for (std::size_t d = 0; d < st.rollback_depth.size(); ++d) {
            fig_.rollback_depth[d] += st.rollback_depth[d];
            if (st.rollback_depth[d] > 0) pf.max_depth = static_cast<int>(d);
        }
        const double run_s = p.running_at ? (end_ - *p.running_at).seconds() : 0.0;
        peer_running_s += run_s;
        pf.resimulated_per_s = run_s > 0 ? static_cast<double>(st.frames_resimulated) / run_s : 0.0;
        pf.input_delay_start = p.delay_at_start;
        pf.input_delay_min = st.input_delay_min;
        pf.input_delay_max = st.input_delay_max;
        pf.input_delay_final = st.input_delay;
        pf.input_delay_changes = st.input_delay_changes;
        pf.advanced_share = run_s > 0 ? static_cast<double>(st.frames_advanced) /
                                            (run_s * static_cast<double>(cfg_.tick_rate))
                                      : 0.0;
        std::uint64_t rb_ns = 0;
        for (auto v : st.timing.rollback_ns) rb_ns += v;
        rollback_ns += rb_ns;
        const auto per = [](std::uint64_t ns, std::uint64_t n) {
            return n > 0 ? static_cast<double>(ns) / 1000.0 / static_cast<double>(n) : 0.0;
        };
        pf.resim_us_per_frame = per(rb_ns, st.frames_resimulated);
        pf.step_us = per(st.timing.step_ns, st.timing.steps);
        pf.save_us = per(st.timing.save_ns, st.timing.saves);
        pf.load_us = per(st.timing.load_ns, st.timing.loads);
        pf.max_rollback_us = static_cast<double>(st.timing.max_rollback_ns) / 1000.0;
        pf.stalls_prediction = st.stalls_prediction;
        pf.stalls_time_sync = st.stalls_time_sync;
        pf.time_sync_events = st.time_sync_events;
        pf.time_scale_min = p.scale_min;
        pf.time_scale_max = p.scale_max;
        pf.frames_ahead = distribution(p.ahead_samples);
        all_ahead.insert(all_ahead.end(), p.ahead_samples.begin(), p.ahead_samples.end());
        pf.checksums_compared = st.checksums_compared;
        pf.desyncs = std::max<std::uint64_t>(st.desyncs, p.desyncs);
        pf.malformed = st.malformed;
        pf.disconnects = p.disconnects;
        std::uint64_t sent = 0, received = 0;
        double ping = 0;
        const auto links = p.session->peer_stats();
        for (const auto& l : links) {
            sent += l.bytes_sent;
            received += l.bytes_received;
            ping += static_cast<double>(l.ping.count) / 1000.0;
        }
        pf.ping_ms = links.empty() ? 0.0 : ping / static_cast<double>(links.size());
        pf.kbps_sent = run_s > 0 ? static_cast<double>(sent) * 8.0 / 1000.0 / run_s : 0.0;
        pf.kbps_received = run_s > 0 ? static_cast<double>(received) * 8.0 / 1000.0 / run_s : 0.0;
        fig_.rollbacks += pf.rollbacks;
        fig_.frames_resimulated += pf.frames_resimulated;
        fig_.stalls_prediction += pf.stalls_prediction;
        fig_.stalls_time_sync += pf.stalls_time_sync;
        fig_.time_sync_events += pf.time_sync_events;
        fig_.determinism.desync_events += pf.desyncs;
        fig_.peers.push_back(pf);
    }
    fig_.resimulated_per_s =
        peer_running_s > 0 ? static_cast<double>(fig_.frames_resimulated) / peer_running_s : 0.0;
    fig_.resim_us_per_frame = fig_.frames_resimulated > 0 ? static_cast<double>(rollback_ns) / 1000.0 /
                                                                static_cast<double>(fig_.frames_resimulated)
                                                          : 0.0;
    fig_.frames_ahead = distribution(std::move(all_ahead));
    replay();
}

// The strongest check: one plain loop over the game's step with the inputs the bots handed their sessions
// (not what any session reports), compared frame by frame with every peer's checksum; and the peers pairwise.
template <class L>
void RbMatch<L>::replay() {
    RbDeterminism& d = fig_.determinism;
    Frame frames = std::numeric_limits<Frame>::max();
    for (const Peer& p : peers_) frames = std::min(frames, p.collected + 1);
    if (peers_.empty() || !peers_.front().session) frames = 0;
    d.frames = frames;
    typename Game::State s = initial_;
    std::vector<Input> in(static_cast<std::size_t>(Game::kMaxPlayers));
    for (Frame f = 0; f < frames; ++f) {
        const auto fi = static_cast<std::size_t>(f);
        for (int slot = 0; slot < cfg_.players; ++slot) {
            const auto& sent = sent_[static_cast<std::size_t>(slot)];
            in[static_cast<std::size_t>(slot)] = fi < sent.size() ? sent[fi] : Input{};
        }
        L::step(s, in);
        const std::uint64_t expect = Game::checksum(s);
        for (std::size_t a = 0; a < peers_.size(); ++a) {
            if (!peers_[a].has_checksum[fi]) continue;
            ++d.replay_comparisons;
            if (peers_[a].checksums[fi] != expect) {
                if (d.replay_mismatches++ == 0) d.first_replay_mismatch = f;
            }
            for (std::size_t b = a + 1; b < peers_.size(); ++b) {
                if (!peers_[b].has_checksum[fi]) continue;
                ++d.pair_comparisons;
                if (peers_[a].checksums[fi] != peers_[b].checksums[fi]) {
                    if (d.pair_mismatches++ == 0) d.first_pair_mismatch = f;
                }
            }
        }
    }
}

}  // namespace

RbFigures run_rb_pass(const RbPassConfig& config) {
    RbFigures f = config.game == RbGame::swarm ? RbMatch<SwarmLabGame>(config).run()
                                               : RbMatch<ArenaLabGame>(config).run();
    f.game = config.game == RbGame::swarm ? "swarm" : "arena";
    return f;
}

}  // namespace lab
