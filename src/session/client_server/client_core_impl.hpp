/// ClientCore::Impl: the state of a client core and the steps its methods are built from (private to the
/// library).
#pragma once

#include <rewind/core/fixed_step.hpp>
#include <rewind/core/sequence_buffer.hpp>
#include <rewind/session/auth/secure_channel.hpp>
#include <rewind/session/client_server/detail/client_core.hpp>
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/resume_ticket.hpp>
#include <rewind/sync/clock_sync.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

namespace rwd::client_server::detail {

class ClientCore::Impl {
public:
    Impl(transport::Transport& transport, const ClientConfig& config, int max_players, ClientGameAccess& game,
         MessageTable messages);

    // client_core.cpp: sending, ending, the message stream.
    /// Encodes `msg` and sends it to the server; false when there is no server or the send fails.
    template <class Msg>
    bool send(transport::Delivery delivery, Msg& msg);
    /// Says goodbye (client_quit) and closes the connection, if there is one.
    void quit();
    /// Ends the session with `code` (the first code given is kept).
    void end(DisconnectCode code);
    /// A connection attempt failed before the accept (`code`: timed_out or transport): retry after the
    /// backoff while connect_retry_for allows, else end with `code`.
    void attempt_failed(DisconnectCode code, Micros now);
    /// Starts one connection attempt to server_address_; false (and the session ended) if the transport
    /// refuses at once.
    bool start_attempt(Micros now);
    /// The link to the server is lost while syncing or playing: reconnect to the seat when the server holds
    /// seats and reconnect_for allows, else end the session with `code`.
    void link_lost(DisconnectCode code, Micros now);
    /// A reconnection attempt failed: the next one after the backoff, or the end when reconnect_for is up.
    void reconnect_failed(Micros now);
    /// A new connection: what the last one decoded can no longer serve as a baseline, and the sequences of
    /// its snapshots and unreliable messages start over.
    void forget_connection_snapshots();
    /// The hello of a new connection (a resume when resume_ is set).
    [[nodiscard]] ConnectRequest hello() const;
    /// Takes a received message in (the order of reliable ones checked by the caller): validated against the
    /// message table, then queued (bounded); false when it was refused.
    bool take_message(Message&& m);

    // client_core_update.cpp: time, ticks, inputs, rates.
    void update(Micros now);
    /// Jumps the client clock to `t`; the adapter restarts its prediction there.
    void resync_to(Tick t);
    /// Runs tick tick_: the adapter predicts it, the core sends the newest inputs.
    void run_tick(Micros now);
    /// An empty input packet (a ping and snapshot ack) while syncing.
    void send_ping(Micros now);
    /// The input packet for `newest`: the last kInputsPerPacket inputs, the snapshot ack and a ping.
    void send_inputs(Tick newest, Micros now);
    /// The tail of every input packet and ping: the ack, the ping stamp and our interpolation delay.
    [[nodiscard]] InputPacketTail input_tail(Micros now) const;
    void update_rates(Micros now);

    // client_core_messages.cpp: what arrives.
    void on_transport_event(transport::TransportEvent& ev, Micros now);
    /// A message from the server, opened first when packets are sealed; what does not open is counted and
    /// dropped (a refusal before the accept comes in the clear).
    void on_packet(transport::Delivery delivery, std::span<const std::uint8_t> data, Micros now);
    /// With a token, before the accept: a clear refusal, or the accept and the seal that authenticates it
    /// (its salt keys the channel); true and the message to take in `plain`, or false (counted).
    bool on_clear_handshake(auth::Lane lane, std::span<const std::uint8_t> data,
                            std::span<const std::uint8_t>& plain);
    void on_message(std::span<const std::uint8_t> data, Micros now);
    void on_accept(std::span<const std::uint8_t> data);
    void on_snapshot(std::span<const std::uint8_t> data, Micros now);
    /// The header of a snapshot newer than any before: loss, clock, the server's view of our inputs.
    void on_snapshot_header(const SnapshotHeader& head, Micros now);

    transport::Transport& transport_;
    ClientConfig config_;
    int max_players_;
    ClientGameAccess& game_;
    ClientPhase phase_ = ClientPhase::idle;
    transport::PeerId server_ = transport::kInvalidPeer;
    transport::Address server_address_{};
    Micros connect_started_{};        // this attempt
    Micros last_heard_{};             // the newest message from the server (or the connect)
    Micros first_attempt_{};          // the first attempt of this connect()
    std::optional<Micros> retry_at_;  // connecting, between attempts: when the next one starts
    Micros backoff_{};
    Micros last_ping_{};
    Micros last_now_{};
    bool has_now_ = false;
    int slot_ = -1;
    FixedStep step_;
    sync::ClockSync clock_;
    Tick tick_{};
    // The newest inputs, newest first (the redundancy of every input packet); reset when the clock jumps.
    std::array<EncodedInput, kInputsPerPacket> recent_{};
    std::array<bool, kInputsPerPacket> recent_ok_{};
    int recent_count_ = 0;
    std::uint16_t input_sequence_ = 0;
    bool has_snapshot_ = false;
    Tick newest_snapshot_tick_{};
    std::uint16_t newest_snapshot_seq_ = 0;  // the sequence of that snapshot
    bool has_seq_ = false;
    std::uint16_t newest_seq_ = 0;
    std::uint64_t seq_received_window_ = 0;
    std::uint64_t seq_expected_window_ = 0;
    std::uint32_t expected_message_ = 0;  // the sequence of the next reliable message
    Tick last_message_tick_{};  // of the last reliable message received (the next one's tick is coded against
                                // it)
    MessageTable messages_;     // the game's message types
    std::uint16_t unreliable_sequence_ = 0;  // unreliable messages sent on this connection (wrapping)
    // The sequences of the unreliable messages taken on this connection: a copy the network made is dropped.
    SequenceBuffer<std::uint8_t, kUnreliableWindow> unreliable_seen_;
    std::deque<Message> inbox_;
    std::deque<Micros> correction_times_;
    std::vector<std::uint8_t> buffer_;
    // With a token: this connection's channel, keyed by the salt of its accept (none before the accept).
    std::unique_ptr<auth::SecureChannel> channel_;
    std::vector<std::uint8_t> sealed_;  // scratch: a sealed packet
    std::vector<std::uint8_t> opened_;  // scratch: a packet opened
    ClientStats stats_{};
    // Coming back to a seat: the claim the next hello makes (from a lost link, or a ticket the app gave).
    std::optional<ResumeTicket> resume_;
    ResumeSecret secret_{};                 // the secret of the seat held now (from its accept)
    bool grace_offered_ = false;            // the server holds this seat when the link is lost
    Micros lost_at_{};                      // reconnecting: when the link was lost
    bool force_resync_ = false;             // a comeback: restart the clock at the server's time once synced
    bool waiting_for_credentials_ = false;  // reconnecting with a token the server refused: a fresh one first
    /// The reliable messages sent on this seat (all its connections), the newest kept for resending after a
    /// comeback: the server's accept says how many it took.
    struct SentMessage {
        std::uint32_t index = 0;
        ClientMessage message;
    };
    std::deque<SentMessage> sent_log_;
    std::uint32_t sent_count_ = 0;
    /// Resends what the server did not take before the link was lost (`taken`: its count).
    void resend_after(std::uint32_t taken);
};

/// Reliable messages a client keeps for resending after a comeback.
inline constexpr std::size_t kClientResendLog = 256;

template <class Msg>
bool ClientCore::Impl::send(transport::Delivery delivery, Msg& msg) {
    if (server_ == transport::kInvalidPeer || !encode_message(msg, buffer_).ok()) return false;
    std::span<const std::uint8_t> out = buffer_;
    // With a token the hello goes in the clear (its token carries the keys, sealed for the server); nothing
    // else leaves before the accept keys the channel, and everything after it is sealed.
    if (!config_.connect_token.empty() && !std::is_same_v<Msg, ConnectRequest>) {
        if (!channel_) return false;
        const auto lane = auth::lane_of(delivery);
        if (!channel_->seal(lane, buffer_, sealed_).ok()) return false;
        out = sealed_;
    }
    if (!transport_.send(server_, delivery, out).ok()) return false;
    stats_.bytes_sent += out.size();
    return true;
}

/// Most messages kept unpolled: an app that never polls must not grow the client forever.
inline constexpr std::size_t kMaxQueuedMessages = 4096;

}  // namespace rwd::client_server::detail
