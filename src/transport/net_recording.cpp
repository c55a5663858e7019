/// Network recordings: the recording transport's records, the file layout and its parser, and playback.
#include <rewind/transport/address_text.hpp>
#include <rewind/transport/net_recording.hpp>

#include <rewind/core/detail/byte_cursor.hpp>
#include <rewind/core/detail/recording_format.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <limits>

namespace rwd::transport {

namespace {

constexpr rwd::detail::FileMagic kMagic{'R', 'W', 'N', 'R'};
constexpr std::uint8_t kTagEnd = 0xFF;
constexpr std::size_t kMaxAppBytes = 64;
constexpr std::size_t kMaxConfigBytes = 4096;
constexpr std::size_t kMaxDataBytes = 1u << 20;  // one datagram, event or input
constexpr std::size_t kMaxResultBytes = 16u << 20;

Error malformed(std::string_view why) { return Error{Errc::malformed, why}; }

void put_bytes(rwd::detail::ByteWriter& w, std::span<const std::uint8_t> b, int width) {
    w.uint(b.size(), width);
    w.raw(b);
}

bool get_bytes(rwd::detail::ByteReader& r, std::vector<std::uint8_t>& out, int width, std::size_t max) {
    std::uint64_t n = 0;
    std::span<const std::uint8_t> b;
    if (!r.uint(n, width) || n > max || !r.raw(b, n)) return false;
    out.assign(b.begin(), b.end());
    return true;
}

/// Latest time a recording may hold (about 35 years): sessions do arithmetic on times, which must not
/// overflow.
constexpr std::uint64_t kMaxTime = std::uint64_t{1} << 50;

bool get_time(rwd::detail::ByteReader& r, Micros& out) {
    std::uint64_t v = 0;
    if (!r.uint(v, 8)) return false;
    out = Micros{static_cast<std::int64_t>(v)};
    return true;
}

}  // namespace

RecordingTransport::RecordingTransport(Transport& inner, NetRecordingHeader header)
    : inner_(inner), header_(std::move(header)) {
    header_.max_message_size = inner.max_message_size();
    header_.header_bytes = inner.header_bytes();
}

Result<PeerId> RecordingTransport::connect(const Address& to) {
    auto r = inner_.connect(to);
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(NetRecord::Kind::connect_result), 1);
    w.uint(r.ok() ? r.value() : kInvalidPeer, 4);
    ++records_;
    return r;
}

Status RecordingTransport::send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) {
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(NetRecord::Kind::send), 1);
    w.uint(peer, 4);
    w.uint(static_cast<std::uint8_t>(delivery), 1);
    put_bytes(w, data, 4);
    ++records_;
    return inner_.send(peer, delivery, data);
}

PeerStats RecordingTransport::stats(PeerId peer) const {
    const PeerStats ps = inner_.stats(peer);
    auto it = reported_.find(peer);
    if (it != reported_.end() && it->second.rtt == ps.rtt && it->second.jitter == ps.jitter &&
        it->second.loss == ps.loss)
        return ps;
    reported_[peer] = ps;
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(NetRecord::Kind::stats_change), 1);
    w.uint(peer, 4);
    w.uint(static_cast<std::uint64_t>(ps.rtt.count), 8);
    w.uint(static_cast<std::uint64_t>(ps.jitter.count), 8);
    w.uint(std::bit_cast<std::uint64_t>(ps.loss), 8);
    ++records_;
    return ps;
}

bool RecordingTransport::poll(TransportEvent& out) {
    if (!inner_.poll(out)) return false;
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(NetRecord::Kind::event), 1);
    w.uint(static_cast<std::uint8_t>(out.type), 1);
    w.uint(out.peer, 4);
    w.uint(static_cast<std::uint8_t>(out.delivery), 1);
    w.uint(static_cast<std::uint8_t>(out.reason), 1);
    put_bytes(w, out.data, 4);
    ++records_;
    return true;
}

void RecordingTransport::note_time(NetRecord::Kind kind, Micros now) {
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(kind), 1);
    w.uint(static_cast<std::uint64_t>(now.count), 8);
    ++records_;
}

void RecordingTransport::note_input(std::span<const std::uint8_t> input) {
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(NetRecord::Kind::app_input), 1);
    put_bytes(w, input.first(std::min(input.size(), kMaxDataBytes)), 4);
    ++records_;
}

void RecordingTransport::note_connect(const Address& to, Micros now) {
    const std::string text = address_text(to);
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(NetRecord::Kind::app_connect), 1);
    w.uint(static_cast<std::uint64_t>(now.count), 8);
    put_bytes(w,
              std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()),
                                            std::min<std::size_t>(text.size(), 255)),
              1);
    ++records_;
}

void RecordingTransport::note_kick(int slot, std::uint8_t code, Micros now) {
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(NetRecord::Kind::app_kick), 1);
    w.uint(static_cast<std::uint64_t>(now.count), 8);
    const std::array<std::uint8_t, 2> b{static_cast<std::uint8_t>(slot), code};
    put_bytes(w, b, 1);
    ++records_;
}

void RecordingTransport::note_result(std::span<const std::uint8_t> result) {
    rwd::detail::ByteWriter w(body_);
    w.uint(static_cast<std::uint8_t>(NetRecord::Kind::result), 1);
    put_bytes(w, result.first(std::min(result.size(), kMaxResultBytes)), 4);
    ++records_;
}

std::vector<std::uint8_t> RecordingTransport::bytes() const {
    std::vector<std::uint8_t> out;
    out.reserve(body_.size() + 64 + header_.config.size());
    rwd::detail::ByteWriter w(out);
    rwd::detail::put_file_start(w, kMagic, kNetRecordingVersion);
    w.uint(std::min<std::uint64_t>(header_.max_message_size, 0xFFFFFFFFu), 4);
    w.uint(std::min<std::uint64_t>(header_.header_bytes, 0xFFFFu), 2);
    const std::string app = header_.app.substr(0, kMaxAppBytes);
    const std::string config = header_.config.substr(0, kMaxConfigBytes);
    put_bytes(w, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(app.data()), app.size()),
              1);
    put_bytes(
        w, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(config.data()), config.size()),
        2);
    w.raw(body_);
    w.uint(kTagEnd, 1);
    w.uint(records_, 4);
    w.uint(rwd::detail::file_checksum(out), 8);
    return out;
}

Result<NetRecordingData> parse_net_recording(std::span<const std::uint8_t> bytes) {
    rwd::detail::ByteReader r(bytes);
    if (Status v =
            rwd::detail::read_file_start(r, kMagic, kNetRecordingVersion,
                                         "not a rewind network recording (the file does not start with RWNR)",
                                         "network recording truncated in its header");
        !v.ok())
        return v.error();
    std::uint64_t max_message = 0, header_bytes = 0;
    NetRecordingData d;
    std::vector<std::uint8_t> app, config;
    if (!r.uint(max_message, 4) || !r.uint(header_bytes, 2) || !get_bytes(r, app, 1, kMaxAppBytes) ||
        !get_bytes(r, config, 2, kMaxConfigBytes))
        return malformed("network recording truncated in its header");
    d.header.app.assign(app.begin(), app.end());
    d.header.config.assign(config.begin(), config.end());
    d.header.max_message_size = max_message;
    d.header.header_bytes = header_bytes;
    if (d.header.app.empty() || !rwd::detail::printable(d.header.app))
        return malformed("bad network recording app name");
    Micros last_time{0};
    for (;;) {
        std::uint64_t tag = 0;
        if (!r.uint(tag, 1)) return malformed("network recording truncated: no end record");
        if (tag == kTagEnd) {
            std::uint64_t count = 0, file_checksum = 0;
            if (!r.uint(count, 4)) return malformed("network recording truncated in its end record");
            const std::size_t covered = r.position();
            if (!r.uint(file_checksum, 8)) return malformed("network recording truncated in its end record");
            if (count != d.records.size()) return malformed("network recording end record disagrees");
            if (!rwd::detail::file_checksum_ok(bytes, covered, file_checksum))
                return malformed("network recording file checksum does not match: the file is damaged");
            if (r.remaining() != 0) return malformed("bytes after the network recording's end record");
            return d;
        }
        NetRecord rec;
        rec.kind = static_cast<NetRecord::Kind>(tag);
        bool ok = true;
        switch (rec.kind) {
            case NetRecord::Kind::app_update:
            case NetRecord::Kind::app_render:
            case NetRecord::Kind::app_disconnect:
                ok = get_time(r, rec.now);
                break;
            case NetRecord::Kind::app_input:
                ok = get_bytes(r, rec.bytes, 4, kMaxDataBytes);
                break;
            case NetRecord::Kind::app_connect:
                ok = get_time(r, rec.now) && get_bytes(r, rec.bytes, 1, 255);
                break;
            case NetRecord::Kind::app_kick:
                ok = get_time(r, rec.now) && get_bytes(r, rec.bytes, 1, 2);
                break;
            case NetRecord::Kind::event: {
                std::uint64_t type = 0, peer = 0, delivery = 0, reason = 0;
                ok = r.uint(type, 1) && r.uint(peer, 4) && r.uint(delivery, 1) && r.uint(reason, 1) &&
                     get_bytes(r, rec.event.data, 4, kMaxDataBytes);
                if (ok && (type > 2 || delivery > 1 ||
                           reason > static_cast<std::uint64_t>(DisconnectReason::kicked)))
                    return malformed("bad event in a network recording");
                rec.event.type = static_cast<TransportEvent::Type>(type);
                rec.event.peer = static_cast<PeerId>(peer);
                rec.event.delivery = static_cast<Delivery>(delivery);
                rec.event.reason = static_cast<DisconnectReason>(reason);
                break;
            }
            case NetRecord::Kind::connect_result: {
                std::uint64_t peer = 0;
                ok = r.uint(peer, 4);
                rec.peer = static_cast<PeerId>(peer);
                break;
            }
            case NetRecord::Kind::send: {
                std::uint64_t peer = 0, delivery = 0;
                ok = r.uint(peer, 4) && r.uint(delivery, 1) && get_bytes(r, rec.bytes, 4, kMaxDataBytes);
                if (ok && delivery > 1) return malformed("bad delivery in a network recording");
                rec.peer = static_cast<PeerId>(peer);
                rec.delivery = static_cast<Delivery>(delivery);
                break;
            }
            case NetRecord::Kind::stats_change: {
                std::uint64_t peer = 0, rtt = 0, jitter = 0, loss = 0;
                ok = r.uint(peer, 4) && r.uint(rtt, 8) && r.uint(jitter, 8) && r.uint(loss, 8);
                const double l = std::bit_cast<double>(loss);
                if (ok && (rtt >= kMaxTime || jitter >= kMaxTime || !(l >= 0.0 && l <= 1.0)))
                    return malformed("bad link statistics in a network recording");
                rec.peer = static_cast<PeerId>(peer);
                rec.stats.rtt = Micros{static_cast<std::int64_t>(rtt)};
                rec.stats.jitter = Micros{static_cast<std::int64_t>(jitter)};
                rec.stats.loss = l;
                break;
            }
            case NetRecord::Kind::result:
                ok = get_bytes(r, rec.bytes, 4, kMaxResultBytes);
                break;
            default:
                return malformed("unknown network recording record");
        }
        if (!ok) return malformed("network recording truncated in a record");
        if (rec.app() && rec.kind != NetRecord::Kind::app_input) {
            if (static_cast<std::uint64_t>(rec.now.count) >= kMaxTime)
                return malformed("a network recording time is out of range");
            if (rec.now < last_time) return malformed("network recording times go backwards");
            last_time = rec.now;
        }
        if (d.records.size() == std::numeric_limits<std::uint32_t>::max())
            return malformed("too many network recording records");
        d.records.push_back(std::move(rec));
    }
}

PlaybackTransport::PlaybackTransport(const NetRecordingData& data) : data_(data) {
    for (const NetRecord& r : data.records)
        if (r.kind == NetRecord::Kind::result) result_ = r.bytes;
}

const NetRecord* PlaybackTransport::at() const {
    return cursor_ < data_.records.size() ? &data_.records[cursor_] : nullptr;
}

const NetRecord* PlaybackTransport::next_app() {
    for (const NetRecord* r = at(); r != nullptr; r = at()) {
        ++cursor_;
        if (r->app()) return r;
        if (r->kind != NetRecord::Kind::result) ++divergence_.records_skipped;
    }
    return nullptr;
}

Result<PeerId> PlaybackTransport::connect(const Address&) {
    const NetRecord* r = at();
    if (r == nullptr || r->kind != NetRecord::Kind::connect_result) {
        ++divergence_.connects_missing;
        return Error{Errc::not_connected, "the recording has no connect here"};
    }
    ++cursor_;
    if (r->peer == kInvalidPeer) return Error{Errc::io_error, "the recorded connect failed"};
    return r->peer;
}

Status PlaybackTransport::send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) {
    const NetRecord* r = at();
    if (r == nullptr || r->kind != NetRecord::Kind::send) {
        ++divergence_.sends_extra;
        return {};
    }
    ++cursor_;
    ++divergence_.sends_compared;
    if (r->peer != peer || r->delivery != delivery ||
        !std::equal(r->bytes.begin(), r->bytes.end(), data.begin(), data.end()))
        ++divergence_.sends_differing;
    return {};
}

bool PlaybackTransport::poll(TransportEvent& out) {
    const NetRecord* r = at();
    if (r == nullptr || r->kind != NetRecord::Kind::event) return false;
    ++cursor_;
    out = r->event;
    return true;
}

PeerStats PlaybackTransport::stats(PeerId peer) const {
    const NetRecord* r = at();
    if (r != nullptr && r->kind == NetRecord::Kind::stats_change && r->peer == peer) {
        ++cursor_;
        reported_[peer] = r->stats;
    }
    const auto it = reported_.find(peer);
    return it == reported_.end() ? PeerStats{} : it->second;
}

std::size_t PlaybackTransport::max_message_size() const {
    return static_cast<std::size_t>(data_.header.max_message_size);
}

std::size_t PlaybackTransport::header_bytes() const {
    return static_cast<std::size_t>(data_.header.header_bytes);
}

}  // namespace rwd::transport
