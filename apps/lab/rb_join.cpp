// The rollback late-join pass runner: machines that start late and crash, bots, and the agreement checks.
#include "rb_join.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>
#include <arena/state_serialize.hpp>

#include <rewind/session/rollback/p2p_session.hpp>
#include <rewind/transport/sim_network.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <string>

namespace lab {
namespace {

using rwd::Micros;
using rwd::rollback::Frame;
using rwd::rollback::SessionEvent;
using Session = rwd::rollback::P2PSession<arena::ArenaGame>;

constexpr int kSlots = 3;

Micros at(double s) { return Micros{static_cast<std::int64_t>(std::llround(s * 1e6))}; }

/// One machine: a bot in one slot, a session that may start late or crash.
struct Machine {
    std::string name;
    rwd::transport::Transport* ep = nullptr;
    rwd::transport::Address addr;
    int slot = 0;
    int order = 0;  // link direction: lower order -> higher uses `up`
    std::unique_ptr<Session> session;
    arena::Bot bot;
    bool alive = true;
    double accumulator = 0;
    Frame checked = rwd::rollback::kNullFrame;
    std::map<Frame, std::uint64_t> checksums;
    std::map<Frame, std::array<arena::Input, arena::ArenaGame::kMaxPlayers>> inputs;  // all slots, confirmed
    Micros last_advance{};
    Micros longest_stall{};
    std::uint64_t desyncs = 0;
    Frame joined_at = rwd::rollback::kNullFrame;
    explicit Machine(std::uint64_t seed) : bot(seed) {}
};

class JoinPass {
public:
    explicit JoinPass(const RbJoinConfig& c) : cfg_(c) {
        rwd::transport::SimNetworkConfig nc;
        nc.seed = c.seed;
        nc.default_link = c.up;
        net_ = std::make_unique<rwd::transport::SimNetwork>(nc);
        initial_ = arena::new_seated_match(c.seed, kSlots);
    }

    RbJoinFigures run() {
        Machine& a = add("peer0", 0);
        Machine& b = add("peer1", 1);
        Machine& c = add("peer2", 2);
        found(a, b);
        run_until(at(cfg_.join_at_s));
        reset_stalls();
        join(c, {&a, &b});
        run_until(at(cfg_.drop_at_s));
        fig_.join_stall_ms = std::max(a.longest_stall, b.longest_stall).millis();
        b.alive = false;  // a crash: no goodbye
        b.session.reset();
        run_until(at(cfg_.rejoin_at_s));
        Machine& b2 = add("peer1-again", 1);
        b2.order = 3;
        reset_stalls();
        join(b2, {&a, &c});
        run_until(at(cfg_.end_s));
        fig_.rejoin_stall_ms = std::max(a.longest_stall, c.longest_stall).millis();
        fig_.joined = c.session->running() && c.joined_at != rwd::rollback::kNullFrame;
        fig_.rejoined = b2.session->running() && b2.joined_at != rwd::rollback::kNullFrame;
        fig_.bound_ms = a.session->config().join_timeout.millis();
        for (const Machine* m : {&c, &b2}) fig_.catch_up_frames += m->session->stats().catch_up_frames;
        for (const Machine& m : machines_) {
            fig_.desyncs += m.desyncs;
            if (m.session) fig_.desyncs += m.session->desync_reports().size();
        }
        fig_.state_bytes = static_cast<double>(state_size());
        compare();
        return fig_;
    }

private:
    Machine& add(const std::string& name, int slot) {
        Machine& m = machines_.emplace_back(cfg_.seed * 1000 + machines_.size());
        m.name = name;
        m.slot = slot;
        m.order = static_cast<int>(machines_.size()) - 1;
        m.addr = rwd::transport::Address{name, 7000};
        m.ep = net_->listen(m.addr, 8).value();
        for (const Machine& o : machines_) {
            if (&o == &m) continue;
            (void)net_->set_link(o.addr, m.addr, cfg_.up);
            (void)net_->set_link(m.addr, o.addr, cfg_.down);
        }
        return m;
    }

    rwd::rollback::P2PConfig config(const Machine& m) const {
        rwd::rollback::P2PConfig pc;
        pc.num_players = kSlots;
        pc.frame_duration = Micros{static_cast<std::int64_t>(std::llround(1e6 / cfg_.tick_rate))};
        pc.max_spectators = 0;
        pc.session_tag = static_cast<std::uint32_t>(cfg_.seed * 2654435761u);
        pc.seed = cfg_.seed * 31 + static_cast<std::uint64_t>(m.order);
        return pc;
    }

    // The founders: b connects to a; once both ends saw the connection both sessions start, slot 2 open.
    void found(Machine& a, Machine& b) {
        const rwd::transport::PeerId ab = a.ep->connect(b.addr).value();
        rwd::transport::PeerId ba = rwd::transport::kInvalidPeer;
        bool a_ok = false;
        for (int i = 0; i < 20'000 && (!a_ok || ba == rwd::transport::kInvalidPeer); ++i) {
            now_ += Micros{1000};
            net_->advance_to(now_);
            rwd::transport::TransportEvent e;
            while (a.ep->poll(e)) a_ok = a_ok || e.type == rwd::transport::TransportEvent::Type::connected;
            while (b.ep->poll(e))
                if (e.type == rwd::transport::TransportEvent::Type::connected) ba = e.peer;
        }
        for (Machine* m : {&a, &b}) {
            m->session = Session::create(*m->ep, config(*m), initial_).value();
            (void)m->session->add_local_player(m->slot);
            (void)m->session->add_open_slot(2);
            m->last_advance = now_;
        }
        (void)a.session->add_remote_player(b.slot, ab);
        (void)b.session->add_remote_player(a.slot, ba);
    }

    // A joiner: its session connects to every machine in `to` and asks the first to answer for the match.
    void join(Machine& m, std::initializer_list<Machine*> to) {
        m.session = Session::create(*m.ep, config(m), initial_).value();
        (void)m.session->join_as(m.slot);
        for (Machine* o : to) (void)m.session->add_remote_player(o->slot, m.ep->connect(o->addr).value());
        m.last_advance = now_;
    }

    void run_until(Micros end) {
        while (now_ < end) {
            now_ += Micros{1000};
            net_->advance_to(now_);
            for (Machine& m : machines_) tick(m);
        }
    }

    void reset_stalls() {
        for (Machine& m : machines_) {
            m.longest_stall = Micros{};
            m.last_advance = now_;
        }
    }

    void tick(Machine& m) {
        if (!m.alive || !m.session) return;
        Session& s = *m.session;
        m.accumulator += 1000.0 * s.time_scale();
        const double frame_us = 1e6 / cfg_.tick_rate;
        if (m.accumulator >= frame_us) {
            m.accumulator = std::min(m.accumulator - frame_us, frame_us * 4);
            (void)s.add_local_input(m.slot, m.bot.think(arena::view_of(s.state(), m.slot)));
            if (s.advance(now_).advanced()) {
                if (s.running()) m.longest_stall = std::max(m.longest_stall, now_ - m.last_advance);
                m.last_advance = now_;
            }
        } else if ((now_.count / 1000) % 4 == 0) {
            s.update(now_);
        }
        SessionEvent e;
        while (s.poll_event(e)) {
            if (e.type == SessionEvent::Type::desync_detected) ++m.desyncs;
            if (e.type == SessionEvent::Type::joined) m.joined_at = e.frame;
            if (e.type == SessionEvent::Type::rewritten &&
                e.frame <= m.checked) {  // collect those frames anew
                m.checksums.erase(m.checksums.lower_bound(e.frame), m.checksums.end());
                m.inputs.erase(m.inputs.lower_bound(e.frame), m.inputs.end());
                m.checked = e.frame - 1;
            }
            if (e.type == SessionEvent::Type::player_joined && &m == &machines_.front())
                (e.player == 2 ? fig_.join_frame : fig_.rejoin_frame) = e.frame;
        }
        for (Frame f = m.checked + 1; f <= s.confirmed_frame(); ++f) {
            std::uint64_t cs = 0;
            if (s.frame_checksum(f, cs)) m.checksums[f] = cs;
            std::array<arena::Input, arena::ArenaGame::kMaxPlayers> all{};
            bool complete = true;
            for (int p = 0; p < kSlots; ++p)
                complete = s.confirmed_input(p, f, all[static_cast<std::size_t>(p)]) && complete;
            if (complete) m.inputs[f] = all;
            m.checked = f;
        }
    }

    std::size_t state_size() const {
        bool serialized = false;
        return rwd::rollback::state_to_bytes<arena::ArenaGame>(initial_, serialized).size();
    }

    // Pairwise on every frame two machines confirmed; and a plain loop over the game's step with the first
    // machine's confirmed inputs (all three slots, from frame 0) against every machine.
    void compare() {
        for (std::size_t i = 0; i < machines_.size(); ++i)
            for (std::size_t j = i + 1; j < machines_.size(); ++j)
                for (const auto& [f, cs] : machines_[i].checksums) {
                    const auto it = machines_[j].checksums.find(f);
                    if (it == machines_[j].checksums.end()) continue;
                    ++fig_.pair_comparisons;
                    if (it->second != cs && fig_.pair_mismatches++ == 0) fig_.first_mismatch = f;
                }
        const Machine& ref = machines_.front();
        arena::State s = initial_;
        Frame f = 0;
        for (; ref.inputs.count(f) != 0; ++f) {
            arena::ArenaGame::step(s, ref.inputs.at(f), nullptr);
            const std::uint64_t cs = arena::ArenaGame::checksum(s);
            for (const Machine& m : machines_) {
                const auto it = m.checksums.find(f);
                if (it == m.checksums.end()) continue;
                ++fig_.replay_comparisons;
                fig_.replay_mismatches += it->second != cs ? 1 : 0;
            }
        }
        fig_.frames = f;
    }

    RbJoinConfig cfg_;
    std::unique_ptr<rwd::transport::SimNetwork> net_;
    arena::State initial_{};
    std::deque<Machine> machines_;
    Micros now_{};
    RbJoinFigures fig_;
};

}  // namespace

void to_json(nlohmann::json& j, const RbJoinFigures& f) {
    j = {{"joined", f.joined},
         {"rejoined", f.rejoined},
         {"frames", f.frames},
         {"pair_comparisons", f.pair_comparisons},
         {"pair_mismatches", f.pair_mismatches},
         {"replay_comparisons", f.replay_comparisons},
         {"replay_mismatches", f.replay_mismatches},
         {"desyncs", f.desyncs},
         {"join_stall_ms", f.join_stall_ms},
         {"rejoin_stall_ms", f.rejoin_stall_ms},
         {"bound_ms", f.bound_ms},
         {"join_frame", f.join_frame},
         {"rejoin_frame", f.rejoin_frame},
         {"catch_up_frames", f.catch_up_frames},
         {"first_mismatch", f.first_mismatch},
         {"state_bytes", f.state_bytes}};
}

RbJoinFigures run_rb_join_pass(const RbJoinConfig& config) { return JoinPass(config).run(); }

}  // namespace lab
