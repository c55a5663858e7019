/// Server<G>: the authoritative client-server session for game G: the compiled ServerCore plus the game's
/// world, its step, lag compensation and snapshot entities.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/detail/lag_compensation.hpp>
#include <rewind/session/client_server/detail/server_core.hpp>
#include <rewind/session/client_server/detail/server_replay.hpp>
#include <rewind/session/client_server/detail/snapshot_sender.hpp>
#include <rewind/session/client_server/message_outbox.hpp>
#include <rewind/session/client_server/message_registry.hpp>
#include <rewind/session/client_server/server_recorder.hpp>
#include <rewind/session/client_server/stats.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/session/game_hooks.hpp>
#include <rewind/transport/net_recording.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace rwd::client_server {

/// An authoritative server for game G over any Transport. The app calls update(now) often (every frame or
/// every millisecond); the server runs whole ticks at config.tick_rate_hz, applies exactly one sanitized
/// input per seated player per tick, lag-compensates shots, and sends each client a snapshot at
/// snapshot_rate_hz. No threads, no clock reads (except the optional stats clock), no callbacks into the app.
template <class G>
class Server final : private ServerGameSide {
    static_assert(contract::replicated_game<G>());

public:
    using State = typename G::State;                ///< the game's world
    using Input = typename G::Input;                ///< one player's input for one tick
    using EntityRecord = typename G::EntityRecord;  ///< one replicated entity with its id
    /// Ticks of hitbox history kept for lag compensation (about 1 s at 60 Hz).
    static constexpr int kHistoryTicks = kLagHistoryTicks;

    /// A server speaking on `transport` (not owned; must outlive the server) from `initial`. An invalid
    /// config is a programmer error: call config.validate() first.
    Server(transport::Transport& transport, const ServerConfig& config, const State& initial = State{})
        : core_(transport, config, seats_for(config), *this, message_table<G>()),
          state_(initial),
          lag_(config),
          sender_(config.snapshots, seats_for(config)),
          replay_(config.late_input_replay_ticks) {}

    /// Moves the server to `now`: takes in messages, runs due ticks, sends snapshots, drops silent clients.
    void update(Micros now) {
        if (netrec_) netrec_->note_update(now);
        const int ticks = core_.update(now);
        if (replay_.capacity() > 0 && !same_world(state_, after_))
            replay_.clear();  // the app changed the world: the recorded past is no longer its past
        replay_late_inputs();
        for (int i = 0; i < ticks; ++i) run_tick(now);
        core_.finish_update();
    }

    /// Sends `code` to the client in `slot`, removes its player at once and closes the connection shortly
    /// after.
    void kick(int slot, DisconnectCode code, Micros now) {
        if (netrec_) netrec_->note_kick(slot, static_cast<std::uint8_t>(code), now);
        core_.kick(slot, code, now);
    }
    /// Notes every update() and kick() in `recording` (the RecordingTransport this server speaks on), so that
    /// replay_server() can re-run this server offline; nullptr stops. Messages the app sends and writes to
    /// state() are not noted: a server that makes them re-runs differently. See docs/REPLAY.md.
    void record_to(transport::RecordingTransport* recording) { netrec_ = recording; }
    /// Optional relevance of entities per client, applied within the area of interest: fn(user, slot, entity)
    /// returns a priority multiplier, <= 0 for "not relevant to this client" (its own entity always is).
    void set_relevance(sync::RelevanceFn<EntityRecord> fn, void* user) { sender_.set_relevance(fn, user); }
    /// Sends `m` to the client in `slot` (on its type's channel, stamped with the tick being simulated).
    /// Fails with length_too_long when it is over its max_bytes, not_connected when nobody holds `slot`.
    template <GameMessage M>
    Status send(int slot, const M& m) {
        return send_scoped(m, MessageScope::one, slot);
    }
    /// Sends `m` to every seated client.
    template <GameMessage M>
    Status broadcast(const M& m) {
        return send_scoped(m, MessageScope::everyone, 0);
    }
    /// Takes the oldest message a client sent (its type known, on the right channel, within its size and
    /// rate, and decodable: refusals are counted in stats().messages_refused); false when there is none. Poll
    /// every update: at most 4096 wait, the oldest then go.
    [[nodiscard]] bool poll_message(Message& out) { return core_.poll_message(out); }
    /// Decodes `msg` as M when it is of that type; false otherwise.
    template <GameMessage M>
    [[nodiscard]] bool read(const Message& msg, M& out) const {
        return read_message_as<G>(msg, out);
    }

    /// The authoritative world (after the last tick).
    [[nodiscard]] const State& state() const { return state_; }
    /// The world, writable: for apps and tests that set up a scene before or between updates (a change is
    /// noticed at the next update: the ticks before it are no longer replayed for a late input).
    [[nodiscard]] State& state() { return state_; }
    /// Called after every tick with the world before and after it, and again for each tick a late-input
    /// replay re-simulated (`replayed`, oldest first, after the replay is committed). nullptr: none.
    using TickObserver = void (*)(void* user, Tick tick, const State& before, const State& after,
                                  bool replayed);
    /// Sets the tick observer (for tools that follow the simulation tick by tick, such as the lab).
    void set_tick_observer(TickObserver fn, void* user) {
        observer_ = fn;
        observer_user_ = user;
    }
    /// Sets the recorder told every tick's final world and every message sent (a WorldRecorder<G>; not
    /// owned, must outlive the server or be unset). nullptr: none.
    void set_recorder(ServerRecorder<G>* recorder) { recorder_ = recorder; }
    /// The next tick to simulate.
    [[nodiscard]] Tick tick() const { return core_.tick(); }
    /// Whether a client holds `slot`.
    [[nodiscard]] bool seated(int slot) const { return core_.seated(slot); }
    /// Whether the seat `slot` is held for a client whose link is lost (ServerConfig::seat_grace): its player
    /// is in the world, and seated() is false until the client comes back.
    [[nodiscard]] bool away(int slot) const { return core_.away(slot); }
    /// Number of seated clients.
    [[nodiscard]] int seated_count() const { return core_.seated_count(); }
    /// The slot of a transport peer, or -1.
    [[nodiscard]] int slot_of(transport::PeerId peer) const { return core_.slot_of(peer); }
    /// Server-wide stats.
    [[nodiscard]] const ServerStats& stats() const { return core_.stats(); }
    /// Appends the server's figures to `out` in the Prometheus text format: counters since the start (ticks,
    /// tick-time histogram, snapshot bytes, late and repeated inputs, replays, shots clamped by lag
    /// compensation, malformed messages, kicks, refusals and token refusals by reason) and gauges of the
    /// seated clients now (RTT, input buffer depth, link rates). Serve out.text() at /metrics; names and
    /// labels are listed in docs/DEPLOY.md.
    void write_metrics(MetricsText& out) const { core_.write_metrics(out); }
    /// Stats of the client in `slot` (kept after it leaves until the seat is reused).
    [[nodiscard]] const ServerClientStats& client_stats(int slot) const { return core_.client_stats(slot); }
    /// The config in use.
    [[nodiscard]] const ServerConfig& config() const { return core_.config(); }
    /// Number of seats offered.
    [[nodiscard]] int max_clients() const { return core_.max_clients(); }

private:
    using TickRecord = ReplayTick<G>;

    template <GameMessage M>
    Status send_scoped(const M& m, MessageScope scope, int slot) {
        static_assert(to_client_v<M>,
                      "this message type may not travel to clients (its MessageSpec::direction)");
        // A reliable message to a player whose link is lost waits in its seat's log for its comeback.
        constexpr bool reliable = M::kMessage.delivery == MessageDelivery::reliable;
        if (scope == MessageScope::one && !core_.seated(slot) && !(reliable && core_.away(slot)))
            return Errc::not_connected;
        OutMessage out{message_id<G, M>(),
                       scope,
                       static_cast<std::uint8_t>(std::max(slot, 0)),
                       0,
                       M::kMessage.delivery == MessageDelivery::reliable,
                       {}};
        if (Status st = encode_payload(m, out.payload); !st.ok()) return st;
        core_.send_message(out, core_.tick());
        if (recorder_) recorder_->on_message(core_.tick(), out);
        return {};
    }

    // Whether the app left the world as the last tick did: == or the bytes where they tell, else (a world on
    // the heap) its checksum.
    static bool same_world(const State& a, const State& b) {
        if constexpr (std::equality_comparable<State> || std::has_unique_object_representations_v<State>)
            return same_state(a, b);
        else
            return G::checksum(a) == G::checksum(b);
    }

    static int seats_for(const ServerConfig& c) {
        return c.max_clients > 0 ? std::min(c.max_clients, G::kMaxPlayers) : G::kMaxPlayers;
    }

    // ---- ServerGameSide: the one place where the core's bits become the game's types ----
    bool read_input(wire::ReadStream& s, EncodedInput& out) override {
        Input in{};
        return serialize(s, in) && encode_input(in, out);  // the game's quantized input (ADL)
    }
    void on_seated(int slot) override {
        sender_.reset(slot);
        replay_.clear();  // a replay from before would bring the old seats back
        G::add_player(state_, slot);
    }
    void on_unseated(int slot) override {
        replay_.clear();
        G::remove_player(state_, slot);
    }
    void on_away(int slot) override {
        replay_.clear();  // its inputs from here on are neutral: a replay would bring the old ones back
        hooks::player_away<G>(state_, slot);
    }
    void on_back(int slot) override {
        sender_.reset(slot);  // the new connection holds no baseline: the first snapshot is in full
        replay_.clear();
        hooks::player_back<G>(state_, slot);
    }
    [[nodiscard]] std::uint32_t player_entity(int slot) const override {
        return static_cast<std::uint32_t>(G::player_entity(slot));
    }
    void on_snapshot_ack(int slot, Tick tick) override { sender_.ack(slot, tick); }
    void begin_snapshots() override {
        G::capture(state_, world_);
        sender_.begin(world_);
    }
    bool write_snapshot_entities(int slot, const SnapshotHeader& head, std::size_t head_bits,
                                 std::size_t budget_bytes, wire::WriteStream& s,
                                 SnapshotSectionStats& out) override {
        return sender_.write(slot, head, head_bits, budget_bytes, s, out);
    }
    void commit_snapshot(int slot, const SnapshotHeader& head) override { sender_.commit(slot, head); }

    void run_tick(Micros now) {
        const Micros started = core_.stats_clock_now();
        const Tick tick = core_.tick();
        inputs_.fill(Input{});
        lag_.begin_tick();
        TickRecord* rec = replay_.record(tick);
        for (int i = 0; i < core_.max_clients(); ++i) {
            if (!core_.seated(i)) continue;
            const PoppedInput popped = core_.pop_input(i);
            Input raw{};
            (void)decode_input(popped.bits, raw);  // validated when it arrived
            std::uint32_t violations = 0;
            const Input in = hooks::sanitize<G>(raw, violations);
            core_.add_violations(i, violations);
            inputs_[static_cast<std::size_t>(i)] = in;
            if (rec) rec->repeated[static_cast<std::size_t>(i)] = popped.repeated;
            if (lag_.fires(in) && !popped.repeated) {
                const ViewTime view = judge_shot(i, in, tick, true);
                aim(i, view);
                if (rec)
                    rec->shot[static_cast<std::size_t>(i)] = true,
                    rec->views[static_cast<std::size_t>(i)] = view;
            }
        }
        // One copy of the world before the tick: the replay record's when there is one.
        if (rec)
            rec->before = state_, rec->inputs = inputs_;
        else if (EmitsMessages<G> || observer_)
            before_ = state_;
        const State& before = rec ? rec->before : before_;
        lag_.step(state_, std::span<const Input>(inputs_));
        lag_.record(tick, state_);
        if constexpr (EmitsMessages<G>) {
            outbox_.clear();
            G::collect_messages(before, state_, outbox_);
            for (const OutMessage& m : outbox_.items()) send_out(m, tick);
            if (rec) rec->messages = outbox_.items();
        }
        if (rec) after_ = state_;
        if (observer_) observer_(observer_user_, tick, before, state_, false);
        if (recorder_) recorder_->on_tick(tick, state_, false);
        core_.end_tick(now, started);
    }

    // Gives shooter `slot` its targets at `view`: with judge_shots_as_seen, only those its client drew then.
    // Without that snapshot in the window (it never is for a view the history still holds) every one counts.
    void aim(int slot, ViewTime view) {
        lag_.aim(slot, view);
        if (!core_.config().judge_shots_as_seen) return;
        if (const auto* drawn = sender_.drawn_after(slot, view.from)) lag_.keep_seen(slot, *drawn);
    }

    // The view time a shot of `slot` is judged at. It comes from the client: clamp() keeps it within that
    // client's own latency (or the fixed cap), the present and the history, and says which bound it hit.
    ViewTime judge_shot(int slot, const Input& in, Tick tick, bool count) {
        ShotVerdict verdict;
        const ViewTime view = lag_.judge(in, tick, core_.rewind_limit(slot), verdict);
        if (count)
            core_.count_shot(slot, verdict);
        else
            pending_verdicts_.push_back(std::pair<int, ShotVerdict>{slot, verdict});
        return view;
    }

    // Sends one message the game sent at `tick` (by a replay: a tick already simulated).
    void send_out(const OutMessage& m, Tick tick) {
        NearbyMessage nm{this, &m};
        core_.send_message(m, tick, m.scope == MessageScope::nearby ? &Server::sees_message : nullptr, &nm);
        if (recorder_) recorder_->on_message(tick, m);
    }

    void replay_late_inputs();
    bool replay_from(Tick from);

    // A nearby message being sent, and its server (sees_message's user pointer).
    struct NearbyMessage {
        const Server* server;
        const OutMessage* message;
    };
    // Whether the client in `slot` receives the nearby message: its newest snapshot carried one of the two
    // players (the two themselves always receive it).
    static bool sees_message(void* user, int slot) {
        const auto& [srv, m] = *static_cast<const NearbyMessage*>(user);
        return srv->sender_.holds(slot, static_cast<std::uint32_t>(G::player_entity(m->a))) ||
               srv->sender_.holds(slot, static_cast<std::uint32_t>(G::player_entity(m->b)));
    }

    ServerCore core_;
    State state_;
    State before_{};  // the world before the tick, for collect_messages and the observer (without replays)
    LagCompensation<G> lag_;  // hitbox history and rewound targets (nothing without the hooks)
    std::array<Input, G::kMaxPlayers> inputs_{};
    MessageOutbox<G> outbox_;                                    // what collect_messages sent this tick
    std::vector<EntityRecord> world_;                            // every entity, captured once per snapshot
    SnapshotSender<G> sender_;                                   // baselines, interest, priorities, budget
    ReplayRing<G> replay_;                                       // the last ticks, for replaying late inputs
    ReplayRing<G> work_{0};                                      // a replay's working copy
    std::vector<std::pair<int, ShotVerdict>> pending_verdicts_;  // shots a replay judged, counted on commit
    struct Applied {
        int slot;
        Tick tick;
        EncodedInput bits;
    };
    std::vector<Applied> applied_;                    // the late inputs a replay applies
    std::vector<std::pair<Tick, OutMessage>> extra_;  // messages a replay found that were not sent
    State after_{};  // the world as the last tick or replay left it (replays only)
    TickObserver observer_ = nullptr;
    void* observer_user_ = nullptr;
    ServerRecorder<G>* recorder_ = nullptr;
    transport::RecordingTransport* netrec_ = nullptr;  // record_to()
};

}  // namespace rwd::client_server

#include <rewind/session/client_server/detail/server_replay_impl.hpp>
