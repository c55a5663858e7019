/// The replay file layout: header validation, the writer's records and the parser of untrusted bytes.
#include <rewind/core/checksum.hpp>
#include <rewind/session/rollback/replay.hpp>

#include <rewind/core/detail/byte_cursor.hpp>
#include <rewind/core/detail/recording_format.hpp>

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>

namespace rwd::rollback {

namespace {

constexpr rwd::detail::FileMagic kMagic{'R', 'W', 'R', 'P'};
constexpr std::uint8_t kTagFrame = 0x01;     // u8 changed-slot mask, then per set slot: u8 size, size bytes
constexpr std::uint8_t kTagRepeat = 0x02;    // u32 count: that many frames where no slot's input changed
constexpr std::uint8_t kTagChecksum = 0x03;  // u32 frame, u64 checksum of the state after it
constexpr std::uint8_t kTagEnd = 0xFF;       // u32 frames, u64 XXH3 of every byte before this checksum

void put_name(rwd::detail::ByteWriter& w, const std::string& s) {
    w.uint(s.size(), 1);
    w.raw(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
}

bool get_name(rwd::detail::ByteReader& r, std::string& out, std::size_t min_len) {
    std::uint64_t len = 0;
    std::span<const std::uint8_t> bytes;
    if (!r.uint(len, 1) || len < min_len || len > kMaxReplayNameBytes || !r.raw(bytes, len)) return false;
    out.assign(bytes.begin(), bytes.end());
    return rwd::detail::printable(out);
}

Error malformed(std::string_view why) { return Error{Errc::malformed, why}; }

}  // namespace

std::size_t ReplayData::changes_until(int slot, Frame f) const {
    const auto& list = changes(slot);
    const auto it =
        std::upper_bound(list.begin(), list.end(), f, [](Frame v, const Change& c) { return v < c.from; });
    return static_cast<std::size_t>(it - list.begin());
}

const InputBits& ReplayData::input(int slot, Frame f) const {
    static const InputBits kEmpty{};
    const std::size_t n = changes_until(slot, f);
    return n == 0 ? kEmpty : changes(slot)[n - 1].bits;
}

const std::vector<ReplayData::Change>& ReplayData::changes(int slot) const {
    static const std::vector<Change> kNone;
    if (slot < 0 || static_cast<std::size_t>(slot) >= changes_.size()) return kNone;
    return changes_[static_cast<std::size_t>(slot)];
}

Status validate_header(const ReplayHeader& h) {
    if (h.game_id.empty() || h.game_id.size() > kMaxReplayNameBytes || !rwd::detail::printable(h.game_id))
        return Error{Errc::invalid_argument, "replay game id must be 1..64 printable ASCII bytes"};
    if (h.players.empty() || h.players.size() > static_cast<std::size_t>(kMaxSessionPlayers))
        return Error{Errc::invalid_argument, "replay must have 1..8 players"};
    for (const std::string& p : h.players) {
        if (p.size() > kMaxReplayNameBytes || !rwd::detail::printable(p))
            return Error{Errc::invalid_argument, "replay player names must be 0..64 printable ASCII bytes"};
    }
    if (h.checksum_interval < 1 || h.checksum_interval > 65535)
        return Error{Errc::invalid_argument, "replay checksum interval must be 1..65535 frames"};
    if (h.model != ReplayModel::rollback && h.model != ReplayModel::lockstep)
        return Error{Errc::invalid_argument, "replay model must be rollback or lockstep"};
    return {};
}

Status check_replay_game(const ReplayHeader& h, std::string_view game_id, std::uint32_t game_version,
                         int max_players) {
    if (h.game_id != game_id) return Error{Errc::invalid_argument, "the replay is of another game"};
    if (h.game_version != game_version)
        return Error{Errc::invalid_argument,
                     "the replay was recorded with another version of the game's rules"};
    if (static_cast<int>(h.players.size()) > max_players)
        return Error{Errc::invalid_argument, "the replay has more players than the game seats"};
    return {};
}

Result<ReplayWriter> ReplayWriter::create(ReplayHeader header) {
    if (Status s = validate_header(header); !s.ok()) return s.error();
    return ReplayWriter(std::move(header));
}

ReplayWriter::ReplayWriter(ReplayHeader header) : last_(header.players.size()) {
    data_.changes_.resize(header.players.size());
    data_.header_ = std::move(header);
}

Status ReplayWriter::add_frame(std::span<const InputBits> inputs) {
    if (inputs.size() != last_.size())
        return Error{Errc::invalid_argument, "add_frame needs one input per replay slot"};
    if (data_.frames_ == kMaxReplayFrames)
        return Error{Errc::out_of_space, "replay frame count at its limit"};
    std::uint8_t mask = 0;
    for (std::size_t p = 0; p < inputs.size(); ++p) {
        if (inputs[p].size > kMaxInputBytes) return Error{Errc::invalid_argument, "input bits too long"};
        if (data_.frames_ == 0 || !(inputs[p] == last_[p])) mask |= static_cast<std::uint8_t>(1u << p);
    }
    const Frame f = data_.frames_++;
    if (mask == 0) {
        ++pending_repeats_;
        return {};
    }
    flush_repeats(body_);
    pending_repeats_ = 0;
    rwd::detail::ByteWriter w(body_);
    w.uint(kTagFrame, 1);
    w.uint(mask, 1);
    for (std::size_t p = 0; p < inputs.size(); ++p) {
        if ((mask & (1u << p)) == 0) continue;
        w.uint(inputs[p].size, 1);
        w.raw(std::span<const std::uint8_t>(inputs[p].bytes.data(), inputs[p].size));
        last_[p] = inputs[p];
        data_.changes_[p].push_back(ReplayData::Change{f, inputs[p]});
    }
    return {};
}

Status ReplayWriter::add_checksum(Frame frame, std::uint64_t checksum) {
    if (frame < 0 || frame >= data_.frames_)
        return Error{Errc::invalid_argument, "a replay checksum must be of a frame already added"};
    if (!data_.checksums_.empty() && frame <= data_.checksums_.back().frame)
        return Error{Errc::invalid_argument, "replay checksums must be added in frame order"};
    flush_repeats(body_);
    pending_repeats_ = 0;
    rwd::detail::ByteWriter w(body_);
    w.uint(kTagChecksum, 1);
    w.uint(static_cast<std::uint64_t>(frame), 4);
    w.uint(checksum, 8);
    data_.checksums_.push_back(ReplayChecksum{frame, checksum});
    return {};
}

void ReplayWriter::flush_repeats(std::vector<std::uint8_t>& out) const {
    if (pending_repeats_ == 0) return;
    rwd::detail::ByteWriter w(out);
    w.uint(kTagRepeat, 1);
    w.uint(pending_repeats_, 4);
}

std::vector<std::uint8_t> ReplayWriter::bytes() const {
    const ReplayHeader& h = data_.header_;
    std::vector<std::uint8_t> out;
    out.reserve(64 + body_.size());
    rwd::detail::ByteWriter w(out);
    rwd::detail::put_file_start(w, kMagic, kReplayFormatVersion);
    w.uint(static_cast<std::uint8_t>(h.model), 1);
    w.uint(h.players.size(), 1);
    w.uint(h.seed, 8);
    w.uint(h.game_version, 4);
    w.uint(static_cast<std::uint64_t>(h.checksum_interval), 2);
    put_name(w, h.game_id);
    for (const std::string& p : h.players) put_name(w, p);
    w.raw(body_);
    flush_repeats(out);
    w.uint(kTagEnd, 1);
    w.uint(static_cast<std::uint64_t>(data_.frames_), 4);
    w.uint(rwd::detail::file_checksum(out), 8);
    return out;
}

std::uint16_t replay_format_version(std::span<const std::uint8_t> bytes) {
    return rwd::detail::file_version(bytes, kMagic);
}

Result<ReplayData> parse_replay(std::span<const std::uint8_t> bytes) {
    rwd::detail::ByteReader r(bytes);
    if (Status v = rwd::detail::read_file_start(r, kMagic, kReplayFormatVersion,
                                                "not a rewind replay (the file does not start with RWRP)",
                                                "replay truncated in its header");
        !v.ok())
        return v.error();
    std::uint64_t model = 0, players = 0, seed = 0, game_version = 0, interval = 0;
    if (!r.uint(model, 1) || !r.uint(players, 1) || !r.uint(seed, 8) || !r.uint(game_version, 4) ||
        !r.uint(interval, 2))
        return malformed("replay truncated in its header");
    if (model > static_cast<std::uint64_t>(ReplayModel::lockstep)) return malformed("unknown replay model");
    if (players < 1 || players > static_cast<std::uint64_t>(kMaxSessionPlayers))
        return malformed("replay player count outside 1..8");
    if (interval < 1) return malformed("replay checksum interval is 0");
    ReplayData d;
    ReplayHeader& h = d.header_;
    h.model = static_cast<ReplayModel>(model);
    h.seed = seed;
    h.game_version = static_cast<std::uint32_t>(game_version);
    h.checksum_interval = static_cast<std::int32_t>(interval);
    if (!get_name(r, h.game_id, 1)) return malformed("bad replay game id");
    h.players.resize(players);
    for (std::string& p : h.players) {
        if (!get_name(r, p, 0)) return malformed("bad replay player name");
    }
    d.changes_.resize(players);
    const std::uint64_t all = (1u << players) - 1;
    for (;;) {
        std::uint64_t tag = 0;
        if (!r.uint(tag, 1)) return malformed("replay truncated: no end record");
        if (tag == kTagFrame) {
            std::uint64_t mask = 0;
            if (!r.uint(mask, 1)) return malformed("replay truncated in a frame record");
            if ((mask & ~all) != 0)
                return malformed("replay frame record names a slot the match does not have");
            if (d.frames_ == 0 && mask != all) return malformed("the first replay frame must set every slot");
            if (d.frames_ == kMaxReplayFrames) return malformed("replay has too many frames");
            for (std::size_t p = 0; p < players; ++p) {
                if ((mask & (1u << p)) == 0) continue;
                std::uint64_t size = 0;
                std::span<const std::uint8_t> in;
                if (!r.uint(size, 1) || size > kMaxInputBytes || !r.raw(in, size))
                    return malformed("bad input in a replay frame record");
                ReplayData::Change c{d.frames_, {}};
                c.bits.size = static_cast<std::uint8_t>(size);
                std::copy(in.begin(), in.end(), c.bits.bytes.begin());
                d.changes_[p].push_back(c);
            }
            ++d.frames_;
        } else if (tag == kTagRepeat) {
            std::uint64_t n = 0;
            if (!r.uint(n, 4) || n == 0) return malformed("bad replay repeat record");
            if (d.frames_ == 0) return malformed("the first replay frame must set every slot");
            if (n > static_cast<std::uint64_t>(kMaxReplayFrames - d.frames_))
                return malformed("replay has too many frames");
            d.frames_ += static_cast<Frame>(n);
        } else if (tag == kTagChecksum) {
            std::uint64_t f = 0, cs = 0;
            if (!r.uint(f, 4) || !r.uint(cs, 8)) return malformed("replay truncated in a checksum record");
            if (f >= static_cast<std::uint64_t>(d.frames_))
                return malformed("replay checksum of a frame not recorded yet");
            if (!d.checksums_.empty() && static_cast<Frame>(f) <= d.checksums_.back().frame)
                return malformed("replay checksums out of frame order");
            d.checksums_.push_back(ReplayChecksum{static_cast<Frame>(f), cs});
        } else if (tag == kTagEnd) {
            std::uint64_t frames = 0, file_checksum = 0;
            if (!r.uint(frames, 4)) return malformed("replay truncated in its end record");
            const std::size_t covered = r.position();
            if (!r.uint(file_checksum, 8)) return malformed("replay truncated in its end record");
            if (frames != static_cast<std::uint64_t>(d.frames_))
                return malformed("replay end record disagrees with the frames recorded");
            if (!rwd::detail::file_checksum_ok(bytes, covered, file_checksum))
                return malformed("replay file checksum does not match: the file is damaged");
            if (r.remaining() != 0) return malformed("bytes after the replay's end record");
            return d;
        } else {
            return malformed("unknown replay record");
        }
    }
}

}  // namespace rwd::rollback
