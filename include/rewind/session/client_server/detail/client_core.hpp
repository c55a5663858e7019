/// ClientCore: the compiled, game-independent core behind Client<G> (internal; apps and tests use Client<G>).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/client_phase.hpp>
#include <rewind/session/client_server/config.hpp>
#include <rewind/session/client_server/detail/encoded_input.hpp>
#include <rewind/session/client_server/message_registry.hpp>
#include <rewind/session/client_server/messages.hpp>
#include <rewind/session/client_server/resume_ticket.hpp>
#include <rewind/session/client_server/stats.hpp>
#include <rewind/sync/clock_sync.hpp>
#include <rewind/transport/transport.hpp>
#include <rewind/wire/stream.hpp>

#include <optional>
#include <string>

namespace rwd::client_server::detail {

/// What the core asks of the game-typed adapter (Client<G>): the prediction, the decoded snapshots, the
/// interpolation and the drawn player live there. Called per message, per snapshot or per tick, never per
/// entity.
class ClientGameAccess {
public:
    /// Reads the entity section of the snapshot whose header is `head` from `s`, resolving the baseline it
    /// names among the snapshots accepted before. False on failure, with `baseline_missing` set when that
    /// baseline is not held. The core then checks the rest of the datagram (wire::finish_read).
    virtual bool read_snapshot_entities(wire::ReadStream& s, const SnapshotHeader& head,
                                        bool& baseline_missing) = 0;
    /// The snapshot read last is newer than any before: keep it (baseline, interpolation, newest list) and,
    /// when `reconcile`, rebuild the prediction from it.
    virtual void accept_snapshot(const SnapshotHeader& head, bool reconcile, Micros now) = 0;
    /// The client clock jumped to a new tick: restart the prediction there from the newest snapshot.
    /// `was_playing`: the player was drawn before, keep it where it was drawn.
    virtual void restart_prediction(bool was_playing) = 0;
    /// Ticks are about to run at `now`: sample the render time (what their shots are stamped with).
    virtual void sample_render_time(Micros now) = 0;
    /// Predicts tick `t` with the local input and writes that input's bits to `out`; false when the input
    /// does not encode (the packets that would carry it are not sent).
    virtual bool predict_tick(Tick t, EncodedInput& out) = 0;
    /// A new connection: forget the snapshots decoded before (they can no longer be baselines).
    virtual void forget_snapshots() = 0;

protected:
    virtual ~ClientGameAccess() = default;
};

/// Connection and phases, the syncing pings, clock sync, tick stepping and resync decisions, snapshot acks,
/// input packets (as bits), snapshot headers (staleness, loss, RTT, the server's view of our inputs), the
/// message stream (received messages validated against the game's MessageTable) and stats of one Client<G>.
/// It decides when to tick; the adapter (ClientGameAccess) predicts. Methods without a comment mirror the
/// Client<G> method of the same name.
class ClientCore {
public:
    /// A client on `transport` (not owned) whose slots are 0..max_players-1. `config` must validate; `game`
    /// must outlive the core.
    ClientCore(transport::Transport& transport, const ClientConfig& config, int max_players,
               ClientGameAccess& game, MessageTable messages);
    ~ClientCore();
    ClientCore(const ClientCore&) = delete;
    ClientCore& operator=(const ClientCore&) = delete;

    [[nodiscard]] Status connect(const transport::Address& server, Micros now,
                                 const ResumeTicket* ticket = nullptr);
    [[nodiscard]] std::optional<ResumeTicket> resume_ticket() const;
    void set_credentials(const std::vector<std::uint8_t>& token, const auth::SessionKeys& keys);
    [[nodiscard]] bool needs_credentials() const;
    void disconnect(Micros now);
    /// Time since the previous update() (zero before the first): how far the adapter's smoothing decays.
    [[nodiscard]] Micros time_since_update(Micros now) const;
    [[nodiscard]] Micros server_silence(Micros now) const;
    [[nodiscard]] bool connection_interrupted(Micros now) const;
    void update(Micros now);
    [[nodiscard]] Status send_chat(const std::string& text);
    /// Sends an encoded message of type `type` to the server on the reliable or the unreliable channel.
    [[nodiscard]] Status send_message(MessageId type, const std::vector<std::uint8_t>& payload,
                                      bool reliable);
    [[nodiscard]] bool poll_message(Message& out);
    /// Counts a misprediction found at `now` (for ClientStats::corrections_per_second).
    void note_correction(Micros now);

    [[nodiscard]] ClientPhase phase() const;
    [[nodiscard]] int slot() const;
    [[nodiscard]] Tick tick() const;
    [[nodiscard]] Tick newest_server_tick() const;
    [[nodiscard]] const ClientStats& stats() const;
    /// The stats for the adapter to fill its part in (prediction, corrections, interpolation).
    [[nodiscard]] ClientStats& adapter_stats();
    [[nodiscard]] const sync::ClockSync& clock() const;
    [[nodiscard]] const ClientConfig& config() const;

    class Impl;  ///< the state and logic (src/session/client_server/client_core_impl.hpp)

private:
    Impl* impl_;  // owned (a raw pointer keeps <memory> out of every game's client translation unit)
};

}  // namespace rwd::client_server::detail
