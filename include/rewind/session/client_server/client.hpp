/// Client<G>: the client-server session: connect, predict the local player, reconcile, interpolate others,
/// sync the clock.
#pragma once

#include <rewind/core/fixed_step.hpp>
#include <rewind/core/sequence.hpp>
#include <rewind/core/sequence_buffer.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/detail/snapshot_receiver.hpp>
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/stats.hpp>
#include <rewind/session/game.hpp>
#include <rewind/sync/clock_sync.hpp>
#include <rewind/sync/frac_tick.hpp>
#include <rewind/sync/interpolation_buffer.hpp>
#include <rewind/sync/visual_smoother.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rwd::client_server {

/// What the client is doing.
enum class ClientPhase : std::uint8_t {
    idle,          ///< not connected
    connecting,    ///< transport connecting or hello sent, waiting for the accept
    syncing,       ///< accepted; waiting for a snapshot and a clock estimate before ticking
    playing,       ///< ticking, predicting and sending inputs
    disconnected,  ///< the session ended (see ClientStats::disconnect_code)
};

/// A client of a Server<G> over any Transport. The app calls set_input() whenever its controls change,
/// update(now) every frame, then reads render_entities() and stats(). The client runs its own ticks ahead of
/// the server (by RTT/2 plus a margin, kept there by clock sync), predicts its player with G::step at once,
/// and reconciles against every newer snapshot by rebuilding the world from it (G::restore) and replaying the
/// inputs the server has not processed yet.
template <ReplicatedGame G>
class Client {
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

    /// Starts connecting to the server at `server`.
    [[nodiscard]] Status connect(const transport::Address& server, Micros now);
    /// Says goodbye and closes the connection.
    void disconnect(Micros now);
    /// Moves the client to `now`: takes in messages, runs due ticks (predict + send), tracks the clock.
    void update(Micros now);
    /// The local player's input for the coming ticks (it stays until changed).
    void set_input(const Input& input) { input_ = input; }
    /// Sends a chat line (at most kMaxChatBytes).
    [[nodiscard]] Status send_chat(const std::string& text);
    /// Takes the next reliable event received (in order, exactly once); false when there is none.
    [[nodiscard]] bool poll_event(Event& out);

    /// Entities to draw at `now`: the predicted local player and every other entity interpolated at
    /// view_time().
    [[nodiscard]] const std::vector<RenderEntity>& render_entities(Micros now);
    /// The render tick remote entities are drawn at (what a shot fired now is stamped with).
    [[nodiscard]] sync::FracTick view_time() const { return view_; }
    /// The local player's predicted entity at the current tick (no smoothing), if it exists.
    [[nodiscard]] std::optional<EntitySnapshot> own_entity() const;
    /// The local player as drawn: the prediction moved by the decaying correction offset,
    /// G::with_render_offset(predicted, smoother().offset()).
    [[nodiscard]] std::optional<EntitySnapshot> smoothed_own_entity() const;
    /// The visual correction offset (metres, decaying over smoothing_time; snaps beyond snap_distance_m).
    [[nodiscard]] const sync::VisualSmoother& smoother() const { return smoother_; }
    /// The predicted world at the current tick.
    [[nodiscard]] const State& predicted_state() const { return state_; }

    /// What the client is doing.
    [[nodiscard]] ClientPhase phase() const { return phase_; }
    /// The slot the server gave us (-1 before the accept).
    [[nodiscard]] int slot() const { return slot_; }
    /// The client's current tick (the next input it will produce is for this tick).
    [[nodiscard]] Tick tick() const { return tick_; }
    /// The newest server tick received in a snapshot.
    [[nodiscard]] Tick newest_server_tick() const { return newest_snapshot_tick_; }
    /// Overlay stats.
    [[nodiscard]] const ClientStats& stats() const { return stats_; }
    /// The most recent corrections, oldest first (at most config.correction_log_size; stats().corrections
    /// counts all).
    [[nodiscard]] const std::deque<Correction>& corrections() const { return corrections_; }
    /// Interpolation depth of every remote entity (for the overlay).
    [[nodiscard]] std::vector<EntityBufferStats> entity_buffer_stats() const;
    /// The clock estimator (RTT, server tick estimate, lead).
    [[nodiscard]] const sync::ClockSync& clock() const { return clock_; }
    /// The config in use.
    [[nodiscard]] const ClientConfig& config() const { return config_; }

private:
    void on_transport_event(transport::TransportEvent& ev, Micros now);
    void on_message(std::span<const std::uint8_t> data, Micros now);
    void on_snapshot(Snapshot& snap, Micros now);
    void reconcile(const Snapshot& snap, Micros now);
    void run_tick(Micros now);
    void send_inputs(Tick newest, Micros now);
    void update_view(Micros now);
    void resync_to(Tick t);
    double carry_view(const std::optional<EntitySnapshot>& predicted_before);
    void end(DisconnectCode code);
    void update_rates(Micros now);
    [[nodiscard]] std::optional<EntitySnapshot> own_in(std::span<const EntityRecord> entities) const;
    void predict_one(State& s, Tick t);
    template <class Msg>
    bool send(transport::Delivery delivery, Msg& msg);

    transport::Transport& transport_;
    ClientConfig config_;
    ClientPhase phase_ = ClientPhase::idle;
    transport::PeerId server_ = transport::kInvalidPeer;
    Micros connect_started_{};
    Micros last_ping_{};
    Micros last_now_{};
    bool has_now_ = false;
    int slot_ = -1;
    int snapshot_rate_hz_ = 30;
    FixedStep step_;
    sync::ClockSync clock_;
    sync::InterpolationBuffer<std::vector<EntityRecord>, 32> interp_;
    sync::InterpolationSample<std::vector<EntityRecord>> sample_{};
    Tick tick_{};
    bool ticking_ = false;
    bool has_first_input_ = false;
    Tick first_input_tick_{};
    Input input_{};
    State state_{};  // predicted world at tick_ - 1 (after the last predicted tick)
    SequenceBuffer<Input, kHistory, Tick> inputs_;
    SequenceBuffer<State, kHistory, Tick> states_;  // states_[t]: after applying the input for t
    bool has_snapshot_ = false;
    Tick newest_snapshot_tick_{};
    Snapshot latest_{};
    Snapshot incoming_{};
    SnapshotReceiver<G> receiver_;  // decoded snapshots (delta baselines) and the display list
    std::uint16_t input_sequence_ = 0;
    bool has_seq_ = false;
    std::uint16_t newest_seq_ = 0;
    std::uint64_t seq_received_window_ = 0;
    std::uint64_t seq_expected_window_ = 0;
    std::uint32_t expected_event_ = 0;
    std::deque<Event> events_;
    std::deque<Correction> corrections_;
    std::deque<Micros> correction_times_;
    sync::VisualSmoother smoother_;  // the drawn own player = prediction + this offset
    sync::FracTick view_{};
    std::vector<RenderEntity> render_;
    mutable std::vector<EntityRecord> scratch_;  // capture buffer, reused (no allocation per call)
    bool has_view_time_ = false;
    Micros view_sampled_at_{};
    std::vector<std::uint8_t> buffer_;
    ClientStats stats_{};
};

}  // namespace rwd::client_server

#include <rewind/session/client_server/detail/client_impl.hpp>
