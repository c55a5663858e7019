/// World recordings of client-server matches: every entity at every server tick and every message the server
/// sent, written by the server and played back by a client (layout in docs/REPLAY.md).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/session/client_server/game_message.hpp>
#include <rewind/session/client_server/message_outbox.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rwd::client_server {

/// The world recording format version this build writes and reads.
inline constexpr std::uint16_t kWorldRecordingVersion = 1;
/// Longest serialized entity in a recording, in bytes.
inline constexpr std::size_t kMaxRecordedEntityBytes = 255;

/// What a recording says about its match.
struct WorldRecordingHeader {
    std::string game_id;             ///< the game's name, 1..64 printable ASCII bytes
    std::uint32_t game_version = 0;  ///< the game's rules version (entity and message encodings included)
    int tick_rate = 60;              ///< server ticks per second, 1..1000
    friend bool operator==(const WorldRecordingHeader&, const WorldRecordingHeader&) = default;
};

/// One entity of a tick's world: its id and the bytes the game's serialize(Stream&, EntitySnapshot&) wrote.
struct WorldEntityBytes {
    std::uint32_t id = 0;
    std::span<const std::uint8_t> bytes;
};

/// A message the server sent, stamped with the tick it was sent on.
struct RecordedMessage {
    Tick tick{};
    OutMessage message;
    friend bool operator==(const RecordedMessage&, const RecordedMessage&) = default;
};

/// A parsed recording: ticks in order, each a full world (keyframe) or the changes since the tick before, and
/// the messages sorted by tick (in the order sent within a tick).
class WorldRecordingData {
public:
    /// One entry of a tick: `id` set to `bytes`, or removed.
    struct Entry {
        std::uint32_t id = 0;
        bool removed = false;
        std::uint32_t offset = 0;  ///< into bytes()
        std::uint8_t size = 0;
    };
    /// One recorded tick.
    struct TickRecord {
        Tick tick{};
        bool keyframe = false;    ///< entries list the whole world; else only what changed
        std::uint32_t first = 0;  ///< its entries: entries()[first, first + count)
        std::uint32_t count = 0;
        std::uint64_t checksum = 0;  ///< of the whole world after applying them (world_checksum())
    };

    [[nodiscard]] const WorldRecordingHeader& header() const { return header_; }
    [[nodiscard]] const std::vector<TickRecord>& ticks() const { return ticks_; }
    [[nodiscard]] std::span<const Entry> entries(const TickRecord& t) const {
        return std::span<const Entry>(entries_).subspan(t.first, t.count);
    }
    /// Every entry of every tick, in file order (a tick's are at [first, first + count)).
    [[nodiscard]] const std::vector<Entry>& all_entries() const { return entries_; }
    /// The serialized entity of a set entry.
    [[nodiscard]] std::span<const std::uint8_t> bytes(const Entry& e) const {
        return std::span<const std::uint8_t>(bytes_).subspan(e.offset, e.size);
    }
    [[nodiscard]] const std::vector<RecordedMessage>& messages() const { return messages_; }

private:
    friend class WorldWriter;
    friend Result<WorldRecordingData> parse_world_recording(std::span<const std::uint8_t> bytes);
    WorldRecordingHeader header_;
    std::vector<TickRecord> ticks_;
    std::vector<Entry> entries_;
    std::vector<std::uint8_t> bytes_;
    std::vector<RecordedMessage> messages_;
};

/// XXH3 of a whole world (ids ascending): what each tick record carries, so that playback checks itself.
[[nodiscard]] std::uint64_t world_checksum(std::span<const WorldEntityBytes> world);

/// Builds a recording tick by tick from whole worlds; writes a keyframe every `keyframe_ticks` ticks and the
/// changes in between.
class WorldWriter {
public:
    /// invalid_argument when the header does not validate or keyframe_ticks < 1.
    [[nodiscard]] static Result<WorldWriter> create(WorldRecordingHeader header, int keyframe_ticks);

    /// Appends `tick` (after the previous one) with its whole world, ids strictly ascending, each entity at
    /// most kMaxRecordedEntityBytes.
    [[nodiscard]] Status add_tick(Tick tick, std::span<const WorldEntityBytes> world);
    /// Appends a message sent on `tick` (any tick: a late-input replay sends for ticks already recorded).
    [[nodiscard]] Status add_message(Tick tick, const OutMessage& message);
    /// Ticks and messages so far.
    [[nodiscard]] std::size_t ticks() const { return ticks_; }
    [[nodiscard]] std::size_t messages() const { return messages_; }
    /// Bytes written so far (the file is this plus a few dozen).
    [[nodiscard]] std::size_t size_bytes() const { return body_.size(); }
    /// The complete file.
    [[nodiscard]] std::vector<std::uint8_t> bytes() const;

private:
    WorldWriter(WorldRecordingHeader header, int keyframe_ticks);
    WorldRecordingHeader header_;
    int keyframe_ticks_;
    std::vector<std::uint8_t> body_;
    std::vector<std::pair<std::uint32_t, std::vector<std::uint8_t>>> world_;  // the previous tick's, by id
    bool any_tick_ = false;
    Tick last_{};
    std::size_t ticks_ = 0;
    std::size_t messages_ = 0;
};

/// invalid_argument when a header cannot be written (game id, tick rate).
[[nodiscard]] Status validate_header(const WorldRecordingHeader& header);

/// Parses untrusted bytes. malformed: not a recording, truncated, a bad record, a damaged file; rejected: a
/// format version this build does not read (world_recording_version() names it). Memory is bounded by the
/// size of `bytes`.
[[nodiscard]] Result<WorldRecordingData> parse_world_recording(std::span<const std::uint8_t> bytes);

/// The format version of a recording's fixed header, or 0 when `bytes` do not start like one.
[[nodiscard]] std::uint16_t world_recording_version(std::span<const std::uint8_t> bytes);

/// Whether `bytes` start like a world recording (as opposed to a rollback replay).
[[nodiscard]] bool is_world_recording(std::span<const std::uint8_t> bytes);

}  // namespace rwd::client_server
