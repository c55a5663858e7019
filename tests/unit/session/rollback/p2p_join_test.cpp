// P2PSession late join and rejoin: a newcomer takes an open slot of a running match and a player who left
// takes its slot back, both by state transfer; every machine agrees on every confirmed frame and with a plain
// replay of the confirmed inputs, and the others never stall for long.
#include "rb_harness.hpp"

#include <cstdio>
#include <deque>

namespace {

using namespace rbtest;
using rwd::rollback::SessionEvent;
using namespace rwd::literals;

/// One machine of the world: it may start late (a joiner) and stop (a crash).
struct Machine {
    Address addr;
    Transport* ep = nullptr;
    std::unique_ptr<P2PSession<toy::Game>> session;
    int slot = 0;
    bool alive = true;
    double accumulator = 0.0;
    Frame checked = rwd::rollback::kNullFrame;
    std::map<Frame, std::uint64_t> checksums;
    std::map<Frame, std::array<toy::Input, 8>>
        inputs;  // every slot's final input, from frame 0 (not joiners)
    std::vector<SessionEvent> events;
    Micros last_advance{};
    Micros longest_stall{};
    std::size_t count(SessionEvent::Type t) const {
        std::size_t n = 0;
        for (const SessionEvent& e : events) n += e.type == t ? 1 : 0;
        return n;
    }
};

class World {
public:
    World(std::uint64_t seed, const LinkConfig& link)
        : seed_(seed), net_(Mesh<>::make_net_config(seed, link)) {}

    P2PConfig config() const {
        P2PConfig c;
        c.num_players = 3;
        c.adapt_input_delay = false;  // inputs land exactly input_delay frames later (checked below)
        c.seed = seed_ * 31 + machines_.size();
        return c;
    }

    /// A machine listening at a fresh address.
    Machine& add(int slot, const std::string& name) {
        Machine& m = machines_.emplace_back();
        m.addr = Address{name, 7000};
        m.ep = net_.listen(m.addr, 16).value();
        m.slot = slot;
        return m;
    }

    /// The match's founders: machines `a` and `b` in slots 0 and 1, slot 2 open.
    void found(Machine& a, Machine& b) {
        auto [ab, ba] = connect_pair(net_, *a.ep, *b.ep, b.addr, now_);
        for (Machine* m : {&a, &b}) {
            m->session = P2PSession<toy::Game>::create(*m->ep, config(), toy::State{}).value();
            ASSERT_TRUE(m->session->add_local_player(m->slot).ok());
            ASSERT_TRUE(m->session->add_open_slot(2).ok());
        }
        ASSERT_TRUE(a.session->add_remote_player(b.slot, ab).ok());
        ASSERT_TRUE(b.session->add_remote_player(a.slot, ba).ok());
    }

    /// Machine `j` joins in its slot, connecting to every machine in `others`.
    void join(Machine& j, std::initializer_list<Machine*> others) {
        j.session = P2PSession<toy::Game>::create(*j.ep, config(), toy::State{}).value();
        ASSERT_TRUE(j.session->join_as(j.slot).ok());
        for (Machine* o : others)
            ASSERT_TRUE(j.session->add_remote_player(o->slot, j.ep->connect(o->addr).value()).ok());
        j.last_advance = now_;
    }

    void run(Micros duration) {
        const Micros end = now_ + duration;
        while (now_ < end) {
            now_ += Micros{1000};
            net_.advance_to(now_);
            for (Machine& m : machines_) tick(m);
        }
    }

    void tick(Machine& m) {
        if (!m.alive || !m.session) return;
        m.accumulator += 1000.0 * m.session->time_scale();
        if (m.accumulator >= 16667.0) {
            m.accumulator = std::min(m.accumulator - 16667.0, 16667.0 * 4);
            const Frame f = m.session->current_frame();
            EXPECT_TRUE(m.session->add_local_input(m.slot, toy::scripted_input(seed_, m.slot, f)).ok());
            const auto r = m.session->advance(now_);
            if (r.advanced()) {
                if (m.session->running()) m.longest_stall = std::max(m.longest_stall, now_ - m.last_advance);
                m.last_advance = now_;
            }
        } else if ((now_.count / 1000) % 4 == 0) {
            m.session->update(now_);
        }
        SessionEvent e;
        while (m.session->poll_event(e)) {
            m.events.push_back(e);
            if (e.type == SessionEvent::Type::rewritten && e.frame <= m.checked) {  // collect them anew
                m.checksums.erase(m.checksums.lower_bound(e.frame), m.checksums.end());
                m.inputs.erase(m.inputs.lower_bound(e.frame), m.inputs.end());
                m.checked = e.frame - 1;
            }
        }
        for (Frame f = m.checked + 1; f <= m.session->confirmed_frame(); ++f) {
            std::uint64_t cs = 0;
            if (m.session->frame_checksum(f, cs)) m.checksums[f] = cs;
            std::array<toy::Input, 8> all{};
            bool complete = true;
            for (int s = 0; s < 3; ++s)
                complete = m.session->confirmed_input(s, f, all[static_cast<std::size_t>(s)]) && complete;
            if (complete) m.inputs[f] = all;
            m.checked = f;
        }
    }

    /// Every pair of machines agrees on every frame both confirmed; returns the comparisons.
    std::size_t expect_agreement() const {
        std::size_t compared = 0;
        for (std::size_t a = 0; a < machines_.size(); ++a) {
            for (std::size_t b = a + 1; b < machines_.size(); ++b) {
                for (const auto& [f, cs] : machines_[a].checksums) {
                    const auto it = machines_[b].checksums.find(f);
                    if (it == machines_[b].checksums.end()) continue;
                    ++compared;
                    if (it->second != cs) {
                        ADD_FAILURE() << machines_[a].addr.host << " and " << machines_[b].addr.host
                                      << " differ at confirmed frame " << f;
                        return compared;
                    }
                }
            }
        }
        return compared;
    }

    /// A plain loop over toy::Game::step with `m`'s confirmed inputs from frame 0 equals every machine's
    /// checksums; returns the frames replayed.
    std::size_t expect_replay_matches(const Machine& m) const {
        toy::State s{};
        Frame f = 0;
        for (; m.inputs.count(f) != 0; ++f) {
            toy::Game::step(s, m.inputs.at(f), nullptr);
            const std::uint64_t cs = toy::Game::checksum(s);
            for (const Machine& o : machines_) {
                const auto it = o.checksums.find(f);
                if (it != o.checksums.end() && it->second != cs) {
                    ADD_FAILURE() << o.addr.host << " differs from the replay at frame " << f;
                    return static_cast<std::size_t>(f);
                }
            }
        }
        return static_cast<std::size_t>(f);
    }

    /// Starts measuring every machine's longest stall afresh.
    void reset_stalls() {
        for (Machine& m : machines_) {
            m.longest_stall = Micros{};
            m.last_advance = now_;
        }
    }

    Micros now() const { return now_; }
    std::deque<Machine>& machines() { return machines_; }

private:
    std::uint64_t seed_;
    SimNetwork net_;
    std::deque<Machine> machines_;
    Micros now_{};
};

LinkConfig wan() {
    LinkConfig l;
    l.latency = 50_ms;
    l.jitter = 10_ms;
    l.loss = 0.03;
    return l;
}

class JoinAndRejoin : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(JoinAndRejoin, EveryMachineAgreesAndTheOthersNeverStallLong) {
    const std::uint64_t seed = GetParam();
    SCOPED_TRACE("seed=" + std::to_string(seed));
    World w(seed, wan());
    Machine& a = w.add(0, "a");
    Machine& b = w.add(1, "b");
    w.found(a, b);
    w.run(4_s);
    ASSERT_TRUE(a.session->running());

    // A newcomer takes the open slot 2.
    Machine& c = w.add(2, "c");
    w.join(c, {&a, &b});
    w.reset_stalls();
    w.run(4_s);
    for (Machine* m : {&a, &b}) EXPECT_LT(m->longest_stall, Micros{300'000}) << m->addr.host << " (join)";
    const Micros join_stall = std::max(a.longest_stall, b.longest_stall);
    ASSERT_TRUE(c.session->running()) << "the newcomer never got the state";
    EXPECT_EQ(c.count(SessionEvent::Type::joined), 1u);
    EXPECT_EQ(a.count(SessionEvent::Type::player_joined), 1u);
    EXPECT_EQ(b.count(SessionEvent::Type::player_joined), 1u);
    EXPECT_GT(c.checksums.size(), 100u);
    EXPECT_EQ(a.session->stats().joins_sponsored + b.session->stats().joins_sponsored, 1u);

    // A stranger with the session tag cannot take slot 2 while its player is there.
    Machine& x = w.add(2, "x");
    w.join(x, {&a, &b});
    w.run(2_s);
    EXPECT_FALSE(x.session->running()) << "a stranger took a slot in use";
    EXPECT_EQ(a.count(SessionEvent::Type::player_joined), 1u);
    x.alive = false;

    // b crashes; a and c play on with slot 1 neutral; b comes back from a new address and takes slot 1 back.
    b.alive = false;
    w.run(4_s);
    EXPECT_EQ(a.count(SessionEvent::Type::disconnected), 1u);
    EXPECT_EQ(c.count(SessionEvent::Type::disconnected), 1u);
    Machine& b2 = w.add(1, "b2");
    w.join(b2, {&a, &c});
    w.reset_stalls();
    w.run(5_s);
    for (Machine* m : {&a, &c}) EXPECT_LT(m->longest_stall, Micros{300'000}) << m->addr.host << " (rejoin)";
    const Micros rejoin_stall = std::max(a.longest_stall, c.longest_stall);
    ASSERT_TRUE(b2.session->running()) << "the returning player never got the state";
    EXPECT_GT(b2.checksums.size(), 100u);
    // After the comeback every machine confirms frames with all three players' real inputs again.
    const Frame join1 = [&] {
        for (const SessionEvent& e : a.events)
            if (e.type == SessionEvent::Type::player_joined && e.player == 1) return e.frame;
        return rwd::rollback::kNullFrame;
    }();
    ASSERT_NE(join1, rwd::rollback::kNullFrame);
    toy::Input in{};
    ASSERT_TRUE(a.session->confirmed_input(1, join1 + 30, in));
    EXPECT_EQ(in, toy::scripted_input(seed, 1, join1 + 30 - b2.session->input_delay()))
        << "slot 1 plays its own inputs after the comeback";

    for (Machine& m : w.machines()) {
        EXPECT_EQ(m.count(SessionEvent::Type::desync_detected), 0u) << m.addr.host;
        EXPECT_EQ(m.session->stats().desyncs, 0u) << m.addr.host;
    }
    EXPECT_GT(w.expect_agreement(), 1000u);
    EXPECT_EQ(w.expect_replay_matches(a), static_cast<std::size_t>(a.checked + 1));
    EXPECT_GT(a.checked, 800);
    std::printf(
        "[join] seed=%llu a: joins=%llu sponsored=%llu; longest stall of the others: join %.0f ms, "
        "rejoin %.0f ms; catch-up: c %llu frames, b2 %llu frames\n",
        static_cast<unsigned long long>(seed), static_cast<unsigned long long>(a.session->stats().joins),
        static_cast<unsigned long long>(a.session->stats().joins_sponsored), join_stall.millis(),
        rejoin_stall.millis(), static_cast<unsigned long long>(c.session->stats().catch_up_frames),
        static_cast<unsigned long long>(b2.session->stats().catch_up_frames));
}

INSTANTIATE_TEST_SUITE_P(Seeds, JoinAndRejoin, ::testing::Values(1u, 2u, 3u));

}  // namespace
