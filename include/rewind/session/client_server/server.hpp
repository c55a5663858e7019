/// Server<G>: the authoritative client-server session: seats, input buffers, fixed tick, lag compensation,
/// snapshots.
#pragma once

#include <rewind/core/fixed_step.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/detail/snapshot_sender.hpp>
#include <rewind/session/client_server/game_events.hpp>
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/stats.hpp>
#include <rewind/session/game.hpp>
#include <rewind/sync/hitbox_history.hpp>
#include <rewind/sync/input_jitter_buffer.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rwd::client_server {

/// An authoritative server for game G over any Transport. The app calls update(now) often (every frame or
/// every millisecond); the server runs whole ticks at config.tick_rate_hz, applies exactly one sanitized
/// input per seated player per tick, lag-compensates shots, and sends each client a snapshot at
/// snapshot_rate_hz. No threads, no clock reads (except the optional stats clock), no callbacks into the app.
template <ReplicatedGame G>
class Server {
public:
    using State = typename G::State;                ///< the game's world
    using Input = typename G::Input;                ///< one player's input for one tick
    using EntityRecord = typename G::EntityRecord;  ///< one replicated entity with its id
    using Snapshot = SnapshotPacket<EntityRecord>;  ///< the snapshot message
    using Packet = InputPacket<Input>;              ///< the input message
    /// Ticks of hitbox history kept for lag compensation (about 1 s at 60 Hz).
    static constexpr int kHistoryTicks = kHitboxHistoryTicks;

    /// A server speaking on `transport` (not owned; must outlive the server) from `initial`. An invalid
    /// config is a programmer error: call config.validate() first.
    Server(transport::Transport& transport, const ServerConfig& config, const State& initial = State{});

    /// Moves the server to `now`: takes in messages, runs due ticks, sends snapshots, drops silent clients.
    void update(Micros now);

    /// Sends `code` to the client in `slot`, removes its player at once and closes the connection shortly
    /// after.
    void kick(int slot, DisconnectCode code, Micros now);
    /// Optional relevance of entities per client, applied within the area of interest: fn(user, slot, entity)
    /// returns a priority multiplier, <= 0 for "not relevant to this client" (its own entity always is).
    void set_relevance(sync::RelevanceFn<EntityRecord> fn, void* user) { sender_.set_relevance(fn, user); }
    /// Sends an event to every seated client over the reliable channel.
    void broadcast(EventKind kind, int subject, int other, std::int32_t value, const std::string& text = {});

    /// The authoritative world (after the last tick).
    [[nodiscard]] const State& state() const { return state_; }
    /// The world, writable: for apps and tests that set up a scene before or between updates.
    [[nodiscard]] State& state() { return state_; }
    /// The next tick to simulate.
    [[nodiscard]] Tick tick() const { return tick_; }
    /// Whether a client holds `slot`.
    [[nodiscard]] bool seated(int slot) const { return valid(slot) && seat(slot).phase == Phase::seated; }
    /// Number of seated clients.
    [[nodiscard]] int seated_count() const;
    /// The slot of a transport peer, or -1.
    [[nodiscard]] int slot_of(transport::PeerId peer) const;
    /// Server-wide stats.
    [[nodiscard]] const ServerStats& stats() const { return stats_; }
    /// Stats of the client in `slot` (kept after it leaves until the seat is reused).
    [[nodiscard]] const ServerClientStats& client_stats(int slot) const { return seat(slot).stats; }
    /// The config in use.
    [[nodiscard]] const ServerConfig& config() const { return config_; }
    /// Number of seats offered.
    [[nodiscard]] int max_clients() const { return max_clients_; }

private:
    enum class Phase : std::uint8_t { empty, seated, closing };
    struct Seat {
        Phase phase = Phase::empty;
        transport::PeerId peer = transport::kInvalidPeer;
        Micros last_heard{};
        Micros close_at{};
        sync::InputJitterBuffer<Input> inputs{sync::InputJitterBufferConfig{}};
        bool has_ping = false;
        std::uint32_t ping_time = 0;
        Micros ping_at{};
        bool has_ack = false;
        Tick acked_snapshot{};
        bool has_applied = false;
        Tick last_applied_tick{};
        std::uint16_t snapshot_sequence = 0;
        std::uint32_t event_sequence = 0;
        bool has_client_id = false;  // from its connect token, when tokens are required
        std::uint64_t client_id = 0;
        ServerClientStats stats{};
        Micros abuse_window_start{};               // when the current abuse window began
        std::uint32_t abusive_in_window = 0;       // refused input packets in the current window
        std::uint32_t abusive_windows = 0;         // consecutive abusive windows so far
        Micros last_abusive_window{-(1LL << 60)};  // when the last abusive window was reached (long ago)
    };
    struct Pending {
        transport::PeerId peer = transport::kInvalidPeer;
        Micros since{};
        std::uint32_t malformed = 0;
        bool closing = false;
        Micros close_at{};
    };

    [[nodiscard]] bool valid(int slot) const { return slot >= 0 && slot < max_clients_; }
    [[nodiscard]] Seat& seat(int slot) { return seats_[static_cast<std::size_t>(slot)]; }
    [[nodiscard]] const Seat& seat(int slot) const { return seats_[static_cast<std::size_t>(slot)]; }
    [[nodiscard]] sync::InputJitterBufferConfig jitter_config() const;

    void on_transport_event(transport::TransportEvent& ev, Micros now);
    void on_message(transport::PeerId peer, std::span<const std::uint8_t> data, Micros now);
    void on_hello(Pending& p, std::span<const std::uint8_t> data, Micros now);
    [[nodiscard]] auth::TokenError check_token(const Pending& p, const ConnectRequest& req, Micros now,
                                               auth::TokenFields& out) const;
    void on_seat_message(int slot, std::span<const std::uint8_t> data, Micros now);
    void on_input(int slot, const Packet& pkt, Micros now);
    void count_malformed(int slot, Micros now);
    void count_unexpected(int slot, Micros now);
    void count_toward_garbage_kick(int slot, Micros now);
    void count_abusive_packet(int slot, Micros now);
    void seat_client(transport::PeerId peer, int slot, Micros now);
    void unseat(int slot);
    void check_timeouts(Micros now);
    void run_tick(Micros now);
    void send_snapshots(Micros now);
    void send_event(int slot, Event ev);
    template <class Msg>
    bool send(transport::PeerId peer, transport::Delivery delivery, Msg& msg, std::uint64_t* bytes = nullptr);

    transport::Transport& transport_;
    ServerConfig config_;
    int max_clients_ = 0;
    FixedStep step_;
    State state_;
    Tick tick_{};
    bool started_ = false;
    Micros last_now_{};
    int snapshot_accumulator_ = 0;
    std::vector<Seat> seats_;
    std::vector<Pending> pending_;
    std::optional<auth::TokenGate> token_gate_;  // set when config.require_token is
    sync::HitboxHistory<G, kHistoryTicks> history_;
    RewoundTargets<G> rewound_{};
    std::array<Input, G::kMaxPlayers> inputs_{};
    std::vector<GameEvent> game_events_;
    Snapshot snapshot_{};
    std::vector<EntityRecord> world_;                            // every entity, captured once per snapshot
    SnapshotSender<G> sender_{config_.snapshots, max_clients_};  // baselines, interest, priorities, budget
    std::vector<std::uint8_t> buffer_;
    ServerStats stats_{};
};

}  // namespace rwd::client_server

#include <rewind/session/client_server/detail/server_impl.hpp>
