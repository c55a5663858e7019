/// ServerCore::Impl: the server core's state (seats, pending hellos, tick clock) and its private operations,
/// shared by the server_*.cpp files.
#pragma once

#include <rewind/core/fixed_step.hpp>
#include <rewind/core/sequence_buffer.hpp>
#include <rewind/session/auth/secure_channel.hpp>
#include <rewind/session/auth/token_gate.hpp>
#include <rewind/session/client_server/detail/server_core.hpp>
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/sync/input_buffer_tuner.hpp>
#include <rewind/sync/input_jitter_buffer.hpp>
#include <rewind/sync/rewind_limit.hpp>

#include <algorithm>
#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace rwd::client_server {

struct ServerCore::Impl {
    /// empty: free; seated: a client plays in it; held: its client's link is lost and the seat waits for it
    /// (ServerConfig::seat_grace, its player still in the world); closing: kicked, lingering.
    enum class Phase : std::uint8_t { empty, seated, held, closing };
    /// A reliable message sent to a seat, kept for resending when its client comes back (seat_grace).
    struct LoggedMessage {
        std::uint32_t sequence = 0;
        Tick tick{};
        Tick previous_tick{};  // of the message before it (what its tick is coded against)
        MessageId type = 0;
        std::vector<std::uint8_t> payload;
    };
    /// A token bucket: one client's allowance of one message type.
    struct MessageBucket {
        double tokens = 0.0;
        Micros at{};  // when tokens was last refilled
    };
    /// One seat: the connection of the client in it and everything the server tracks about it.
    struct Seat {
        Phase phase = Phase::empty;
        transport::PeerId peer = transport::kInvalidPeer;
        Micros last_heard{};
        Micros close_at{};
        sync::InputJitterBuffer<EncodedInput> inputs{sync::InputJitterBufferConfig{}};
        sync::InputBufferTuner tuner{};      // its adaptive input buffer target
        std::uint16_t interpolation_ms = 0;  // the interpolation delay it reports (untrusted)
        bool has_ping = false;
        std::uint32_t ping_time = 0;
        Micros ping_at{};
        bool has_applied = false;
        Tick last_applied_tick{};
        double replay_tokens = 0.0;  // its late-input replay budget (ServerConfig::max_replayed_share)
        std::uint16_t snapshot_sequence = 0;
        bool has_sent_snapshot = false;       // a snapshot went out (last_snapshot_tick is valid)
        bool has_allowance = false;           // snapshot_allowance is set (a burst budget is in use)
        std::int64_t snapshot_allowance = 0;  // bytes its snapshots may still use (owes at most one budget)
        Tick last_snapshot_tick{};            // the server tick of the newest snapshot sent to it
        bool has_snapshot_ack = false;        // it acknowledged a snapshot (snapshot_ack is valid)
        Tick snapshot_ack{};  // the newest snapshot tick it acknowledged, never past the newest sent
        std::uint32_t message_sequence = 0;  // reliable messages sent to it so far
        Tick last_message_tick{};  // of the last reliable message sent (the next codes its tick against it)
        std::vector<MessageBucket> message_buckets;  // its rate limit per message type (index: id)
        std::uint16_t unreliable_sequence = 0;       // unreliable messages sent to it so far (wrapping)
        // The sequences of the unreliable messages taken from it: a copy the network made is dropped.
        SequenceBuffer<std::uint8_t, kUnreliableWindow> unreliable_seen;
        bool has_client_id = false;  // from its connect token, when tokens are required
        std::uint64_t client_id = 0;
        std::unique_ptr<auth::SecureChannel> channel;  // seals and opens its packets (with a token)
        ServerClientStats stats{};
        Micros abuse_window_start{};               // when the current abuse window began
        std::uint32_t abusive_in_window = 0;       // refused input packets in the current window
        std::uint32_t abusive_windows = 0;         // consecutive abusive windows so far
        Micros last_abusive_window{-(1LL << 60)};  // when the last abusive window was reached (long ago)
        ResumeSecret resume_secret{};              // what its client presents to come back (without tokens)
        // Its client spoke after an accept: it can come back (else a lost link frees it).
        bool proven = false;
        bool spoke =
            false;  // its client spoke on this connection (a transport goodbye after it is a goodbye)
        std::uint32_t client_messages_taken =
            0;                               // reliable messages from its client so far (all connections)
        Micros held_until{};                 // held: when the grace ends
        std::deque<LoggedMessage> sent_log;  // its newest reliable messages (seat_grace > 0)
        std::size_t sent_log_bytes = 0;      // their payload bytes
    };
    /// A connection that has not said hello yet.
    struct Pending {
        transport::PeerId peer = transport::kInvalidPeer;
        Micros since{};
        std::uint32_t malformed = 0;
        bool closing = false;
        Micros close_at{};
    };

    Impl(transport::Transport& t, const ServerConfig& c, int seats, ServerGameSide& g, MessageTable m);

    [[nodiscard]] bool valid(int slot) const { return slot >= 0 && slot < max_clients; }
    [[nodiscard]] Seat& seat(int slot) { return seats[static_cast<std::size_t>(slot)]; }
    [[nodiscard]] const Seat& seat(int slot) const { return seats[static_cast<std::size_t>(slot)]; }
    [[nodiscard]] sync::InputJitterBufferConfig jitter_config() const;
    [[nodiscard]] int slot_of(transport::PeerId peer) const;
    [[nodiscard]] int input_buffer_target(const Seat& s) const;
    /// The seat grace in whole seconds, as the accept and Away carry it (rounded up).
    [[nodiscard]] std::uint16_t grace_seconds() const {
        return static_cast<std::uint16_t>(
            std::min<std::int64_t>((config.seat_grace.count + 999'999) / 1'000'000, 0xFFFF));
    }
    /// One tick, in microseconds (rounded).
    [[nodiscard]] Micros tick_length() const {
        return Micros{
            static_cast<std::int64_t>(1'000'000.0 / static_cast<double>(config.tick_rate_hz) + 0.5)};
    }

    // connections and hellos (server_hello.cpp)
    void on_transport_event(transport::TransportEvent& ev, Micros now);
    void on_message(transport::PeerId peer, transport::Delivery delivery, std::span<const std::uint8_t> data,
                    Micros now);
    void on_hello(Pending& p, std::span<const std::uint8_t> data, Micros now);
    [[nodiscard]] auth::TokenError check_token(const Pending& p, const ConnectRequest& req, Micros now,
                                               auth::TokenFields& out) const;
    void seat_client(transport::PeerId peer, int slot, Micros now, const auth::SessionKeys* keys);
    /// Sets up `slot` for the connection `peer` (keys from a token, or none): everything that belongs to one
    /// connection starts afresh; what belongs to the seat (its message stream and log, account, secret and
    /// stats) stays. Returns the salt of the connection's keys (zero without).
    auth::ConnectionSalt connect_seat(int slot, transport::PeerId peer, Micros now,
                                      const auth::SessionKeys* keys);
    /// Sends the accept to a seat just connected (with its seal when keyed), `resumed` with the stream's
    /// position.
    void send_accept(int slot, const auth::ConnectionSalt& salt, bool resumed, std::uint32_t next_message,
                     Tick message_tick);
    // seats held for a client whose link is lost, and coming back (server_resume.cpp)
    /// The link of the seated client in `slot` is lost: hold its seat for seat_grace, or free it without one.
    void lose_link(int slot, Micros now);
    /// The seat a hello resumes: a seated or held seat the request proves is its own (its secret, or the
    /// token's account), or -1. A resume that names a seat it cannot prove is counted and refused.
    [[nodiscard]] int resume_target(const ConnectRequest& req, const auth::TokenFields* token);
    /// Gives `slot` back to its client on the connection `peer`: the accept, the messages it missed (or a
    /// resync) and Back to everyone.
    void resume_seat(int slot, transport::PeerId peer, const ConnectRequest& req, Micros now,
                     const auth::SessionKeys* keys);
    /// The secret of a fresh seating of `slot` (keyed by resume_key, numbered by `seating`).
    [[nodiscard]] ResumeSecret resume_secret(int slot, std::uint64_t seating) const;
    /// Keeps a reliable message sent to `s` for resending (trimmed to the log's bounds).
    void log_message(Seat& s, const ServerMessage& m);
    // messages from seated clients and the abuse accounting (server_receive.cpp)
    void on_seat_message(int slot, transport::Delivery delivery, std::span<const std::uint8_t> data,
                         Micros now);
    void on_input(int slot, std::span<const std::uint8_t> data, Micros now);
    void count_malformed(int slot, Micros now);
    void count_unexpected(int slot, Micros now);
    void count_toward_garbage_kick(int slot, Micros now);
    void count_abusive_packet(int slot, Micros now);
    // seats, timeouts and kicks (server_core.cpp)
    void unseat(int slot);
    void kick(int slot, DisconnectCode code, Micros now);
    void check_timeouts(Micros now);
    // what goes out (server_send.cpp)
    /// Sends `data` to `peer`, sealed when its seat `s` (null for a connection not seated) has a channel;
    /// the bytes that went to the transport, or 0 when it refused them.
    std::size_t transmit(Seat* s, transport::PeerId peer, transport::Delivery delivery,
                         std::span<const std::uint8_t> data);
    void send_snapshots(Micros now);
    void send_snapshot(int slot, Micros now, std::size_t max_size, std::size_t datagram_overhead);
    // messages (server_messages.cpp)
    void send_reliable(int slot, Tick at, MessageId type, const std::vector<std::uint8_t>& payload);
    void send_unreliable(int slot, Tick at, MessageId type, const std::vector<std::uint8_t>& payload);
    void send_out(const OutMessage& m, Tick at, bool (*sees)(void*, int) = nullptr, void* user = nullptr);
    /// Sends one of the library's own messages, stamped with the current tick, to `slot` (-1: everyone).
    template <class M>
    void send_builtin(const M& m, int slot = -1) {
        OutMessage out{message_id<void, M>(),
                       slot < 0 ? MessageScope::everyone : MessageScope::one,
                       static_cast<std::uint8_t>(std::max(slot, 0)),
                       0,
                       true,
                       {}};
        if (!encode_payload(m, out.payload).ok()) return;  // the library's own messages always fit
        send_out(out, tick);
    }
    /// A framed client message (`reliable`: it came on the reliable channel) from `slot`.
    void on_client_message(int slot, bool reliable, std::span<const std::uint8_t> data, Micros now);
    /// Counts a refused client message; refusals a client controls count toward its kick.
    void refuse_message(int slot, MessageRefusal why, Micros now);
    /// Whether `slot` may send one more message of `type` now (spends a token of its bucket).
    bool take_message_token(int slot, MessageId type, const MessageSpec& spec, Micros now);
    /// Encodes `msg` and transmits it to `peer`, whose seat is `s` (null for a connection not seated).
    template <class Msg>
    bool send(Seat* s, transport::PeerId peer, transport::Delivery delivery, Msg& msg,
              std::uint64_t* bytes = nullptr) {
        const std::size_t sent = encode_message(msg, buffer).ok() ? transmit(s, peer, delivery, buffer) : 0;
        if (sent == 0) {
            ++stats.send_failures;
            return false;
        }
        if (bytes) *bytes += sent;
        return true;
    }

    transport::Transport& transport;
    ServerConfig config;
    int max_clients = 0;
    ServerGameSide& game;
    FixedStep step;
    Tick tick{};
    bool started = false;
    Micros last_now{};
    int snapshot_accumulator = 0;
    std::vector<Seat> seats;
    std::vector<Pending> pending;
    std::optional<auth::TokenGate> token_gate;  // set when config.require_token is
    sync::LagCompensation lag;                  // per-client rewind limits (client_latency mode)
    std::vector<std::uint8_t> buffer;
    std::vector<std::uint8_t> sealed;           // scratch: a sealed packet on its way out
    std::vector<std::uint8_t> opened;           // scratch: a sealed packet opened
    std::uint64_t keyed_connections = 0;        // connections seated with a token (numbers their salts)
    std::uint64_t seatings = 0;                 // fresh seatings so far (numbers their resume secrets)
    std::array<std::uint8_t, 32> resume_key{};  // config.resume_key, or drawn at start when that is zero
    std::vector<EncodedInput> packet_inputs;    // scratch: the inputs of one input packet
    MessageTable messages;                      // the game's message types
    std::deque<Message> inbox;                  // client messages the app has not polled yet (bounded)
    ServerStats stats{};
};

/// Most client messages kept unpolled: a server app that never polls must not grow forever.
inline constexpr std::size_t kMaxQueuedClientMessages = 4096;

}  // namespace rwd::client_server
