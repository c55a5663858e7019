/// PeerConnector: finds every remote player of a rollback match from addresses alone, over any Transport.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/transport.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rwd::rollback {

/// Settings of a PeerConnector.
struct ConnectorConfig {
    /// One entry per slot 0..n-1 (2..8): "local" for a player on this machine, else the "host:port" of the
    /// machine that hosts it (several slots may share one). Every machine lists the same slots, each with
    /// "local" at its own.
    std::vector<std::string> players;
    std::uint32_t session_tag = 0;   ///< must match on every machine (also the P2PConfig's session_tag)
    Micros retry_interval{500'000};  ///< a refused or lost connection attempt is made again after this
    Micros timeout{30'000'000};      ///< failed (timed_out) when not every machine is found by then

    /// Ok, or invalid_config naming the first problem (no local player, a bad address, 2..8 slots, ...).
    [[nodiscard]] Status validate() const;
};

/// What a PeerConnector saw.
struct ConnectorStats {
    std::uint64_t attempts = 0;          ///< connections started
    std::uint64_t intros_sent = 0;       ///< introductions sent (and answers to accepted ones)
    std::uint64_t intros_accepted = 0;   ///< introductions (or answers) that named the expected machine
    std::uint64_t intros_refused = 0;    ///< introductions refused (wrong tag, slots or player count)
    std::uint64_t intros_missing = 0;    ///< connections closed for not introducing themselves in time
    std::uint64_t messages_dropped = 0;  ///< other messages before the match began (the handshake resends)
    std::uint64_t peers_lost = 0;        ///< connections lost before the match began
};

/// Where a PeerConnector is.
enum class ConnectorState : std::uint8_t {
    connecting,  ///< not every remote machine is connected and introduced yet
    ready,       ///< every remote slot has its peer: create the session now
    failed,      ///< gave up: error() says why
};

/// One connection per pair of machines: the machine whose lowest local slot is higher connects (retrying
/// until the other side listens) and introduces itself with one reliable message (session tag, player
/// count, its slots); the other binds the connection to those slots and answers with its own introduction,
/// on which the first binds it too. Both sides reach the same answer from the same list, so no connection
/// is made twice. Until ready, the connector drives the transport (update and poll); afterwards it leaves it
/// to the session (spectators then join by handshaking). Refused introductions are counted and their
/// connections closed, as are connections silent for 4 retry intervals; nothing from the network can bind
/// a slot that was not listed. A machine is known by its address text: one spelling per machine, and a
/// distinct one (even a placeholder) for each machine.
class PeerConnector {
public:
    /// A connector on `transport` (not owned; must outlive it), or the config's validate() error.
    [[nodiscard]] static Result<PeerConnector> create(transport::Transport& transport,
                                                      const ConnectorConfig& config);
    /// Moves the connector; the moved-from one is failed and drives nothing.
    PeerConnector(PeerConnector&& other) noexcept;
    /// Moves the connector; the moved-from one is failed and drives nothing.
    PeerConnector& operator=(PeerConnector&& other) noexcept;
    PeerConnector(const PeerConnector&) = delete;
    PeerConnector& operator=(const PeerConnector&) = delete;
    ~PeerConnector() = default;

    /// Moves to `now`: connects, retries, reads introductions. Does nothing once ready or failed.
    void update(Micros now);

    /// Where it is.
    [[nodiscard]] ConnectorState state() const { return state_; }
    /// Why it failed (timed_out, or the transport's connect error).
    [[nodiscard]] const Error& error() const { return error_; }
    /// The slots played on this machine, ascending.
    [[nodiscard]] const std::vector<int>& local_slots() const { return local_slots_; }
    /// The peer of a remote slot once ready; kInvalidPeer for a local slot or before.
    [[nodiscard]] transport::PeerId peer_of(int slot) const;
    /// Slots in the match.
    [[nodiscard]] int num_players() const { return static_cast<int>(slot_machine_.size()); }
    /// Counters.
    [[nodiscard]] const ConnectorStats& stats() const { return stats_; }

private:
    struct Machine {  // one remote machine: its address, its slots, and the connection to it
        transport::Address address;
        std::uint8_t slot_mask = 0;
        int lowest_slot = 0;
        bool we_connect = false;
        transport::PeerId peer = transport::kInvalidPeer;
        bool bound = false;
        Micros next_attempt{};
    };
    PeerConnector(transport::Transport& transport, const ConnectorConfig& config);
    void on_connected(transport::PeerId peer);
    void on_disconnected(transport::PeerId peer);
    void on_message(transport::PeerId peer, const std::vector<std::uint8_t>& data);
    void send_intro(transport::PeerId peer);
    [[nodiscard]] bool valid_intro(const std::vector<std::uint8_t>& data, std::uint8_t mask) const;
    Machine* machine_of(transport::PeerId peer);
    struct Waiting {  // connected to us, not introduced yet
        transport::PeerId peer = transport::kInvalidPeer;
        Micros since{};
    };

    transport::Transport* transport_ = nullptr;
    ConnectorConfig config_;
    std::vector<int> slot_machine_;  // per slot: -1 local, else an index into machines_
    std::vector<int> local_slots_;
    std::uint8_t local_mask_ = 0;
    std::vector<Machine> machines_;
    std::vector<Waiting> waiting_;
    ConnectorState state_ = ConnectorState::connecting;
    Error error_{};
    ConnectorStats stats_{};
    bool started_ = false;
    Micros deadline_{};
    Micros now_{};
};

}  // namespace rwd::rollback
