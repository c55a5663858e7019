/// The client-server protocol messages that do not depend on the game (connect, disconnect, the framing of
/// game and library messages, and the fixed parts of input and snapshot packets), with serialize() compiled
/// once in the library.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/client_server/game_message.hpp>
#include <rewind/wire/stream.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rwd::client_server {

/// "RWCS": the first field of a connect request; anything else is not our protocol.
inline constexpr std::uint32_t kProtocolId = 0x52574353u;
/// Bumped on every incompatible change of this file.
inline constexpr std::uint32_t kProtocolVersion = 12;
/// Inputs per input packet: the newest plus the previous 3, for loss redundancy.
inline constexpr int kInputsPerPacket = 4;
/// Most entities one snapshot may carry (the decoder refuses more: the count is attacker-controlled).
inline constexpr std::uint32_t kMaxSnapshotEntities = 1023;
/// Largest arrival offset magnitude on the wire, in microseconds (larger values are clamped by the sender).
inline constexpr std::int32_t kMaxArrivalOffsetUs = 1'000'000;

/// The first 3 bits of every message.
enum class MessageType : std::uint8_t {
    unreliable_message = 0,  ///< either way, unreliable: a game message (UnreliableMessage)
    connect_request = 1,     ///< client -> server, reliable: hello
    connect_accept = 2,      ///< server -> client, reliable: your slot and the server's clock
    input = 3,               ///< client -> server, unreliable: inputs, snapshot ack, ping
    snapshot = 4,            ///< server -> client, unreliable: world state, input ack, pong
    server_message = 5,      ///< server -> client, reliable: a game or library message (ServerMessage)
    disconnect = 6,          ///< either way, reliable: goodbye with a reason
    client_message = 7,      ///< client -> server, reliable: a game or library message (ClientMessage)
};
/// Bits of the message type field.
inline constexpr int kMessageTypeBits = 3;
/// The readable name of a message type.
std::string_view message_type_name(MessageType t);

/// Why a session ends (carried in Disconnect, kept in the client's stats).
enum class DisconnectCode : std::uint8_t {
    none = 0,
    client_quit,      ///< the client said goodbye
    server_shutdown,  ///< the server is going away
    timed_out,        ///< nothing heard for too long
    server_full,      ///< no free slot
    bad_protocol,     ///< wrong protocol id, version or game id
    garbage,          ///< too many malformed messages
    cheating,         ///< too many input violations
    transport,        ///< the transport dropped the peer
    unauthorized,     ///< the connect token was refused (Disconnect::token_error says why)
};
/// Bits of DisconnectCode on the wire.
inline constexpr int kDisconnectCodeBits = 4;
/// The readable name of a disconnect code.
std::string_view disconnect_code_name(DisconnectCode c);

/// Proves that a client is the player of a seat it lost: the server gives it in the accept (without tokens;
/// with a token the account proves it) and the client presents it when it comes back.
using ResumeSecret = std::array<std::uint8_t, 16>;

/// Client hello: who we are and what we speak.
struct ConnectRequest {
    std::uint32_t protocol_id = kProtocolId;
    std::uint32_t version = kProtocolVersion;
    std::uint32_t game_id = 0;  ///< the app's game/build id; the server refuses a mismatch
    std::vector<std::uint8_t>
        token;  ///< connect token from the game backend (empty: none), <= auth::kMaxTokenBytes
    /// Coming back to a seat this client lost (a ResumeTicket): its slot and, without a token, its secret.
    /// A resume that does not match a seat the server holds is seated as a newcomer.
    bool resume = false;
    std::uint8_t resume_slot = 0;
    ResumeSecret resume_secret{};  ///< on the wire only with resume
    /// The sequence of the next reliable message it expects: the server resends from there. False: it knows
    /// none (a restarted process), and the stream goes on from the server's next message (a resync).
    bool resume_has_messages = false;
    std::uint32_t resume_next_message = 0;
};

/// Server welcome: the client's slot and the server's tick.
struct ConnectAccept {
    std::uint8_t slot = 0;  ///< the player slot this client controls, 0..kMaxPlayers-1
    Tick server_tick{};     ///< the server's tick when it accepted
    std::uint16_t tick_rate_hz = 60;
    std::uint8_t snapshot_rate_hz = 30;
    std::uint8_t input_buffer_target = 2;  ///< ticks early the server wants inputs (its jitter buffer), 0..16
    /// With tokens: the salt of this connection's keys (auth::connection_keys). The accept then travels in
    /// the clear followed by an 18-byte seal authenticating it, the first packet under those keys.
    bool sealed = false;
    auth::ConnectionSalt salt{};
    /// How long, in seconds, the server holds this seat after the link is lost (0: it does not). With a
    /// grace and no seal, resume_secret follows: present it to come back (ConnectRequest::resume).
    std::uint16_t seat_grace_s = 0;
    ResumeSecret resume_secret{};
    /// The client's own seat given back (its player, state and score as they were). Then next_message is the
    /// sequence of the next reliable message on this connection (the first resent one, or a resync's start)
    /// and message_tick the tick it is coded against; a fresh seat starts at 0 and 0.
    bool resumed = false;
    std::uint32_t next_message = 0;
    Tick message_tick{};
    /// Resumed: the reliable messages the server took from this client over all its connections; the
    /// client resends the ones after them (lost with the old connection).
    std::uint32_t client_messages_taken = 0;
};

/// The fields of an input packet in front of its inputs (InputPacket<Input> in packets.hpp is the whole
/// message). A packet with count 0 is a ping (and snapshot ack) only.
struct InputPacketHead {
    std::uint16_t sequence = 0;  ///< per-connection packet counter (loss measurement)
    Tick newest_tick{};          ///< the client tick of the first input
    std::uint8_t count = 1;      ///< inputs that follow, 0..kInputsPerPacket (newest first)
};

/// The fields of an input packet after its inputs.
struct InputPacketTail {
    bool has_ack = false;                      ///< whether ack_snapshot_tick is valid
    Tick ack_snapshot_tick{};                  ///< newest snapshot decoded (baseline for deltas)
    std::uint32_t ping_time = 0;               ///< client clock in microseconds, low 32 bits; echoed back
    std::uint16_t interpolation_delay_ms = 0;  ///< how far behind the server the client draws others, 0..1000
};

/// The fields of a snapshot in front of its entity section (SnapshotPacket<Record> in packets.hpp is the
/// whole message).
struct SnapshotHeader {
    std::uint16_t sequence = 0;  ///< per-client snapshot counter (loss measurement)
    Tick server_tick{};          ///< the tick this state is after
    bool has_input = false;      ///< whether last_input_tick is valid
    Tick last_input_tick{};      ///< newest input tick of this client applied by the server
    /// With has_input: some of this client's recent ticks were played with a repeated input that a late one
    /// may still replace (ServerConfig::late_input_replay_ticks), so its player's state here may change.
    bool provisional = false;
    std::int32_t arrival_offset_us = 0;    ///< how early (+) or late (-) this client's inputs arrive
    std::uint8_t input_buffer_depth = 0;   ///< inputs waiting in the server's jitter buffer, 0..255
    std::uint32_t pong_time = 0;           ///< the newest ping_time received from this client
    std::uint32_t pong_hold_us = 0;        ///< how long the server held that ping before this snapshot
    std::uint8_t input_buffer_target = 0;  ///< ticks early the server wants this client's inputs now, 0..16
    /// Not on the wire: what the short server_tick form is relative to. The writer sets it to the newest
    /// snapshot tick the client acknowledged, the reader to the newest snapshot tick it holds; without one
    /// (or more than kShortTickSpan / 2 ticks before it, on the writer's side) the tick goes in full.
    bool has_tick_reference = false;
    Tick tick_reference{};  ///< see has_tick_reference
};

/// Low bits of server_tick a snapshot sends when the receiver holds a reference tick near it.
inline constexpr int kShortTickBits = 12;
/// Ticks the short form spans: a reader picks the tick with those low bits nearest its reference.
inline constexpr std::int32_t kShortTickSpan = 1 << kShortTickBits;
/// Bits of the ping echo: the low bits of the client's ping_time (an echo older than 2^22 µs, 4.2 s, is
/// ambiguous and the client ignores it).
inline constexpr int kPongTimeBits = 22;
/// Bits of the echoed ping's hold time (µs) in a snapshot.
inline constexpr int kPongHoldBits = 18;
/// Longest hold a snapshot echoes (262 ms); a ping held longer is not echoed.
inline constexpr std::uint32_t kMaxPongHoldUs = (1u << kPongHoldBits) - 1u;

/// A message on the server's reliable ordered channel to one client. `sequence` counts the messages sent to
/// this client (from 0) so it can check exactly-once order.
struct ServerMessage {
    std::uint32_t sequence = 0;
    Tick tick{};                        ///< server tick it was sent on
    MessageId type = 0;                 ///< the message type's id
    std::vector<std::uint8_t> payload;  ///< the encoded message, at most kMaxMessageBytes
    /// Not on the wire: what the receiver already knows from this connection's reliable ordered channel, the
    /// sequence it expects next and the tick of the message before (0 and 0 for the first). sequence and tick
    /// are coded against them; the sender and the receiver set them alike.
    std::uint32_t expected_sequence = 0;
    Tick previous_tick{};
    friend bool operator==(const ServerMessage&, const ServerMessage&) = default;
};

/// A message from a client on its reliable ordered channel.
struct ClientMessage {
    MessageId type = 0;                 ///< the message type's id
    std::vector<std::uint8_t> payload;  ///< the encoded message, at most kMaxMessageBytes
    friend bool operator==(const ClientMessage&, const ClientMessage&) = default;
};

/// A message either way on the unreliable channel. On the wire: tick, sequence, type, payload.
struct UnreliableMessage {
    /// From the server: the server tick it was sent on. From a client: the client's tick (untrusted).
    Tick tick{};
    MessageId type = 0;                 ///< the message type's id
    std::vector<std::uint8_t> payload;  ///< the encoded message, at most kMaxMessageBytes
    /// Counts this connection's unreliable messages in this direction (from 0, wrapping): the transport may
    /// deliver a datagram twice, and the receiver drops a sequence it has already taken (or one
    /// kUnreliableWindow or more behind the newest), so each message arrives at most once.
    std::uint16_t sequence = 0;
    friend bool operator==(const UnreliableMessage&, const UnreliableMessage&) = default;
};
/// Unreliable message sequences a receiver remembers (older ones are dropped as stale).
inline constexpr std::size_t kUnreliableWindow = 256;

/// Goodbye with a reason.
struct Disconnect {
    DisconnectCode code = DisconnectCode::client_quit;
    auth::TokenError token_error =
        auth::TokenError::none;  ///< why, when code is unauthorized (else not sent)
};

// ---- serialize: one function per message for WriteStream, ReadStream and MeasureStream (compiled in the
// library for those three streams) ----

/// A tick: 32 raw bits (ticks wrap, every value is valid).
template <class Stream>
bool serialize_tick(Stream& s, Tick& t);
/// ConnectRequest fields.
template <class Stream>
bool serialize(Stream& s, ConnectRequest& m);
/// ConnectAccept fields.
template <class Stream>
bool serialize(Stream& s, ConnectAccept& m);
/// InputPacketHead fields.
template <class Stream>
bool serialize(Stream& s, InputPacketHead& m);
/// InputPacketTail fields.
template <class Stream>
bool serialize(Stream& s, InputPacketTail& m);
/// SnapshotHeader fields.
template <class Stream>
bool serialize(Stream& s, SnapshotHeader& m);
/// ServerMessage fields.
template <class Stream>
bool serialize(Stream& s, ServerMessage& m);
/// ClientMessage fields.
template <class Stream>
bool serialize(Stream& s, ClientMessage& m);
/// UnreliableMessage fields.
template <class Stream>
bool serialize(Stream& s, UnreliableMessage& m);
/// Disconnect fields.
template <class Stream>
bool serialize(Stream& s, Disconnect& m);

}  // namespace rwd::client_server
