/// Client<G>: the client-server session: connect, predict the local player, reconcile, interpolate others,
/// sync the clock. A thin adapter over the compiled ClientCore: it owns the predicted State and calls the
/// game.
#pragma once

#include <rewind/core/sequence_buffer.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/client_phase.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/detail/client_core.hpp>
#include <rewind/session/client_server/detail/predicted_history.hpp>
#include <rewind/session/client_server/detail/snapshot_receiver.hpp>
#include <rewind/session/client_server/message_registry.hpp>
#include <rewind/session/client_server/resume_ticket.hpp>
#include <rewind/session/client_server/stats.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/session/game_hooks.hpp>
#include <rewind/sync/clock_sync.hpp>
#include <rewind/sync/frac_tick.hpp>
#include <rewind/sync/interpolation_buffer.hpp>
#include <rewind/sync/visual_smoother.hpp>
#include <rewind/transport/net_recording.hpp>
#include <rewind/transport/transport.hpp>
#include <rewind/wire/stream.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rwd::client_server {

/// A client of a Server<G> over any Transport. The app calls set_input() whenever its controls change,
/// update(now) every frame, then reads render_entities() and stats(). The client runs its own ticks ahead of
/// the server (by RTT/2 plus a margin, kept there by clock sync), predicts its player with G::step at once,
/// and reconciles against every newer snapshot by rebuilding the world from it (G::restore) and replaying the
/// inputs the server has not processed yet. Connection, clock, acks, messages and stats live in the compiled
/// detail::ClientCore; this adapter owns the State, the prediction and what is drawn, and turns Input into
/// bits at one place (predict_tick).
template <class G>
class Client : private detail::ClientGameAccess {
    static_assert(contract::replicated_game<G>());

public:
    using State = typename G::State;                      ///< the game's world
    using Input = typename G::Input;                      ///< one player's input for one tick
    using EntitySnapshot = typename G::EntitySnapshot;    ///< one replicated entity
    using EntityRecord = typename G::EntityRecord;        ///< an entity with its id
    using Snapshot = SnapshotPacket<EntityRecord>;        ///< the snapshot message
    using Packet = InputPacket<Input>;                    ///< the input message
    using Correction = CorrectionRecord<EntitySnapshot>;  ///< one misprediction
    /// Ticks of input and state history kept for reconciliation.
    static constexpr std::size_t kHistory = 128;

    /// One entity to draw this frame.
    struct RenderEntity {
        std::uint32_t id = 0;    ///< the entity id
        EntitySnapshot snap{};   ///< where to draw it (interpolated, or predicted for the own player)
        bool predicted = false;  ///< true for the local player (snap already includes the smoothing offset)
    };

    /// A client speaking on `transport` (not owned; must outlive the client). An invalid config is a
    /// programmer error: call config.validate() first.
    Client(transport::Transport& transport, const ClientConfig& config);
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    /// Starts connecting to the server at `server`.
    [[nodiscard]] Status connect(const transport::Address& server, Micros now) {
        if (netrec_) netrec_->note_connect(server, now);
        return core_.connect(server, now);
    }
    /// Starts connecting to the server at `server` asking for the seat `ticket` names (a restarted process
    /// with a ticket it saved, see resume_ticket()): given back when the server still holds it for this
    /// client, else a seat of its own. Not noted by record_to().
    [[nodiscard]] Status connect(const transport::Address& server, Micros now, const ResumeTicket& ticket) {
        return core_.connect(server, now, &ticket);
    }
    /// The claim to this client's seat, while the server holds seats for lost links (ServerConfig::
    /// seat_grace): save ticket_text() of it to come back after a restart. Reconnecting after a lost link
    /// needs nothing of the app: the client does it on its own (phase `reconnecting`).
    [[nodiscard]] std::optional<ResumeTicket> resume_ticket() const { return core_.resume_ticket(); }
    /// Replaces the connect token and its keys, for the next connection: a reconnection with a token the
    /// server refused as used or expired waits for this (needs_credentials()).
    void set_credentials(const std::vector<std::uint8_t>& token, const auth::SessionKeys& keys) {
        core_.set_credentials(token, keys);
    }
    /// Reconnecting, and waiting for fresh credentials (set_credentials) before the next attempt.
    [[nodiscard]] bool needs_credentials() const { return core_.needs_credentials(); }
    /// Says goodbye and closes the connection.
    void disconnect(Micros now) {
        if (netrec_) netrec_->note_disconnect(now);
        core_.disconnect(now);
    }
    /// Moves the client to `now`: takes in messages, runs due ticks (predict + send), tracks the clock.
    void update(Micros now) {
        if (netrec_) netrec_->note_update(now);
        // The correction offset decays with time, before this frame's corrections.
        smoother_.advance(core_.time_since_update(now));
        core_.update(now);
        // A snapshot that arrived in this update is reconciled to after its ticks ran on the prediction as it
        // was: the smoothing then hides the whole correction, this frame's motion included.
        if (reconcile_due_) {
            reconcile_due_ = false;
            reconcile(latest_, now);
        }
    }
    /// The local player's input for the coming ticks (it stays until changed).
    void set_input(const Input& input) {
        if (netrec_) note_input(input);
        input_ = input;
    }
    /// Notes every call above and render_entities() in `recording` (the RecordingTransport this client speaks
    /// on), so that replay_client() can re-run this client offline; nullptr stops. See docs/REPLAY.md.
    void record_to(transport::RecordingTransport* recording) { netrec_ = recording; }
    /// Sends a chat line (at most kMaxChatBytes); the server relays it to everyone as a Chat message.
    [[nodiscard]] Status send_chat(const std::string& text) { return core_.send_chat(text); }
    /// Sends `m` to the server on its type's channel. Fails with length_too_long when it is over its
    /// max_bytes, not_connected before the accept. The server refuses (and counts) more than its type's rate.
    template <GameMessage M>
    [[nodiscard]] Status send(const M& m) {
        static_assert(to_server_v<M>,
                      "this message type may not travel to the server (its MessageSpec::direction)");
        std::vector<std::uint8_t> payload;
        if (Status st = encode_payload(m, payload); !st.ok()) return st;
        return core_.send_message(message_id<G, M>(), payload,
                                  M::kMessage.delivery == MessageDelivery::reliable);
    }
    /// Takes the next message received: reliable ones in order, exactly once (the library's Spawn, Leave and
    /// Chat among them); unreliable ones as they came. A message of a type this game does not have, or that
    /// does not decode, is dropped and counted (stats().messages_refused). False when there is none.
    [[nodiscard]] bool poll_message(Message& out) { return core_.poll_message(out); }
    /// Decodes `msg` as M when it is of that type; false otherwise.
    template <GameMessage M>
    [[nodiscard]] bool read(const Message& msg, M& out) const {
        return read_message_as<G>(msg, out);
    }

    /// Entities to draw at `now`: the predicted local player and every other entity interpolated at
    /// render_time().
    [[nodiscard]] const std::vector<RenderEntity>& render_entities(Micros now);
    /// The server tick remote entities are drawn at (interpolated, behind the server): what a shot fired now
    /// is stamped with for lag compensation.
    [[nodiscard]] sync::FracTick render_time() const { return render_time_; }
    /// The local player's predicted entity at the current tick (no smoothing), if it exists. Cheap: taken
    /// from the predicted world once per change of it.
    [[nodiscard]] std::optional<EntitySnapshot> own_entity() const;
    /// The local player as drawn: the prediction moved by the decaying correction offset,
    /// G::with_render_offset(predicted, smoother().offset()) (the prediction itself without render hooks).
    [[nodiscard]] std::optional<EntitySnapshot> smoothed_own_entity() const;
    /// The visual correction offset (metres, decaying over smoothing_time; snaps beyond snap_distance_m).
    [[nodiscard]] const sync::VisualSmoother& smoother() const { return smoother_; }
    /// The predicted world at the current tick.
    [[nodiscard]] const State& predicted_state() const { return state_; }
    /// The entities of the newest snapshot, uninterpolated and sorted by id, the own player included: the
    /// server's authoritative world as last received (an entity the server's byte budget left out shows its
    /// newest value received). Empty before the first snapshot.
    [[nodiscard]] std::span<const EntityRecord> newest_snapshot_entities() const { return latest_.entities; }
    /// For each of newest_snapshot_entities(), the server tick its value is from: newest_server_tick(), or
    /// for an entity the server's byte budget left out, the tick of the snapshot that last carried it. How
    /// far behind the newest snapshot a copy is: what the budget costs in staleness.
    [[nodiscard]] std::span<const Tick> newest_snapshot_value_ticks() const { return refreshed_; }

    /// What the client is doing.
    [[nodiscard]] ClientPhase phase() const { return core_.phase(); }
    /// How long the server has said nothing (no message at all) while syncing or playing; 0 otherwise.
    [[nodiscard]] Micros server_silence(Micros now) const { return core_.server_silence(now); }
    /// The server has been silent longer than ClientConfig::interruption_notice: remote players drawn now are
    /// guesses, and the connection may be lost (the transport decides, after its own timeout). Show it.
    [[nodiscard]] bool connection_interrupted(Micros now) const { return core_.connection_interrupted(now); }
    /// The slot the server gave us (-1 before the accept).
    [[nodiscard]] int slot() const { return core_.slot(); }
    /// The client's current tick (the next input it will produce is for this tick).
    [[nodiscard]] Tick tick() const { return core_.tick(); }
    /// The newest server tick received in a snapshot.
    [[nodiscard]] Tick newest_server_tick() const { return core_.newest_server_tick(); }
    /// Overlay stats.
    [[nodiscard]] const ClientStats& stats() const { return core_.stats(); }
    /// The most recent corrections, oldest first (at most config.correction_log_size; stats().corrections
    /// counts all).
    [[nodiscard]] const std::deque<Correction>& corrections() const { return corrections_; }
    /// Interpolation depth of each remote entity, sorted by id: the newest buffered snapshot tick the entity
    /// appears in minus the render tick (negative: its newest data is already behind what is drawn).
    [[nodiscard]] std::vector<EntityBufferStats> entity_buffer_stats() const;
    /// The clock estimator (RTT, server tick estimate, lead).
    [[nodiscard]] const sync::ClockSync& clock() const { return core_.clock(); }
    /// The config in use.
    [[nodiscard]] const ClientConfig& config() const { return core_.config(); }

private:
    // detail::ClientGameAccess: what the core asks of the game side.
    bool read_snapshot_entities(wire::ReadStream& s, const SnapshotHeader& head,
                                bool& baseline_missing) override;
    void accept_snapshot(const SnapshotHeader& head, bool reconcile_now, Micros now) override;
    void restart_prediction(bool was_playing) override;
    void sample_render_time(Micros now) override;
    bool predict_tick(Tick t, EncodedInput& out) override;
    void forget_snapshots() override {
        receiver_.reset();
        has_reconciled_ = false;  // a new connection: its ticks say nothing of the last one's
        reconcile_due_ = false;
    }

    void reconcile(const Snapshot& snap, Micros now);
    void update_render_time(Micros now);
    double keep_drawn_player(const std::optional<EntitySnapshot>& predicted_before);
    void predicted_state_changed() { own_fresh_ = false; }
    [[nodiscard]] std::optional<EntitySnapshot> own_in(std::span<const EntityRecord> entities) const;
    void predict_one(State& s, Tick t);
    void note_input(const Input& input) {
        std::array<std::uint8_t, 1024> buf{};
        wire::WriteStream w(std::span<std::uint8_t>(buf.data(), buf.size()));
        Input copy = input;
        if (!serialize(w, copy) || !w.ok()) {  // noted empty: the re-run counts it as a call it cannot make
            netrec_->note_input({});
            return;
        }
        w.flush();
        netrec_->note_input(std::span<const std::uint8_t>(buf.data(), w.bytes_used()));
    }

    detail::ClientCore core_;
    sync::InterpolationBuffer<std::vector<EntityRecord>, 32> interp_;
    sync::InterpolationSample<std::vector<EntityRecord>> sample_{};
    bool has_first_input_ = false;
    Tick first_input_tick_{};
    bool has_reconciled_ = false;  // last_reconciled_tick_ is valid
    bool reconcile_due_ = false;   // latest_ is to be reconciled to at the end of this update
    Tick last_reconciled_tick_{};  // server tick of the newest snapshot reconciled to
    Input input_{};
    State state_{};  // predicted world at tick() - 1 (after the last predicted tick)
    SequenceBuffer<Input, kHistory, Tick> inputs_;
    // The own player after applying the input for t (or the whole world, for a game without capture_entity).
    detail::PredictedHistory<G, kHistory> history_;
    Snapshot latest_{};
    Snapshot incoming_{};
    std::vector<Tick> refreshed_;       // newest_snapshot_value_ticks(), one per entity of latest_
    std::vector<Tick> refreshed_next_;  // built for incoming_ before the swap
    SnapshotReceiver<G> receiver_;      // decoded snapshots (delta baselines) and the display list
    std::deque<Correction> corrections_;
    sync::VisualSmoother smoother_;  // the drawn own player = prediction + this offset
    sync::FracTick render_time_{};
    std::vector<RenderEntity> render_;
    mutable std::vector<EntityRecord> scratch_;  // capture buffer, reused (no allocation per call)
    // own_entity() of state_: captured once per change of state_ (or of the slot), then reused.
    mutable std::optional<EntitySnapshot> own_{};
    mutable bool own_fresh_ = false;
    mutable int own_slot_ = -1;
    bool has_render_sample_ = false;
    Micros render_sampled_at_{};
    transport::RecordingTransport* netrec_ = nullptr;  // record_to()
};

}  // namespace rwd::client_server

#include <rewind/session/client_server/detail/client_impl.hpp>
