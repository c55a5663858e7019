/// Replay files of rollback and lockstep matches: the header, the writer and the parser (layout in
/// docs/REPLAY.md).
#pragma once

#include <rewind/core/recording_file.hpp>
#include <rewind/core/result.hpp>
#include <rewind/session/rollback/protocol.hpp>
#include <rewind/session/rollback/types.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rwd::rollback {

/// The replay format version this build writes and reads.
inline constexpr std::uint16_t kReplayFormatVersion = 1;
/// Longest game id and player name, in bytes.
inline constexpr std::size_t kMaxReplayNameBytes = 64;
/// Most frames a replay holds (2^25: 155 hours at 60 frames a second), so that a tiny file cannot ask a
/// player for billions of frames.
inline constexpr Frame kMaxReplayFrames = Frame{1} << 25;

/// The sync model a replay was recorded in.
enum class ReplayModel : std::uint8_t { rollback = 0, lockstep = 1 };

/// What a replay says about its match: enough for the game to rebuild the initial State.
struct ReplayHeader {
    std::string game_id;             ///< the game's name, 1..64 printable ASCII bytes
    std::uint32_t game_version = 0;  ///< the game's rules version: a replay plays only on the same rules
    ReplayModel model = ReplayModel::rollback;
    std::uint64_t seed = 0;               ///< the match seed the game built its initial State from
    std::vector<std::string> players;     ///< one name per slot (1..8 slots, each 0..64 printable bytes)
    std::int32_t checksum_interval = 60;  ///< a checksum every this many frames (1..65535)
    friend bool operator==(const ReplayHeader&, const ReplayHeader&) = default;
};

/// The state checksum after `frame` as the recording session computed it.
struct ReplayChecksum {
    Frame frame = 0;
    std::uint64_t checksum = 0;
    friend bool operator==(const ReplayChecksum&, const ReplayChecksum&) = default;
};

/// A parsed replay: the header, the number of frames, each slot's input as a list of changes, the checksums.
class ReplayData {
public:
    /// From frame `from` on (until the next change) the slot's input is `bits`.
    struct Change {
        Frame from = 0;
        InputBits bits;
    };

    /// The header.
    [[nodiscard]] const ReplayHeader& header() const { return header_; }
    /// Frames recorded: inputs exist for frames 0..frames()-1.
    [[nodiscard]] Frame frames() const { return frames_; }
    /// The input of `slot` at frame `f` (0 <= f < frames()); an empty InputBits before its first change.
    [[nodiscard]] const InputBits& input(int slot, Frame f) const;
    /// How many of `slot`'s changes start at or before frame `f`: the one in effect is changes(slot)[n - 1]
    /// (none when 0).
    [[nodiscard]] std::size_t changes_until(int slot, Frame f) const;
    /// The changes of `slot`'s input, oldest first.
    [[nodiscard]] const std::vector<Change>& changes(int slot) const;
    /// Checksums by frame, ascending.
    [[nodiscard]] const std::vector<ReplayChecksum>& checksums() const { return checksums_; }

private:
    friend class ReplayWriter;
    friend Result<ReplayData> parse_replay(std::span<const std::uint8_t> bytes);
    ReplayHeader header_;
    Frame frames_ = 0;
    std::vector<std::vector<Change>> changes_;  // by slot
    std::vector<ReplayChecksum> checksums_;
};

/// Builds a replay frame by frame. Inputs that repeat cost one byte per frame at most, and runs of frames
/// where no input changed cost five bytes in all.
class ReplayWriter {
public:
    /// A writer for `header`; invalid_argument when the header does not validate (see validate_header()).
    [[nodiscard]] static Result<ReplayWriter> create(ReplayHeader header);

    /// Appends the next frame: one InputBits per slot (header().players.size() of them).
    [[nodiscard]] Status add_frame(std::span<const InputBits> inputs);
    /// Records the checksum of the state after `frame`: a frame already added, after the previous checksum's.
    [[nodiscard]] Status add_checksum(Frame frame, std::uint64_t checksum);
    /// The frames added so far.
    [[nodiscard]] Frame frames() const { return data_.frames_; }
    /// The header.
    [[nodiscard]] const ReplayHeader& header() const { return data_.header_; }
    /// What has been recorded, as parse_replay(bytes()) would return it.
    [[nodiscard]] const ReplayData& data() const { return data_; }
    /// The complete file: header, records, end record with the frame count and a checksum of all bytes.
    [[nodiscard]] std::vector<std::uint8_t> bytes() const;

private:
    explicit ReplayWriter(ReplayHeader header);
    void flush_repeats(std::vector<std::uint8_t>& out) const;
    std::vector<std::uint8_t> body_;  // the records so far, without a pending run of repeated frames
    std::uint32_t pending_repeats_ = 0;
    std::vector<InputBits> last_;  // each slot's previous input
    ReplayData data_;
};

/// invalid_argument when a header cannot be written: an empty or over-long game id, 0 or more than 8
/// players, a name over 64 bytes, a byte outside printable ASCII, a checksum interval outside 1..65535.
[[nodiscard]] Status validate_header(const ReplayHeader& header);

/// Parses untrusted replay bytes. Errors: malformed (not a replay, truncated, a bad record, a checksum of the
/// file that does not match, bytes after the end), rejected (a format version this build does not read: see
/// replay_format_version()). Memory use is bounded by the size of `bytes`.
[[nodiscard]] Result<ReplayData> parse_replay(std::span<const std::uint8_t> bytes);

/// The format version in a replay's fixed header, or 0 when `bytes` do not start like a replay.
[[nodiscard]] std::uint16_t replay_format_version(std::span<const std::uint8_t> bytes);

/// invalid_argument unless the replay is of `game_id` at `game_version` with at most `max_players` slots.
[[nodiscard]] Status check_replay_game(const ReplayHeader& header, std::string_view game_id,
                                       std::uint32_t game_version, int max_players);

}  // namespace rwd::rollback
