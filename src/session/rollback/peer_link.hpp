/// PeerLink: one remote endpoint of a rollback session: handshake, timeouts, pings, acks, byte counts.
#pragma once

#include <rewind/core/rng.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/rollback/protocol.hpp>
#include <rewind/session/rollback/time_sync.hpp>
#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace rwd::rollback::detail {

/// Timing and handshake parameters a link needs (taken from the session config).
struct LinkParams {
    int sync_roundtrips = 5;
    Micros sync_retry{200'000};
    Micros disconnect_notice{500'000};
    Micros disconnect_timeout{2'000'000};
    Micros keepalive_interval{100'000};
    Micros quality_interval{200'000};
    std::uint32_t session_tag = 0;
    std::uint8_t num_players = 2;
    Role local_role = Role::player;  ///< what this side is
    std::uint8_t local_players = 0;  ///< the slots this side plays
};

/// Something a link noticed, for the session to turn into SessionEvents.
struct LinkEvent {
    enum class Type : std::uint8_t { synchronizing, synchronized, interrupted, resumed, disconnected };
    Type type = Type::synchronizing;
    int count = 0;
    int total = 0;
    Micros timeout_in{};
};

/// Sends messages on a transport, counting bytes; keeps one encode buffer so sending does not allocate.
class Sender {
public:
    /// Encodes and sends `msg` to `peer`; false (and counted) when encoding or sending fails.
    bool send(transport::Transport& t, transport::PeerId peer, const Message& msg, transport::Delivery d,
              std::uint64_t& bytes, std::uint64_t& packets);
    /// Messages that could not be sent.
    [[nodiscard]] std::uint64_t failures() const { return failures_; }

private:
    std::vector<std::uint8_t> buffer_ = std::vector<std::uint8_t>(4096);
    std::uint64_t failures_ = 0;
};

/// A byte-rate meter over one-second windows, driven by `now`.
class RateMeter {
public:
    /// Updates the rate from the running byte total at `now`.
    void sample(Micros now, std::uint64_t total_bytes);
    /// Kilobits per second over the last complete window.
    [[nodiscard]] double kbps() const { return kbps_; }

private:
    Micros window_start_{};
    std::uint64_t bytes_at_start_ = 0;
    bool started_ = false;
    double kbps_ = 0.0;
};

/// One remote endpoint: a peer playing one or more slots, or a spectator (either side of it).
class PeerLink {
public:
    /// Handshake progress.
    enum class State : std::uint8_t { syncing, running, disconnected };

    /// A link to `peer`. `initiator`: this side sends sync requests (players both do; a host never does to a
    /// spectator). `remote_players`: the slots the peer plays (0 for a spectator).
    PeerLink(transport::PeerId peer, Role remote_role, std::uint8_t remote_players, bool initiator,
             const LinkParams& params, std::uint32_t local_nonce, std::uint64_t seed, Micros now);

    /// Handles the link-level part of a decoded message (handshake, pings, timers). Returns false when the
    /// message does not belong to this link (wrong nonce, wrong session) and must be dropped as malformed.
    bool on_message(transport::Transport& t, Sender& sender, const Message& msg, Micros now,
                    std::vector<LinkEvent>& events);
    /// Timers: handshake retries, pings, keepalives, interrupt/disconnect detection.
    void poll(transport::Transport& t, Sender& sender, Micros now, std::vector<LinkEvent>& events);
    /// Sends `msg` (sender_nonce filled in) and counts it.
    bool send(transport::Transport& t, Sender& sender, Message& msg, Micros now,
              transport::Delivery d = transport::Delivery::unreliable);
    /// Marks the link disconnected (no more sends or events).
    void disconnect() { state_ = State::disconnected; }

    [[nodiscard]] transport::PeerId peer() const { return peer_; }
    [[nodiscard]] Role remote_role() const { return remote_role_; }
    [[nodiscard]] std::uint8_t remote_players() const { return remote_players_; }
    [[nodiscard]] State state() const { return state_; }
    [[nodiscard]] bool running() const { return state_ == State::running; }
    [[nodiscard]] bool interrupted() const { return interrupted_; }
    [[nodiscard]] Micros ping() const { return rtt_; }
    /// Mean deviation of the round trip (as TCP's RTTVAR: a quarter of each new |sample - ping| mixed in).
    [[nodiscard]] Micros ping_deviation() const { return rtt_var_; }
    /// Whether a round trip was measured yet (by the handshake or a quality report).
    [[nodiscard]] bool has_ping() const { return have_rtt_; }
    [[nodiscard]] Micros last_send() const { return last_send_; }
    [[nodiscard]] Micros last_receive() const { return last_recv_; }

    Frame remote_ack = kNullFrame;       ///< newest contiguous frame of ours the peer has acknowledged
    Frame last_acked_sent = kNullFrame;  ///< the ack we last sent it (to send again when it changes)
    Frame remote_frame = kNullFrame;     ///< the peer's current frame, from its last input message
    TimeSync time_sync;                  ///< advantage samples against this peer
    int checksum_sends_left = 0;         ///< repeats left of our latest checksum report
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_received = 0;
    std::uint64_t packets_sent = 0;
    std::uint64_t packets_received = 0;
    std::uint64_t malformed = 0;
    std::uint64_t rollbacks = 0;
    std::array<std::uint64_t, kRollbackHistogramSize> rollback_depth{};
    RateMeter send_rate;
    RateMeter recv_rate;
    std::vector<ChecksumReport> remote_reports;  ///< received, not yet compared (bounded)
    std::int64_t last_local_advantage = 0;       ///< our advantage over it, sent in our input messages
    bool ack_known = true;       ///< false for a joiner until its first input message sets remote_ack
    bool joiner = false;         ///< the peer joined the running match (accepted from an unknown peer)
    bool join_answered = false;  ///< sponsor: the joiner's state was sent
    std::array<PlayerStatus, kMaxSessionPlayers>
        reported{};              ///< each slot's status in its newest input message
    bool forensic_sent = false;  ///< we answered a state request already (one transfer per desync)
    // Desync forensics: the remote state being received.
    Frame forensic_frame = kNullFrame;
    std::vector<std::uint8_t> forensic_bytes;
    std::uint32_t forensic_received = 0;

private:
    void send_sync_request(transport::Transport& t, Sender& sender, Micros now);
    /// Mixes one round-trip sample into the smoothed ping and its deviation.
    void add_rtt_sample(Micros sample);

    transport::PeerId peer_;
    Role remote_role_;
    std::uint8_t remote_players_;
    bool initiator_;
    LinkParams params_;
    std::uint32_t local_nonce_;
    std::uint32_t remote_nonce_ = 0;
    bool remote_nonce_known_ = false;
    Rng rng_;
    State state_ = State::syncing;
    int sync_done_ = 0;
    std::uint32_t sync_nonce_ = 0;
    Micros last_sync_send_{};
    bool sync_sent_ = false;
    bool sync_outstanding_ = false;  ///< sync_nonce_ awaits its reply
    bool sync_retried_ = false;      ///< that nonce was sent more than once (its reply times nothing)
    Micros first_sync_send_{};       ///< when that nonce was first sent
    Micros last_send_{};
    Micros last_recv_{};
    Micros last_quality_{};
    Micros rtt_{};
    Micros rtt_var_{};
    bool have_rtt_ = false;
    bool interrupted_ = false;
};

}  // namespace rwd::rollback::detail
