/// The client-server protocol messages (connect, input, snapshot, event, disconnect, chat) and their
/// serialize().
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/sync/entity_delta.hpp>
#include <rewind/sync/snapshot_window.hpp>
#include <rewind/wire/serialize.hpp>

#include <array>
#include <climits>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rwd::client_server {

/// "RWCS": the first field of a connect request; anything else is not our protocol.
inline constexpr std::uint32_t kProtocolId = 0x52574353u;
/// Bumped on every incompatible change of this file.
inline constexpr std::uint32_t kProtocolVersion = 4;
/// Inputs per input packet: the newest plus the previous 3, for loss redundancy.
inline constexpr int kInputsPerPacket = 4;
/// Longest chat text in bytes.
inline constexpr std::uint32_t kMaxChatBytes = 120;
/// Most entities one snapshot may carry (the decoder refuses more: the count is attacker-controlled).
inline constexpr std::uint32_t kMaxSnapshotEntities = 1023;
/// Largest arrival offset magnitude on the wire, in microseconds (larger values are clamped by the sender).
inline constexpr std::int32_t kMaxArrivalOffsetUs = 1'000'000;

/// The first 3 bits of every message.
enum class MessageType : std::uint8_t {
    connect_request = 1,  ///< client -> server, reliable: hello
    connect_accept = 2,   ///< server -> client, reliable: your slot and the server's clock
    input = 3,            ///< client -> server, unreliable: inputs, snapshot ack, ping
    snapshot = 4,         ///< server -> client, unreliable: world state, input ack, pong
    event = 5,            ///< server -> client, reliable: spawn, death, hit, score, chat
    disconnect = 6,       ///< either way, reliable: goodbye with a reason
    chat = 7,             ///< client -> server, reliable: a chat line to broadcast
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

/// Client hello: who we are and what we speak.
struct ConnectRequest {
    std::uint32_t protocol_id = kProtocolId;
    std::uint32_t version = kProtocolVersion;
    std::uint32_t game_id = 0;  ///< the app's game/build id; the server refuses a mismatch
    std::vector<std::uint8_t>
        token;  ///< connect token from the game backend (empty: none), <= auth::kMaxTokenBytes
};

/// Server welcome: the client's slot and the server's tick.
struct ConnectAccept {
    std::uint8_t slot = 0;  ///< the player slot this client controls, 0..kMaxPlayers-1
    Tick server_tick{};     ///< the server's tick when it accepted
    std::uint16_t tick_rate_hz = 60;
    std::uint8_t snapshot_rate_hz = 30;
    std::uint8_t input_buffer_target = 2;  ///< ticks early the server wants inputs (its jitter buffer), 0..16
};

/// Client inputs. inputs[0] is for newest_tick, inputs[i] for newest_tick - i, count of them valid. A packet
/// with count 0 is a ping (and snapshot ack) only: the client sends those while it syncs its clock, before it
/// ticks.
template <class Input>
struct InputPacket {
    std::uint16_t sequence = 0;  ///< per-connection packet counter (loss measurement)
    Tick newest_tick{};          ///< the client tick of inputs[0]
    std::uint8_t count = 1;      ///< 0..kInputsPerPacket
    std::array<Input, kInputsPerPacket> inputs{};
    bool has_ack = false;         ///< whether ack_snapshot_tick is valid
    Tick ack_snapshot_tick{};     ///< newest snapshot received (baseline for deltas)
    std::uint32_t ping_time = 0;  ///< client clock in microseconds, low 32 bits; echoed back
};

/// How a snapshot reader finds the baseline a snapshot names: the entity list of the snapshot this peer
/// received with `sequence`, or nullptr when it does not hold it (never received, or too old).
template <class EntityRecord>
struct BaselineLookup {
    using Fn = const std::vector<EntityRecord>* (*)(void* user, std::uint16_t sequence);
    Fn fn = nullptr;       ///< null: only snapshots against the empty baseline decode
    void* user = nullptr;  ///< passed back to fn
};

/// Server state for one client. Entities are sorted by strictly ascending id. They travel delta-coded against
/// the baseline (sync::serialize_entity_delta): the snapshot sent `baseline_age` sequences earlier, which the
/// client acknowledged, or the empty list when baseline_age is 0.
template <class EntityRecord>
struct SnapshotPacket {
    std::uint16_t sequence = 0;           ///< per-client snapshot counter (loss measurement)
    Tick server_tick{};                   ///< the tick this state is after
    bool has_input = false;               ///< whether last_input_tick is valid
    Tick last_input_tick{};               ///< newest input tick of this client applied by the server
    std::int32_t arrival_offset_us = 0;   ///< how early (+) or late (-) this client's inputs arrive
    std::uint8_t input_buffer_depth = 0;  ///< inputs waiting in the server's jitter buffer, 0..255
    std::uint32_t pong_time = 0;          ///< the newest ping_time received from this client
    std::uint32_t pong_hold_us = 0;       ///< how long the server held that ping before this snapshot
    std::uint8_t baseline_age = 0;        ///< 0: no baseline; else sequence - the baseline's sequence (1..64)
    std::vector<EntityRecord> entities;   ///< every entity the client holds after this snapshot
    std::vector<std::uint32_t>
        stale;  ///< ids left out by the byte budget: entities[] holds the baseline value
    // Not on the wire:
    std::span<const EntityRecord> baseline{};  ///< writer: the baseline's entities; reader: set from `lookup`
    BaselineLookup<EntityRecord> lookup{};     ///< reader: resolves baseline_age to the baseline's entities
    bool baseline_missing = false;             ///< reader: failed because the named baseline is not held
};

/// Kinds of reliable events.
enum class EventKind : std::uint8_t { spawn = 0, death = 1, hit = 2, score = 3, chat = 4, leave = 5 };
/// Bits of EventKind.
inline constexpr int kEventKindBits = 3;
/// The readable name of an event kind.
std::string_view event_kind_name(EventKind k);

/// A discrete event. `sequence` counts events sent to this client (from 0) so it can check exactly-once
/// order.
struct Event {
    std::uint32_t sequence = 0;
    EventKind kind = EventKind::spawn;
    Tick tick{};               ///< server tick it happened on
    std::uint8_t subject = 0;  ///< the slot it is about (spawned, died, shooter, scorer, speaker)
    std::uint8_t other = 0;    ///< the other slot (killer, target), or subject
    std::int32_t value = 0;    ///< score, damage, entity id
    std::string text;          ///< chat text (empty otherwise), at most kMaxChatBytes
    friend bool operator==(const Event&, const Event&) = default;
};

/// Goodbye with a reason.
struct Disconnect {
    DisconnectCode code = DisconnectCode::client_quit;
    auth::TokenError token_error =
        auth::TokenError::none;  ///< why, when code is unauthorized (else not sent)
};

/// A chat line from a client; the server broadcasts it as an Event.
struct ChatRequest {
    std::string text;
};

// ---- serialize: one function per message for WriteStream, ReadStream and MeasureStream ----

/// A tick: 32 raw bits (ticks wrap, every value is valid).
template <class Stream>
bool serialize_tick(Stream& s, Tick& t) {
    return wire::serialize_bits(s, t.value, 32);
}

/// ConnectRequest fields.
template <class Stream>
bool serialize(Stream& s, ConnectRequest& m) {
    return wire::serialize_bits(s, m.protocol_id, 32) && wire::serialize_int(s, m.version, 0u, 0xFFFFu) &&
           wire::serialize_bits(s, m.game_id, 32) && wire::serialize_bytes(s, m.token, auth::kMaxTokenBytes);
}

/// ConnectAccept fields.
template <class Stream>
bool serialize(Stream& s, ConnectAccept& m) {
    return wire::serialize_int(s, m.slot, std::uint8_t{0}, std::uint8_t{255}) &&
           serialize_tick(s, m.server_tick) &&
           wire::serialize_int(s, m.tick_rate_hz, std::uint16_t{1}, std::uint16_t{1000}) &&
           wire::serialize_int(s, m.snapshot_rate_hz, std::uint8_t{1}, std::uint8_t{255}) &&
           wire::serialize_int(s, m.input_buffer_target, std::uint8_t{0}, std::uint8_t{16});
}

/// InputPacket fields; the inputs go through the game's ADL serialize(Stream&, Input&).
template <class Stream, class Input>
bool serialize(Stream& s, InputPacket<Input>& m) {
    if (!wire::serialize_int(s, m.sequence, std::uint16_t{0}, std::uint16_t{0xFFFF}) ||
        !serialize_tick(s, m.newest_tick) ||
        !wire::serialize_int(s, m.count, std::uint8_t{0}, std::uint8_t{kInputsPerPacket}))
        return false;
    for (int i = 0; i < m.count; ++i) {
        if (!serialize(s, m.inputs[static_cast<std::size_t>(i)])) {  // the game's quantized input (ADL)
            s.fail(Errc::malformed);
            return false;
        }
    }
    if (!wire::serialize_bool(s, m.has_ack)) return false;
    if (m.has_ack && !serialize_tick(s, m.ack_snapshot_tick)) return false;
    return wire::serialize_bits(s, m.ping_time, 32);
}

/// A full entity list: a count, then per entity its id gap and the game's serialize(). Snapshots no longer
/// use it (they are delta-coded against a baseline); it stays as the reference "full quantized snapshot" that
/// bandwidth figures are compared with.
template <class Stream, class EntityRecord>
bool serialize_entities(Stream& s, std::vector<EntityRecord>& entities) {
    auto count = static_cast<std::uint32_t>(entities.size());
    if (!wire::serialize_int(s, count, 0u, kMaxSnapshotEntities)) return false;
    if constexpr (Stream::is_reading) {
        // The count is attacker-controlled: every entity takes at least 2 bits, so a larger count is a lie.
        if (std::size_t{count} * 2 > s.bits_remaining()) return s.fail(Errc::length_too_long), false;
        entities.resize(count);
    }
    std::uint32_t previous = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        auto& e = entities[i];
        // Ids ascend strictly: the first is sent in full, then small gaps (1..16) in 5 bits, others in 33.
        std::uint32_t gap = i == 0 ? e.id : e.id - previous;
        if constexpr (!Stream::is_reading)
            if (i > 0 && e.id <= previous) return s.fail(Errc::invalid_argument), false;
        bool small = i > 0 && gap >= 1 && gap <= 16;
        if (!wire::serialize_bool(s, small)) return false;
        if constexpr (Stream::is_reading)
            if (i == 0 && small)
                return s.fail(Errc::malformed), false;  // the first id is always sent in full
        if (small) {
            std::uint32_t g = gap - 1;
            if (!wire::serialize_bits(s, g, 4)) return false;
            gap = g + 1;
        } else if (!wire::serialize_bits(s, gap, 32)) {
            return false;
        }
        if constexpr (Stream::is_reading) {
            // Reject anything that is not strictly ascending (a zero gap or one that wraps past 2^32).
            if (i > 0 && (gap == 0 || previous + gap <= previous)) return s.fail(Errc::malformed), false;
            if (i > 0 && !small && gap <= 16)
                return s.fail(Errc::malformed), false;  // one encoding per value
            e.id = i == 0 ? gap : previous + gap;
        }
        previous = e.id;
        if (!serialize(s, e.snap)) return s.fail(Errc::malformed), false;  // the game's entity codec (ADL)
    }
    return s.ok();
}

/// The entity section of a snapshot: the baseline age in 7 bits (0..64), then the entity list delta-coded
/// against that baseline (sync::serialize_entity_delta, at most kMaxSnapshotEntities).
template <class Stream, class EntityRecord>
bool serialize_snapshot_entities(Stream& s, SnapshotPacket<EntityRecord>& m) {
    if (!wire::serialize_int(s, m.baseline_age, std::uint8_t{0},
                             static_cast<std::uint8_t>(sync::kMaxSnapshotWindow)))
        return false;
    if constexpr (Stream::is_reading) {
        m.baseline = {};
        m.baseline_missing = false;
        if (m.baseline_age != 0) {
            // The age is attacker-controlled: it only selects among lists this client itself decoded before.
            const auto* base =
                m.lookup.fn
                    ? m.lookup.fn(m.lookup.user, static_cast<std::uint16_t>(m.sequence - m.baseline_age))
                    : nullptr;
            if (!base) {
                m.baseline_missing = true;
                return s.fail(Errc::malformed), false;
            }
            m.baseline = std::span<const EntityRecord>(*base);
        }
    } else if (m.baseline_age == 0 && !m.baseline.empty()) {
        return s.fail(Errc::invalid_argument), false;  // a baseline needs its age
    }
    return sync::serialize_entity_delta(s, m.baseline, m.entities, m.stale, kMaxSnapshotEntities);
}

/// SnapshotPacket fields.
template <class Stream, class EntityRecord>
bool serialize(Stream& s, SnapshotPacket<EntityRecord>& m) {
    if (!wire::serialize_int(s, m.sequence, std::uint16_t{0}, std::uint16_t{0xFFFF}) ||
        !serialize_tick(s, m.server_tick) || !wire::serialize_bool(s, m.has_input))
        return false;
    if (m.has_input && !serialize_tick(s, m.last_input_tick)) return false;
    return wire::serialize_int(s, m.arrival_offset_us, -kMaxArrivalOffsetUs, kMaxArrivalOffsetUs) &&
           wire::serialize_int(s, m.input_buffer_depth, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_bits(s, m.pong_time, 32) && wire::serialize_bits(s, m.pong_hold_us, 32) &&
           serialize_snapshot_entities(s, m);
}

/// Event fields.
template <class Stream>
bool serialize(Stream& s, Event& m) {
    return wire::serialize_bits(s, m.sequence, 32) && wire::serialize_enum(s, m.kind, EventKind::leave) &&
           serialize_tick(s, m.tick) &&
           wire::serialize_int(s, m.subject, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_int(s, m.other, std::uint8_t{0}, std::uint8_t{255}) &&
           wire::serialize_int(s, m.value, INT32_MIN, INT32_MAX) &&
           wire::serialize_string(s, m.text, kMaxChatBytes);
}

/// Disconnect fields.
template <class Stream>
bool serialize(Stream& s, Disconnect& m) {
    if (!wire::serialize_enum(s, m.code, DisconnectCode::unauthorized)) return false;
    if (m.code != DisconnectCode::unauthorized) return true;
    return wire::serialize_enum(s, m.token_error, auth::TokenError::client_in_use);
}

/// ChatRequest fields.
template <class Stream>
bool serialize(Stream& s, ChatRequest& m) {
    return wire::serialize_string(s, m.text, kMaxChatBytes);
}

}  // namespace rwd::client_server
