/// The world recording layout: the writer's tick and message records and the parser of untrusted bytes.
#include <rewind/core/checksum.hpp>
#include <rewind/session/client_server/world_recording.hpp>

#include <rewind/core/detail/byte_cursor.hpp>
#include <rewind/core/detail/recording_format.hpp>

#include <algorithm>
#include <array>
#include <limits>

namespace rwd::client_server {

namespace {

constexpr rwd::detail::FileMagic kMagic{'R', 'W', 'W', 'R'};
constexpr std::uint8_t kTagTick = 0x10;     // u32 tick, u8 keyframe, u16 count, entries, u64 world checksum
constexpr std::uint8_t kTagMessage = 0x11;  // u32 tick, u8 type, scope, a, b, reliable, u16 size, payload
constexpr std::uint8_t kTagEnd = 0xFF;      // u32 ticks, u32 messages, u64 XXH3 of every byte before it
constexpr std::uint8_t kOpRemove = 0;
constexpr std::uint8_t kOpSet = 1;
constexpr std::size_t kMaxGameIdBytes = 64;
constexpr std::size_t kMaxEntriesPerTick = 65535;

Error malformed(std::string_view why) { return Error{Errc::malformed, why}; }

void put_entity(rwd::detail::ByteWriter& w, std::uint32_t id, std::span<const std::uint8_t> bytes) {
    w.uint(id, 4);
    w.uint(kOpSet, 1);
    w.uint(bytes.size(), 1);
    w.raw(bytes);
}

}  // namespace

std::uint64_t world_checksum(std::span<const WorldEntityBytes> world) {
    Hasher h;
    for (const WorldEntityBytes& e : world) {
        std::array<std::uint8_t, 5> head{};
        for (int i = 0; i < 4; ++i)
            head[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(e.id >> (8 * i));
        head[4] = static_cast<std::uint8_t>(e.bytes.size());
        h.add(std::as_bytes(std::span<const std::uint8_t>(head)));
        h.add(std::as_bytes(e.bytes));
    }
    return h.digest();
}

Status validate_header(const WorldRecordingHeader& h) {
    if (h.game_id.empty() || h.game_id.size() > kMaxGameIdBytes || !rwd::detail::printable(h.game_id))
        return Error{Errc::invalid_argument, "recording game id must be 1..64 printable ASCII bytes"};
    if (h.tick_rate < 1 || h.tick_rate > 1000)
        return Error{Errc::invalid_argument, "recording tick rate must be 1..1000"};
    return {};
}

Result<WorldWriter> WorldWriter::create(WorldRecordingHeader header, int keyframe_ticks) {
    if (Status s = validate_header(header); !s.ok()) return s.error();
    if (keyframe_ticks < 1) return Error{Errc::invalid_argument, "keyframe_ticks must be >= 1"};
    return WorldWriter(std::move(header), keyframe_ticks);
}

WorldWriter::WorldWriter(WorldRecordingHeader header, int keyframe_ticks)
    : header_(std::move(header)), keyframe_ticks_(keyframe_ticks) {}

Status WorldWriter::add_tick(Tick tick, std::span<const WorldEntityBytes> world) {
    if (any_tick_ && tick.value <= last_.value)
        return Error{Errc::invalid_argument, "recorded ticks must increase"};
    if (world.size() > kMaxEntriesPerTick) return Error{Errc::out_of_space, "too many entities in one tick"};
    for (std::size_t i = 0; i < world.size(); ++i) {
        if (world[i].bytes.size() > kMaxRecordedEntityBytes)
            return Error{Errc::invalid_argument, "a recorded entity is over 255 bytes"};
        if (i > 0 && world[i].id <= world[i - 1].id)
            return Error{Errc::invalid_argument, "a recorded world must list ids strictly ascending"};
    }
    bool keyframe = ticks_ % static_cast<std::size_t>(keyframe_ticks_) == 0;
    std::vector<std::uint8_t> entries;
    rwd::detail::ByteWriter w(entries);
    std::size_t count = 0;
    if (keyframe) {
        for (const WorldEntityBytes& e : world) put_entity(w, e.id, e.bytes);
        count = world.size();
    } else {  // a merge of the previous world and this one, both by ascending id
        std::size_t a = 0, b = 0;
        while (a < world_.size() || b < world.size()) {
            if (b == world.size() || (a < world_.size() && world_[a].first < world[b].id)) {
                w.uint(world_[a++].first, 4);
                w.uint(kOpRemove, 1);
                ++count;
            } else if (a == world_.size() || world[b].id < world_[a].first) {
                put_entity(w, world[b].id, world[b].bytes);
                ++b;
                ++count;
            } else {
                const auto& old = world_[a].second;
                if (!std::equal(old.begin(), old.end(), world[b].bytes.begin(), world[b].bytes.end())) {
                    put_entity(w, world[b].id, world[b].bytes);
                    ++count;
                }
                ++a;
                ++b;
            }
        }
        if (count > kMaxEntriesPerTick) {  // more changes than a delta holds: the whole world instead
            entries.clear();
            for (const WorldEntityBytes& e : world) put_entity(w, e.id, e.bytes);
            count = world.size();
            keyframe = true;
        }
    }
    rwd::detail::ByteWriter out(body_);
    out.uint(kTagTick, 1);
    out.uint(tick.value, 4);
    out.uint(keyframe ? 1u : 0u, 1);
    out.uint(count, 2);
    out.raw(entries);
    out.uint(world_checksum(world), 8);
    world_.resize(world.size());
    for (std::size_t i = 0; i < world.size(); ++i) {
        world_[i].first = world[i].id;
        world_[i].second.assign(world[i].bytes.begin(), world[i].bytes.end());
    }
    any_tick_ = true;
    last_ = tick;
    ++ticks_;
    return {};
}

Status WorldWriter::add_message(Tick tick, const OutMessage& m) {
    if (m.payload.size() > kMaxMessageBytes) return Error{Errc::invalid_argument, "message payload too long"};
    if (messages_ == std::numeric_limits<std::uint32_t>::max())
        return Error{Errc::out_of_space, "too many recorded messages"};
    rwd::detail::ByteWriter w(body_);
    w.uint(kTagMessage, 1);
    w.uint(tick.value, 4);
    w.uint(m.type, 1);
    w.uint(static_cast<std::uint8_t>(m.scope), 1);
    w.uint(m.a, 1);
    w.uint(m.b, 1);
    w.uint(m.reliable ? 1u : 0u, 1);
    w.uint(m.payload.size(), 2);
    w.raw(m.payload);
    ++messages_;
    return {};
}

std::vector<std::uint8_t> WorldWriter::bytes() const {
    std::vector<std::uint8_t> out;
    out.reserve(32 + body_.size());
    rwd::detail::ByteWriter w(out);
    rwd::detail::put_file_start(w, kMagic, kWorldRecordingVersion);
    w.uint(static_cast<std::uint64_t>(header_.tick_rate), 2);
    w.uint(header_.game_version, 4);
    w.uint(header_.game_id.size(), 1);
    for (const char c : header_.game_id) w.uint(static_cast<std::uint8_t>(c), 1);
    w.raw(body_);
    w.uint(kTagEnd, 1);
    w.uint(ticks_, 4);
    w.uint(messages_, 4);
    w.uint(rwd::detail::file_checksum(out), 8);
    return out;
}

std::uint16_t world_recording_version(std::span<const std::uint8_t> bytes) {
    return rwd::detail::file_version(bytes, kMagic);
}

bool is_world_recording(std::span<const std::uint8_t> bytes) {
    return bytes.size() >= kMagic.size() && std::equal(kMagic.begin(), kMagic.end(), bytes.begin());
}

Result<WorldRecordingData> parse_world_recording(std::span<const std::uint8_t> bytes) {
    rwd::detail::ByteReader r(bytes);
    if (Status v =
            rwd::detail::read_file_start(r, kMagic, kWorldRecordingVersion,
                                         "not a rewind world recording (the file does not start with RWWR)",
                                         "recording truncated in its header");
        !v.ok())
        return v.error();
    std::uint64_t rate = 0, game_version = 0, id_len = 0;
    std::span<const std::uint8_t> id;
    if (!r.uint(rate, 2) || !r.uint(game_version, 4) || !r.uint(id_len, 1) || !r.raw(id, id_len))
        return malformed("recording truncated in its header");
    WorldRecordingData d;
    d.header_.tick_rate = static_cast<int>(rate);
    d.header_.game_version = static_cast<std::uint32_t>(game_version);
    d.header_.game_id.assign(id.begin(), id.end());
    if (!validate_header(d.header_).ok()) return malformed("bad recording header (game id or tick rate)");
    std::uint64_t messages = 0;
    for (;;) {
        std::uint64_t tag = 0;
        if (!r.uint(tag, 1)) return malformed("recording truncated: no end record");
        if (tag == kTagTick) {
            std::uint64_t tick = 0, key = 0, count = 0, cs = 0;
            if (!r.uint(tick, 4) || !r.uint(key, 1) || !r.uint(count, 2))
                return malformed("recording truncated in a tick record");
            if (key > 1) return malformed("bad keyframe flag in a tick record");
            if (d.ticks_.empty() && key == 0) return malformed("the first recorded tick must be a keyframe");
            if (!d.ticks_.empty() && tick <= d.ticks_.back().tick.value)
                return malformed("recorded ticks must increase");
            WorldRecordingData::TickRecord t;
            t.tick = Tick{static_cast<std::uint32_t>(tick)};
            t.keyframe = key == 1;
            t.first = static_cast<std::uint32_t>(d.entries_.size());
            t.count = static_cast<std::uint32_t>(count);
            for (std::uint64_t i = 0; i < count; ++i) {
                std::uint64_t eid = 0, op = 0, size = 0;
                std::span<const std::uint8_t> body;
                if (!r.uint(eid, 4) || !r.uint(op, 1)) return malformed("recording truncated in an entity");
                if (op != kOpSet && op != kOpRemove)
                    return malformed("bad entity operation in a tick record");
                if (op == kOpRemove && t.keyframe) return malformed("a keyframe removes an entity");
                if (i > 0 && eid <= d.entries_.back().id)
                    return malformed("entities of a tick record must be in ascending id order");
                WorldRecordingData::Entry e;
                e.id = static_cast<std::uint32_t>(eid);
                e.removed = op == kOpRemove;
                if (op == kOpSet) {
                    if (!r.uint(size, 1) || !r.raw(body, size))
                        return malformed("recording truncated in an entity");
                    if (d.bytes_.size() + size > std::numeric_limits<std::uint32_t>::max())
                        return malformed("recording too large (over 4 GiB of entities)");
                    e.offset = static_cast<std::uint32_t>(d.bytes_.size());
                    e.size = static_cast<std::uint8_t>(size);
                    d.bytes_.insert(d.bytes_.end(), body.begin(), body.end());
                }
                d.entries_.push_back(e);
            }
            if (!r.uint(cs, 8)) return malformed("recording truncated in a tick record");
            t.checksum = cs;
            d.ticks_.push_back(t);
        } else if (tag == kTagMessage) {
            std::uint64_t tick = 0, type = 0, scope = 0, a = 0, b = 0, reliable = 0, size = 0;
            std::span<const std::uint8_t> payload;
            if (!r.uint(tick, 4) || !r.uint(type, 1) || !r.uint(scope, 1) || !r.uint(a, 1) || !r.uint(b, 1) ||
                !r.uint(reliable, 1) || !r.uint(size, 2))
                return malformed("recording truncated in a message record");
            if (scope > static_cast<std::uint64_t>(MessageScope::one) || reliable > 1)
                return malformed("bad scope or delivery in a message record");
            if (size > kMaxMessageBytes) return malformed("recorded message over the largest message size");
            if (!r.raw(payload, size)) return malformed("recording truncated in a message record");
            RecordedMessage m;
            m.tick = Tick{static_cast<std::uint32_t>(tick)};
            m.message.type = static_cast<MessageId>(type);
            m.message.scope = static_cast<MessageScope>(scope);
            m.message.a = static_cast<std::uint8_t>(a);
            m.message.b = static_cast<std::uint8_t>(b);
            m.message.reliable = reliable == 1;
            m.message.payload.assign(payload.begin(), payload.end());
            d.messages_.push_back(std::move(m));
            ++messages;
        } else if (tag == kTagEnd) {
            std::uint64_t ticks = 0, msgs = 0, file_checksum = 0;
            if (!r.uint(ticks, 4) || !r.uint(msgs, 4))
                return malformed("recording truncated in its end record");
            const std::size_t covered = r.position();
            if (!r.uint(file_checksum, 8)) return malformed("recording truncated in its end record");
            if (ticks != d.ticks_.size() || msgs != messages)
                return malformed("recording end record disagrees with the records");
            if (!rwd::detail::file_checksum_ok(bytes, covered, file_checksum))
                return malformed("recording file checksum does not match: the file is damaged");
            if (r.remaining() != 0) return malformed("bytes after the recording's end record");
            std::stable_sort(d.messages_.begin(), d.messages_.end(),
                             [](const RecordedMessage& x, const RecordedMessage& y) {
                                 return x.tick.value < y.tick.value;  // a total order, whatever the ticks
                             });
            return d;
        } else {
            return malformed("unknown recording record");
        }
    }
}

}  // namespace rwd::client_server
