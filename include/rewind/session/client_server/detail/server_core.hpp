/// ServerCore: the compiled, game-independent half of Server<G> (internal): connections, hellos and tokens,
/// seats, abuse accounting and kicks, pings, acks, input queues of EncodedInput, messages as bytes (sent,
/// and received and validated against the game's MessageTable), snapshot headers, stats.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/detail/encoded_input.hpp>
#include <rewind/session/client_server/message_outbox.hpp>
#include <rewind/session/client_server/message_registry.hpp>
#include <rewind/session/client_server/messages.hpp>
#include <rewind/session/client_server/stats.hpp>
#include <rewind/sync/input_jitter_buffer.hpp>
#include <rewind/sync/rewind_limit.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace rwd {
class MetricsText;
}

namespace rwd::wire {
class ReadStream;
class WriteStream;
}  // namespace rwd::wire

namespace rwd::client_server {

/// What one snapshot's entity section carried (for the per-client stats).
struct SnapshotSectionStats {
    std::uint32_t relevant = 0;         ///< entities relevant to the client
    std::uint32_t left_out = 0;         ///< relevant entities the byte budget postponed (stale or deferred)
    bool has_baseline = false;          ///< delta-coded against an acknowledged snapshot
    std::size_t header_bits = 0;        ///< bits of the message before the entity section
    std::size_t unpredicted_bytes = 0;  ///< bytes of the message with the section coded without prediction
};

/// The game side of a server, as the core sees it: Server<G> implements it and translates at this one place.
/// Called per message, per seat change or per snapshot, never per entity or inside the simulation.
class ServerGameSide {
public:
    /// Reads one input of an input packet from `s` into `out`; false when it is not a valid input.
    virtual bool read_input(wire::ReadStream& s, EncodedInput& out) = 0;
    /// A client took `slot`: its player enters the world (and its snapshot baselines start empty).
    virtual void on_seated(int slot) = 0;
    /// The client in `slot` left: nothing of its player stays in the world.
    virtual void on_unseated(int slot) = 0;
    /// The link of the client in `slot` is lost and its seat held: its player stays in the world.
    virtual void on_away(int slot) = 0;
    /// The client in `slot` came back on a new connection: its snapshot baselines start empty.
    virtual void on_back(int slot) = 0;
    /// The entity id of the player in `slot`.
    [[nodiscard]] virtual std::uint32_t player_entity(int slot) const = 0;
    /// The client in `slot` acknowledged the snapshot of `tick` (untrusted: a delta baseline candidate).
    virtual void on_snapshot_ack(int slot, Tick tick) = 0;
    /// Snapshots are due: capture the world once for every client's snapshot.
    virtual void begin_snapshots() = 0;
    /// Writes the entity section of `slot`'s snapshot after `head` (already in `s`, `head_bits` long); the
    /// whole message must fit `budget_bytes`. Fills `out`; false (with the stream's error) when it cannot.
    virtual bool write_snapshot_entities(int slot, const SnapshotHeader& head, std::size_t head_bits,
                                         std::size_t budget_bytes, wire::WriteStream& s,
                                         SnapshotSectionStats& out) = 0;
    /// The snapshot just written for `slot` went to the transport: it may become a baseline.
    virtual void commit_snapshot(int slot, const SnapshotHeader& head) = 0;

protected:
    ~ServerGameSide() = default;
};

/// How lag compensation judged one shot's claimed view time.
struct ShotVerdict {
    bool beyond_limit = false;    ///< older than the client's rewind limit (or the fixed cap): clamped to it
    bool future = false;          ///< ahead of the server: clamped to the present
    bool beyond_history = false;  ///< older than the hitbox history: clamped to its oldest record
};

/// One seat's input for the tick being simulated.
struct PoppedInput {
    EncodedInput bits;      ///< the input (bits == 0: none yet, the neutral input)
    bool repeated = false;  ///< missing: the previous input was repeated (a shot in it is not fired again)
};

/// The server's session machinery without the game. The adapter calls update() and, for each due tick,
/// pop_input() per seat, simulates, then end_tick().
class ServerCore {
public:
    /// A core for `max_clients` seats on `transport` (not owned) with `config` (must validate), reporting to
    /// `game` (not owned; both must outlive the core), taking the message types of `messages`.
    ServerCore(transport::Transport& transport, const ServerConfig& config, int max_clients,
               ServerGameSide& game, MessageTable messages);
    ~ServerCore();
    ServerCore(const ServerCore&) = delete;
    ServerCore& operator=(const ServerCore&) = delete;

    /// Takes in messages and drops silent connections at `now`; returns the ticks due (run each, then
    /// end_tick()).
    [[nodiscard]] int update(Micros now);
    /// After the due ticks: refreshes the per-seat transport rates.
    void finish_update();

    /// The input of `slot` for the tick being simulated (tick()), counting applied and repeated inputs.
    [[nodiscard]] PoppedInput pop_input(int slot);
    /// The late inputs `slot` sent in this update(), first copies, in arrival order (their ticks were played
    /// with a repeat).
    [[nodiscard]] std::span<const sync::LateInput<EncodedInput>> late_inputs(int slot) const;
    /// Whether one more late input of `slot` may be replayed: spends a token of its replay budget, or counts
    /// the refusal.
    [[nodiscard]] bool take_replay_token(int slot);
    /// A late input of `slot` for `tick` was applied by a committed replay: later repeats repeat it.
    void late_input_replayed(int slot, Tick tick, const EncodedInput& bits);
    /// Counts one replay of `ticks` ticks, committed or dropped.
    void count_replay(int ticks, bool committed);
    /// Counts sanitize() violations of `slot`'s input (flags the client).
    void add_violations(int slot, std::uint32_t violations);
    /// Counts a shot of `slot` and how lag compensation judged it.
    void count_shot(int slot, const ShotVerdict& verdict);
    /// The rewind limit of `slot`'s shots from its own latency (client_latency mode), or none (fixed_cap
    /// mode: the hitbox history's max_rewind applies).
    [[nodiscard]] std::optional<sync::RewindLimit> rewind_limit(int slot);
    /// The tick was simulated: advances tick(), kicks clients over max_violations, sends snapshots when due.
    void end_tick(Micros now, Micros tick_started);
    /// The stats clock's reading (Micros{} without one): the adapter stamps a tick's start with it.
    [[nodiscard]] Micros stats_clock_now() const;

    /// Sends `code` to the client in `slot`, removes its player at once and closes the connection shortly
    /// after.
    void kick(int slot, DisconnectCode code, Micros now);
    /// Sends `m` (stamped with tick `at`) to the clients its scope selects; for MessageScope::nearby those
    /// for which `sees(user, slot)` is true.
    void send_message(const OutMessage& m, Tick at, bool (*sees)(void*, int) = nullptr, void* user = nullptr);
    /// Takes the oldest message a client sent that the app has not polled yet (validated against the message
    /// table: known type, right channel, size, rate, decodes); false when there is none.
    [[nodiscard]] bool poll_message(Message& out);

    /// The next tick to simulate.
    [[nodiscard]] Tick tick() const;
    /// Whether a client holds `slot`.
    [[nodiscard]] bool seated(int slot) const;
    [[nodiscard]] bool away(int slot) const;
    /// Number of seated clients.
    [[nodiscard]] int seated_count() const;
    /// The slot of a transport peer, or -1.
    [[nodiscard]] int slot_of(transport::PeerId peer) const;
    /// Server-wide stats.
    [[nodiscard]] const ServerStats& stats() const;
    /// The server's figures as Prometheus families (see Server::write_metrics).
    void write_metrics(MetricsText& out) const;
    /// Stats of the client in `slot` (kept after it leaves until the seat is reused).
    [[nodiscard]] const ServerClientStats& client_stats(int slot) const;
    /// The config in use.
    [[nodiscard]] const ServerConfig& config() const;
    /// Number of seats offered.
    [[nodiscard]] int max_clients() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace rwd::client_server
