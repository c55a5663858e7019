/// The server-session fuzz target's driver: a Server<arena::ArenaGame> on a loopback transport, driven by
/// fuzzed op sequences from fake clients (fuzz_server_session.cpp runs it; server_session_seed_check.cpp runs
/// its seeds).
///
/// The input is a program: each op picks a fake client (a raw transport endpoint, or one real Client) and
/// does one thing: connect, hello, inputs with any tick/axes/buttons/view time, floods, chat, goodbye,
/// transport disconnect, garbage, mutated real messages, the link figures the server's transport reports,
/// time steps and stalls, kicks. After every op the server's invariants are checked; a violation aborts
/// (libFuzzer reports it as a crash). The wire is a loopback (loopback_transport.hpp): the server's code
/// path is the same on any Transport, and the transport's own decoders have their targets (fuzz_sim_datagram,
/// fuzz_websocket_server), so an execution spends its time in the server, not in simulating a network.
#pragma once

#include <arena/arena_game.hpp>

#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>

#include <fuzzer/FuzzedDataProvider.h>

#include "loopback_transport.hpp"
#include "warm_slot.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace fuzzing::server_session {

using arena::ArenaGame;
using rwd::Micros;
using rwd::Tick;
namespace cs = rwd::client_server;
namespace tp = rwd::transport;
namespace lb = fuzzing::loopback;

constexpr int kFakes = 6;  // more than the seats offered, so "server full" is reachable
constexpr int kSeats = 4;
constexpr int kMaxOps = 256;
// Bounds one execution's work: steady virtual time is what costs (every update interval the server and the
// real client update; a tick simulates the arena and codes snapshots; a stall passes time for a few ticks),
// so the timeouts are short enough that everything, timeouts included, happens within it. The interval is the
// input's: 4, 8, 12 or 16 ms, the frame times of apps from 250 down to 60 frames a second.
constexpr Micros kMaxVirtual{2'500'000};
constexpr Micros kClientTimeout{600'000};
constexpr Micros kHelloTimeout{300'000};
constexpr Micros kMaxStall{800'000};   // a stall: past both timeouts
constexpr Micros kSeatGrace{900'000};  // a lost link's seat is held, and freed, within one execution

[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "server invariant broken: %s\n", what);
    std::abort();
}

struct Fake {
    tp::Address addr;
    lb::Endpoint* ep = nullptr;
    tp::PeerId peer = tp::kInvalidPeer;  // its id for the server, once connecting
    std::uint16_t sequence = 0;
    bool seated = false;  // an accept came: slot and secret are its claim to come back with
    cs::ResumeTicket ticket{};
};

/// What outlives an execution: the storage of the server and of the real client, each built anew in it every
/// execution (warm_slot.hpp).
struct Slots {
    fuzzing::WarmSlot<cs::Server<ArenaGame>> server;
    fuzzing::WarmSlot<cs::Client<ArenaGame>> client;
};

class Driver {
public:
    Driver(FuzzedDataProvider& in, Slots& slots) : in_(in), server_(slots.server), real_(slots.client) {
        const auto seed = in_.ConsumeIntegral<std::uint16_t>();
        lb::LinkModel link;
        if (in_.ConsumeBool()) {  // an impaired network in some runs: losses, reordering and duplicates reach
                                  // the server, whose transport reports a round trip with jitter and loss
            link.loss = link.duplicate = link.reorder = 10;
            link.reported.rtt = Micros{40'000};
            link.reported.jitter = Micros{10'000};
            link.reported.loss = 0.1;
        }
        frame_ = Micros{4'000 * in_.ConsumeIntegralInRange<std::int64_t>(1, 4)};
        net_ = std::make_unique<lb::Net>(seed, link);
        server_ep_ = &net_->listen(server_addr_, 16);
        cs::ServerConfig sc;
        sc.max_clients = kSeats;
        sc.client_timeout = kClientTimeout;
        sc.hello_timeout = kHelloTimeout;
        sc.seat_grace = in_.ConsumeBool() ? kSeatGrace : Micros{0};
        sc.resume_log_messages = in_.ConsumeIntegralInRange<std::uint32_t>(1, 64);
        sc.max_violations = in_.ConsumeBool() ? 0u : 40u;
        sc.input_buffer_cap = in_.ConsumeIntegralInRange(sc.input_buffer_tuning.max_ticks + 4, 32);
        sc.snapshots.range_coded = in_.ConsumeBool();  // both entity codecs (the bit-packed one is cheaper)
        if (!sc.validate().ok()) fail("config");
        server_.emplace(*server_ep_, sc, arena::new_match(seed));
        for (int i = 0; i < kFakes; ++i) {
            Fake& f = fakes_[static_cast<std::size_t>(i)];
            f.addr = tp::Address{"fake" + std::to_string(i), static_cast<std::uint16_t>(100 + i)};
            f.ep = &net_->create_endpoint(f.addr);
        }
        // The real client is built at its first connect (op 12): until then it would sit idle, unseen by the
        // server, and that op replaces an idle client with a new one anyway.
        real_ep_ = &net_->create_endpoint(real_addr_);
    }
    // The sessions go before the wire they speak on (as members declared after it would).
    ~Driver() {
        real_.reset();
        server_.reset();
    }
    Driver(const Driver&) = delete;
    Driver& operator=(const Driver&) = delete;

    void run() {
        check();
        for (; ops_ < kMaxOps && in_.remaining_bytes() > 0 && now_ < kMaxVirtual; ++ops_) {
            step();
            // The server's state changes only in its own calls (update, kick, broadcast): after any other op
            // (a message queued on the wire, the real client's own work) the check would see what it saw.
            if (server_called_) check();
            server_called_ = false;
        }
    }

    /// What the seed check reads: the server, the real client's phase and the ops run.
    [[nodiscard]] const cs::Server<ArenaGame>& server() const { return *server_; }
    [[nodiscard]] cs::ClientPhase real_phase() const {
        return real_ ? real_->phase() : cs::ClientPhase::idle;
    }
    [[nodiscard]] int ops() const { return ops_; }

private:
    Fake& pick() { return fakes_[in_.ConsumeIntegralInRange<std::size_t>(0, kFakes - 1)]; }

    void send(Fake& f, tp::Delivery d, const std::vector<std::uint8_t>& bytes) {
        if (f.peer == tp::kInvalidPeer) return;
        if (f.ep->send(f.peer, d, bytes).ok()) ++messages_;
    }

    tp::Delivery delivery() {
        return in_.ConsumeBool() ? tp::Delivery::reliable_ordered : tp::Delivery::unreliable;
    }

    arena::Input input() {
        arena::Input x;
        x.move_x = static_cast<std::int8_t>(in_.ConsumeIntegralInRange(-127, 127));
        x.move_y = static_cast<std::int8_t>(in_.ConsumeIntegralInRange(-127, 127));
        x.buttons = in_.ConsumeIntegralInRange<std::uint8_t>(0, arena::kAllButtons);
        x.aim = in_.ConsumeIntegral<std::uint16_t>();
        x.view_delay = in_.ConsumeIntegralInRange<std::uint8_t>(0, arena::kMaxViewDelay);
        x.view_fraction = in_.ConsumeIntegral<std::uint16_t>();
        return x;
    }

    /// An input packet stamped near the server's tick (or anywhere), encoded with the real encoder.
    std::vector<std::uint8_t> input_packet(Fake& f) {
        cs::InputPacket<arena::Input> p;
        p.sequence = f.sequence++;
        const int mode = in_.ConsumeIntegralInRange(0, 3);
        const std::int64_t near = in_.ConsumeIntegralInRange<std::int64_t>(-200, 200);
        p.newest_tick =
            mode == 0
                ? Tick{in_.ConsumeIntegral<std::uint32_t>()}
                : Tick{static_cast<std::uint32_t>(server_->tick().value + static_cast<std::uint32_t>(near))};
        p.count = in_.ConsumeIntegralInRange<std::uint8_t>(0, cs::kInputsPerPacket);
        for (int i = 0; i < p.count; ++i) p.inputs[static_cast<std::size_t>(i)] = input();
        p.has_ack = in_.ConsumeBool();
        p.ack_snapshot_tick =
            Tick{static_cast<std::uint32_t>(server_->tick().value - in_.ConsumeIntegral<std::uint8_t>())};
        p.ping_time = in_.ConsumeIntegral<std::uint32_t>();
        std::vector<std::uint8_t> out;
        if (!cs::encode_message(p, out).ok()) fail("encode input");
        return out;
    }

    std::vector<std::uint8_t> hello(const Fake* f = nullptr) {
        cs::ConnectRequest r;
        // A comeback: the seat this fake was given (its secret, possibly bent), or any slot and secret.
        if (in_.ConsumeIntegralInRange(0, 3) == 0) {
            r.resume = true;
            if (f != nullptr && f->seated && in_.ConsumeBool()) {
                r.resume_slot = f->ticket.slot;
                r.resume_secret = f->ticket.secret;
                if (in_.ConsumeIntegralInRange(0, 3) == 0) r.resume_secret[0] ^= 1;
            } else {
                r.resume_slot = in_.ConsumeIntegral<std::uint8_t>();
                for (auto& b : r.resume_secret) b = in_.ConsumeIntegral<std::uint8_t>();
            }
            r.resume_has_messages = in_.ConsumeBool();
            r.resume_next_message = in_.ConsumeIntegralInRange<std::uint32_t>(0, 300);
        }
        if (in_.ConsumeIntegralInRange(0, 7) == 0) r.version = in_.ConsumeIntegral<std::uint16_t>();
        if (in_.ConsumeIntegralInRange(0, 7) == 0) r.game_id = in_.ConsumeIntegral<std::uint32_t>();
        if (in_.ConsumeIntegralInRange(0, 7) == 0)
            r.token = in_.ConsumeBytes<std::uint8_t>(in_.ConsumeIntegralInRange(0, 64));
        std::vector<std::uint8_t> out;
        if (!cs::encode_message(r, out).ok()) fail("encode hello");
        return out;
    }

    std::vector<std::uint8_t> any_message(Fake& f) {
        switch (in_.ConsumeIntegralInRange(0, 3)) {
            case 0:
                return hello();
            case 1: {
                // A client message: a chat line, or any type id with any payload (the server validates both).
                cs::ClientMessage c;
                if (in_.ConsumeBool()) {
                    c.type = cs::kChatMessageId;
                    if (!cs::encode_payload(cs::Chat{0, in_.ConsumeRandomLengthString(cs::kMaxChatBytes)},
                                            c.payload)
                             .ok())
                        fail("encode chat");
                } else {
                    c.type = in_.ConsumeIntegral<std::uint8_t>();
                    const auto n = in_.ConsumeIntegralInRange<std::size_t>(0, 40);
                    c.payload = in_.ConsumeBytes<std::uint8_t>(n);
                }
                std::vector<std::uint8_t> out;
                if (!cs::encode_message(c, out).ok()) fail("encode client message");
                return out;
            }
            case 2: {
                cs::Disconnect d{cs::DisconnectCode::client_quit};
                std::vector<std::uint8_t> out;
                if (!cs::encode_message(d, out).ok()) fail("encode disconnect");
                return out;
            }
            default:
                return input_packet(f);
        }
    }

    /// A real message with a few bits flipped, truncated or extended.
    std::vector<std::uint8_t> mutated(Fake& f) {
        std::vector<std::uint8_t> m = any_message(f);
        const int flips = in_.ConsumeIntegralInRange(0, 4);
        for (int i = 0; i < flips && !m.empty(); ++i)
            m[in_.ConsumeIntegralInRange<std::size_t>(0, m.size() - 1)] ^=
                static_cast<std::uint8_t>(1u << in_.ConsumeIntegralInRange(0, 7));
        if (in_.ConsumeBool() && !m.empty())
            m.resize(in_.ConsumeIntegralInRange<std::size_t>(0, m.size()));
        else if (in_.ConsumeBool()) {
            const auto extra = in_.ConsumeBytes<std::uint8_t>(in_.ConsumeIntegralInRange(0, 16));
            m.insert(m.end(), extra.begin(), extra.end());
        }
        return m;
    }

    /// Time passing as the apps see it: an update every frame.
    void advance(Micros by) {
        const Micros end = now_ + by;
        while (now_ < end) update(std::min(end, now_ + frame_));
    }

    /// A stall (a paused or descheduled host): nothing runs for `by`, then one update, in which the server
    /// and the real client catch up a few ticks and drop the rest, and every timeout is due at once. It
    /// passes the timeouts for a handful of ticks; steady time to them is many advances.
    void stall(Micros by) { update(now_ + by); }

    void update(Micros now) {
        server_called_ = true;
        now_ = now;
        server_->update(now_);
        if (real_) real_->update(now_);
        drain();
    }

    void drain() {
        tp::TransportEvent ev;
        for (Fake& f : fakes_) {
            f.ep->update(now_);
            while (f.ep->poll(ev)) {
                if (ev.type == tp::TransportEvent::Type::disconnected && ev.peer == f.peer)
                    f.peer = tp::kInvalidPeer;
                cs::ConnectAccept acc;
                if (ev.type == tp::TransportEvent::Type::message && ev.peer == f.peer &&
                    cs::decode_message(ev.data, acc).ok()) {
                    f.seated = true;
                    f.ticket.slot = acc.slot;
                    f.ticket.secret = acc.resume_secret;
                }
            }
        }
        cs::Message m;
        while (real_ && real_->poll_message(m)) {
        }
    }

    void step() {
        Fake& f = pick();
        switch (in_.ConsumeIntegralInRange(0, 15)) {
            case 0:
                if (f.peer == tp::kInvalidPeer) {
                    auto r = f.ep->connect(server_addr_);
                    if (r.ok()) f.peer = r.value();
                }
                break;
            case 1:
                send(f, tp::Delivery::reliable_ordered, hello(&f));
                break;
            case 2:
            case 3:
                send(f, tp::Delivery::unreliable, input_packet(f));
                break;
            case 4: {  // flood: a burst of input packets within one update
                const int n = in_.ConsumeIntegralInRange(1, 64);
                for (int i = 0; i < n; ++i) send(f, tp::Delivery::unreliable, input_packet(f));
                break;
            }
            case 5: {  // (one statement per draw: argument evaluation order is unspecified)
                const tp::Delivery d = delivery();
                send(f, d, in_.ConsumeBytes<std::uint8_t>(in_.ConsumeIntegralInRange(0, 96)));
                break;
            }
            case 6: {
                const tp::Delivery d = delivery();
                send(f, d, mutated(f));
                break;
            }
            case 7: {
                const tp::Delivery d = delivery();
                send(f, d, any_message(f));
                break;
            }
            case 8:
                if (f.peer != tp::kInvalidPeer) {
                    f.ep->disconnect(f.peer);
                    f.peer = tp::kInvalidPeer;
                }
                break;
            case 9: {  // what the server's transport measures of this fake's link (acks it delays move it)
                const Micros rtt{in_.ConsumeIntegralInRange<std::int64_t>(0, 2'000'000)};
                const Micros jitter{in_.ConsumeIntegralInRange<std::int64_t>(0, 1'000'000)};
                server_ep_->set_link(f.addr, rtt, jitter, in_.ConsumeProbability<double>());
                break;
            }
            case 10:
                stall(Micros{in_.ConsumeIntegralInRange<std::int64_t>(4'000, kMaxStall.count)});
                break;
            case 11:
                server_called_ = true;
                server_->kick(in_.ConsumeIntegralInRange(-1, kSeats), cs::DisconnectCode::cheating, now_);
                break;
            case 12:
                if (real_phase() == cs::ClientPhase::idle || real_phase() == cs::ClientPhase::disconnected) {
                    real_ep_ = nullptr;
                    real_.reset();
                    net_->close_endpoint(real_addr_);
                    real_addr_.port = static_cast<std::uint16_t>(real_addr_.port + 1);
                    real_ep_ = &net_->create_endpoint(real_addr_);
                    real_.emplace(*real_ep_, cs::ClientConfig{});
                    (void)real_->connect(server_addr_, now_);
                } else {
                    real_->set_input(input());
                }
                break;
            case 13:  // (an idle client has nobody to say goodbye to)
                if (real_) real_->disconnect(now_);
                break;
            case 14:
                server_called_ = true;
                (void)server_->broadcast(arena::ScoreMessage{
                    static_cast<std::uint8_t>(in_.ConsumeIntegralInRange(0, arena::kMaxPlayers - 1)),
                    in_.ConsumeIntegral<std::int32_t>()});
                break;
            default:
                advance(Micros{in_.ConsumeIntegralInRange<std::int64_t>(1'000, 100'000)});
                break;
        }
    }

    // The oracle: not code under test, so its loops over every seat and projectile give no coverage
    // feedback (and pay for no traced comparisons). Kept out of line: inlined into run(), its code would be
    // instrumented as run()'s.
    __attribute__((noinline, no_sanitize("coverage"))) void check() const {
        const auto& s = *server_;
        const auto& st = s.stats();
        const int seated = s.seated_count();
        if (seated < 0 || seated > s.max_clients() || s.max_clients() != kSeats)
            fail("seated count out of range");
        int away = 0;
        for (int slot = 0; slot < s.max_clients(); ++slot) away += s.away(slot) ? 1 : 0;
        if (away > 0 && s.config().seat_grace.count == 0) fail("a seat held without a grace");
        // A held seat is neither seated nor left: its player is still in the world.
        if (st.connects < st.disconnects ||
            st.connects - st.disconnects != static_cast<std::uint64_t>(seated + away))
            fail("connects - disconnects != seated + held");
        if (st.seats_expired > st.seats_held) fail("more held seats expired than were held");
        for (int slot = 0; slot < ArenaGame::kMaxPlayers; ++slot) {
            const bool in_world = s.state().players[static_cast<std::size_t>(slot)].present();
            const bool taken = s.seated(slot) || s.away(slot);
            if (s.seated(slot) && s.away(slot)) fail("a seat both seated and held");
            if (in_world != taken) fail("world player and seat disagree");
            if (!taken)
                for (const auto& p : s.state().projectiles[static_cast<std::size_t>(slot)])
                    if (p.active()) fail("projectile of an empty seat");
        }
        for (int slot = 0; slot < s.max_clients(); ++slot) {
            const auto& cst = s.client_stats(slot);
            if (s.away(slot) && (cst.connected || !cst.away)) fail("a held seat's stats say connected");
            if (s.seated(slot)) {
                if (!cst.connected || cst.away || s.slot_of(cst.peer) != slot)
                    fail("seat and its stats disagree");
                if (cst.input_buffer_depth > s.config().input_buffer_cap) fail("input queue beyond its cap");
                if (cst.malformed >= s.config().max_malformed && s.config().max_malformed)
                    fail("garbage not kicked");
                if (s.config().max_violations &&
                    cst.violations > s.config().max_violations + 8u * cs::kInputsPerPacket)
                    fail("cheater not kicked");
            }
        }
        // Every counted message came from somewhere: the fakes, the real client, or the server's own kicks.
        // (the impaired network may duplicate an unreliable datagram, hence twice)
        if (st.malformed + st.unexpected > 2 * messages_) fail("more malformed than messages sent");
        if (st.kicked_garbage + st.kicked_cheating > st.connects + st.malformed) fail("kick counters");
        if (static_cast<std::uint32_t>(st.ticks) != s.tick().value) fail("ticks simulated != next tick");
    }

    FuzzedDataProvider& in_;
    std::unique_ptr<lb::Net> net_;
    tp::Address server_addr_{"server", 1};
    tp::Address real_addr_{"real", 200};
    lb::Endpoint* server_ep_ = nullptr;
    lb::Endpoint* real_ep_ = nullptr;
    fuzzing::WarmSlot<cs::Server<ArenaGame>>& server_;
    fuzzing::WarmSlot<cs::Client<ArenaGame>>& real_;
    std::array<Fake, kFakes> fakes_{};
    std::uint64_t messages_ = 0;
    int ops_ = 0;
    bool server_called_ = false;  // the op called the server (its state may have changed)
    Micros now_{1'000'000};
    Micros frame_{4'000};  // the update interval of this execution
};

}  // namespace fuzzing::server_session
