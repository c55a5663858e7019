/// The rollback wire protocol: message structs and their encoder/decoder (layout in docs/PROTOCOL.md).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/rollback/types.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rwd::rollback {

/// One player's input for one frame, as the bytes the game's serialize(Stream&, Input&) wrote (zero-padded).
/// Bytes at and beyond `size` are always zero, so two equal inputs have equal InputBits.
struct InputBits {
    std::uint8_t size = 0;                             ///< bytes used, 0..kMaxInputBytes
    std::array<std::uint8_t, kMaxInputBytes> bytes{};  ///< the serialized input
    friend bool operator==(const InputBits&, const InputBits&) = default;
};

/// Kinds of rollback messages (4 bits on the wire).
enum class MsgType : std::uint8_t {
    sync_request = 1,    ///< handshake request with a random nonce
    sync_reply = 2,      ///< handshake reply echoing the nonce
    input = 3,           ///< inputs, ack, frame advantage, connect status, checksum report
    quality_report = 4,  ///< ping request carrying the sender's timestamp
    quality_reply = 5,   ///< ping reply echoing it
    keepalive = 6,       ///< nothing but the header
    goodbye = 7,         ///< the sender leaves (spectator or session closed)
    state_request = 8,   ///< desync forensics: send me your state of `frame` (reliable channel)
    state_chunk = 9,     ///< desync forensics: a piece of that state (reliable channel)
    join_request = 10,   ///< a joining player asks its sponsor for the match (repeated until answered)
    join_state = 11,     ///< the sponsor's answer: the join frame and a piece of a confirmed state (reliable)
};
/// The largest MsgType value.
inline constexpr MsgType kMaxMsgType = MsgType::join_state;

/// Roles in the handshake.
enum class Role : std::uint8_t { player = 0, spectator = 1 };

/// The inputs of one player for frames start, start+1, ... (XOR-compressed on the wire).
struct InputStream {
    std::uint8_t player = 0;        ///< the slot, 0..7
    Frame start = 0;                ///< frame of inputs[0]
    std::vector<InputBits> inputs;  ///< at most kMaxInputsPerStream
};
/// Most inputs one stream carries in one packet.
inline constexpr std::size_t kMaxInputsPerStream = 256;

/// Disconnect and join state of one player slot as the sender sees it.
struct PlayerStatus {
    bool disconnected = false;
    Frame last_frame = kNullFrame;  ///< disconnected: its last real input frame (later frames are neutral)
    /// The frame the slot's current player joined at (kNullFrame: it played from the start); its inputs are
    /// neutral after gap_last and before join_frame.
    Frame join_frame = kNullFrame;
    Frame gap_last = kNullFrame;  ///< joined: the last real input frame of the slot's previous player
    friend bool operator==(const PlayerStatus&, const PlayerStatus&) = default;
};

/// The checksum of a confirmed frame, with a tag of the disconnect history it was computed under.
struct ChecksumReport {
    Frame frame = 0;
    std::uint64_t checksum = 0;
    std::uint32_t status_tag = 0;  ///< hash of (player, disconnect frame) pairs at or before `frame`
    friend bool operator==(const ChecksumReport&, const ChecksumReport&) = default;
};

/// Largest state (bytes) the forensics transfer carries, and the largest piece per message.
inline constexpr std::size_t kMaxStateBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxStateChunk = 1024;

/// Any rollback message; which fields matter depends on `type` (see docs/PROTOCOL.md).
struct Message {
    MsgType type = MsgType::keepalive;
    std::uint32_t sender_nonce = 0;  ///< the sender's connection nonce (all types)
    // sync_request / sync_reply
    std::uint32_t request_nonce = 0;
    Role role = Role::player;
    std::uint32_t session_tag = 0;
    std::uint8_t num_players = 2;   ///< 1..8
    std::uint8_t players_mask = 0;  ///< the sender's local player slots
    // input
    Frame ack = kNullFrame;       ///< newest contiguous frame received of the recipient's players
    Frame sender_frame = 0;       ///< the sender's current frame
    std::int32_t advantage = 0;   ///< the sender's frame advantage over the recipient (frames)
    std::uint8_t num_status = 0;  ///< entries used in `status`
    std::array<PlayerStatus, kMaxSessionPlayers> status{};
    bool has_checksum = false;
    ChecksumReport checksum{};
    std::vector<InputStream> streams;  ///< at most 8, distinct players
    // quality_report / quality_reply
    std::uint32_t stamp = 0;
    // goodbye
    LeaveReason reason = LeaveReason::left;  ///< why the sender ends the link

    // join_state (and the status fields of input)
    std::uint8_t join_slot = 0;  ///< the slot the joiner takes
    Frame join_frame = 0;        ///< the first frame the joiner's inputs are used in

    // state_request / state_chunk / join_state
    Frame state_frame = 0;
    std::uint64_t state_checksum = 0;
    bool state_serialized = false;          ///< bytes from the game's serialize(State) (else raw memory)
    std::uint32_t state_total = 0;          ///< total size of the state bytes
    std::uint32_t state_offset = 0;         ///< where this chunk goes
    std::vector<std::uint8_t> state_bytes;  ///< this chunk
};

/// Encodes `msg` into `out`; the bytes used, or an error (out_of_space, value_out_of_range, ...).
[[nodiscard]] Result<std::size_t> encode_message(const Message& msg, std::span<std::uint8_t> out);
/// Decodes untrusted bytes into `msg`. Any malformed, out-of-range or non-canonical field fails; `msg` is
/// then unspecified. Never reads out of bounds, never allocates more than the data can justify.
[[nodiscard]] Status decode_message(std::span<const std::uint8_t> data, Message& msg);
/// Bits encode_message would write.
[[nodiscard]] std::size_t measure_message(const Message& msg);
/// Bits one input costs in a stream after `prev` (1 when unchanged).
[[nodiscard]] std::size_t input_bits_cost(const InputBits& prev, const InputBits& cur);
/// Worst-case bits of one input in a stream.
inline constexpr std::size_t kMaxInputCostBits = 1 + 7 + 9 * kMaxInputBytes;

}  // namespace rwd::rollback
