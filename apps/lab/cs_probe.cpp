// The adversarial probe client: hand-made protocol messages, including ones no honest encoder can produce.
#include "cs_probe.hpp"

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>
#include <rewind/wire/message.hpp>

#include <cmath>

namespace lab {
namespace cs = rwd::client_server;
using rwd::Micros;

namespace {

/// An input packet written bit by bit, so fields can hold values the real encoder refuses. Same layout as
/// cs::InputPacket<arena::Input> (see docs/PROTOCOL.md): type, sequence, tick, count, inputs, ack, ping.
struct RawInputPacket {
    std::uint32_t sequence = 0;
    std::uint32_t tick = 0;
    std::uint32_t count = 1;         ///< 3 bits on the wire; the protocol allows 0..4
    std::uint32_t move_x_raw = 127;  ///< 8-bit offset from -127; 255 encodes an axis of +128 (out of range)
    std::uint32_t move_y_raw = 127;
};

template <class Stream>
bool serialize(Stream& s, RawInputPacket& p) {
    using rwd::wire::serialize_bits;
    std::uint32_t type = static_cast<std::uint32_t>(cs::MessageType::input);
    std::uint32_t zero = 0;
    bool ok = serialize_bits(s, type, cs::kMessageTypeBits) && serialize_bits(s, p.sequence, 16) &&
              serialize_bits(s, p.tick, 32) && serialize_bits(s, p.count, 3);
    for (std::uint32_t i = 0; ok && i < (p.count < 4 ? p.count : 4); ++i) {
        std::uint32_t aim = 0;
        ok = serialize_bits(s, p.move_x_raw, 8) && serialize_bits(s, p.move_y_raw, 8) &&
             serialize_bits(s, zero, 4) && serialize_bits(s, aim, 16) && serialize_bits(s, zero, 6) &&
             serialize_bits(s, zero, 16);
    }
    std::uint32_t ping = 1;
    return ok && serialize_bits(s, zero, 1) && serialize_bits(s, ping, 32);
}

}  // namespace

Probe::Probe(rwd::transport::Transport& transport, const rwd::transport::Address& server, int tick_rate_hz,
             double lead_ticks, ProbeSchedule schedule, std::vector<std::uint8_t> token)
    : transport_(transport),
      server_(server),
      token_(std::move(token)),
      tick_us_(1e6 / tick_rate_hz),
      lead_ticks_(lead_ticks),
      schedule_(schedule) {}

void Probe::connect(Micros start) {
    start_ = start;
    transport_.update(start);
    auto peer = transport_.connect(server_);
    if (peer.ok()) peer_ = peer.value();
}

void Probe::on_message(const std::vector<std::uint8_t>& data, Micros now) {
    const auto type = cs::peek_message_type(data);
    if (!type.ok()) return;
    if (type.value() == cs::MessageType::connect_accept) {
        cs::ConnectAccept acc;
        if (cs::decode_message(data, acc).ok()) slot_ = acc.slot;
    } else if (type.value() == cs::MessageType::snapshot) {
        // Only the header: the probe keeps no baselines and needs nothing but the server's tick.
        cs::SnapshotHeader snap;
        cs::Framed<cs::SnapshotHeader> f{&snap};
        rwd::wire::ReadStream s(data);
        if (serialize(s, f) && (!has_snapshot_ || snap.server_tick > snapshot_tick_)) {
            has_snapshot_ = true;
            snapshot_tick_ = snap.server_tick;
            snapshot_at_ = now;
        }
    } else if (type.value() == cs::MessageType::disconnect) {
        dropped_ = true;
    }
}

void Probe::send_inputs(rwd::Tick newest, const arena::Input& in, Micros now) {
    cs::InputPacket<arena::Input> pkt;
    pkt.sequence = sequence_++;
    pkt.newest_tick = newest;
    pkt.count = cs::kInputsPerPacket;
    pkt.inputs.fill(in);
    pkt.ping_time = static_cast<std::uint32_t>(now.count);
    if (cs::encode_message(pkt, buffer_).ok())
        (void)transport_.send(peer_, rwd::transport::Delivery::unreliable, buffer_);
}

void Probe::send_bad(rwd::Tick newest) {
    RawInputPacket raw;
    raw.sequence = sequence_++;
    raw.tick = newest.value;
    if (bad_sent_ % 2 == 0) {
        raw.move_x_raw = 255;  // an axis beyond [-127, 127]
        raw.move_y_raw = 255;
    } else {
        raw.count = 7;  // more inputs than a packet may carry
    }
    buffer_.assign(64, 0);
    auto n = rwd::wire::write_message(std::span<std::uint8_t>(buffer_), raw);
    if (!n.ok()) return;
    buffer_.resize(n.value());
    // Reliable, so that every bad packet reaches the server and the count it keeps can be checked exactly.
    if (transport_.send(peer_, rwd::transport::Delivery::reliable_ordered, buffer_).ok()) ++bad_sent_;
}

void Probe::update(Micros now) {
    transport_.update(now);
    rwd::transport::TransportEvent ev;
    while (transport_.poll(ev)) {
        if (ev.peer != peer_) continue;
        if (ev.type == rwd::transport::TransportEvent::Type::connected) {
            cs::ConnectRequest hello;
            hello.token = token_;
            if (cs::encode_message(hello, buffer_).ok())
                (void)transport_.send(peer_, rwd::transport::Delivery::reliable_ordered, buffer_);
        } else if (ev.type == rwd::transport::TransportEvent::Type::disconnected) {
            dropped_ = true;
        } else {
            on_message(ev.data, now);
        }
    }
    if (slot_ < 0 || !has_snapshot_ || dropped_) return;
    // The tick the server is about to need, plus the lead that makes inputs arrive on time.
    const double since = static_cast<double>((now - snapshot_at_).count) / tick_us_;
    const rwd::Tick newest = snapshot_tick_ + static_cast<std::int32_t>(std::floor(since + lead_ticks_));
    if (has_sent_ && newest <= last_sent_) return;
    const Micros t = now - start_;
    arena::Input in;
    if (t >= schedule_.run_from) in.move_x = arena::kAxisMax;
    if (t >= schedule_.bad_from && bad_sent_ < static_cast<std::uint64_t>(schedule_.bad_packets)) {
        send_bad(newest);
    } else if (t >= schedule_.flood_from && t < schedule_.flood_until) {
        // Four packets per tick, each claiming four further ticks: sixteen inputs for every tick that passes.
        for (int k = 0; k < 4; ++k) {
            send_inputs(newest + 4 * k, in, now);
            ++flood_sent_;
        }
    } else if (t >= schedule_.stale_from && t < schedule_.stale_until) {
        in.move_x = 0;
        in.buttons = arena::kFire;
        in.view_delay = arena::kMaxViewDelay;  // "I saw this 63 ticks ago": beyond any sane rewind cap
        ++stale_fires_;
        send_inputs(newest, in, now);
    } else {
        send_inputs(newest, in, now);
    }
    has_sent_ = true;
    last_sent_ = newest;
}

}  // namespace lab
