// SimEndpoint: peers, the Transport calls, timeouts, keepalives, packing and retransmission, measured peer
// stats.
#include "transport/sim_endpoint.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace rwd::transport::sim {

SimEndpoint::SimEndpoint(Wire& wire, const SimNetworkConfig& config, Address address, std::size_t max_peers,
                         bool accept_incoming, Micros now, bool stream)
    : wire_(wire),
      config_(config),
      address_(std::move(address)),
      inbox_of_(wire.inbox(address_)),
      max_peers_(max_peers),
      accept_incoming_(accept_incoming),
      stream_(stream),
      now_(now) {}

// ---- peers
// -------------------------------------------------------------------------------------------------------

Peer* SimEndpoint::find(PeerId id) {
    auto it = peers_.find(id);
    return it == peers_.end() ? nullptr : it->second.get();
}

const Peer* SimEndpoint::find(PeerId id) const {
    auto it = peers_.find(id);
    return it == peers_.end() ? nullptr : it->second.get();
}

Peer* SimEndpoint::find(const Address& a) {
    for (auto& [id, p] : peers_) {
        if (p->address == a) return p.get();
    }
    return nullptr;
}

Peer& SimEndpoint::add_peer(const Address& a, bool outgoing) {
    auto p = std::make_unique<Peer>();
    p->id = next_peer_id_++;
    p->address = a;
    p->outgoing = outgoing;
    p->created_at = p->last_heard = p->last_sent = p->last_connect_attempt = now_;
    p->rate_sent.window_start = p->rate_received.window_start = now_;
    Peer& ref = *p;
    peers_.emplace(ref.id, std::move(p));
    return ref;
}

void SimEndpoint::remove_peer(PeerId id, DisconnectReason reason, bool notify) {
    if (notify) {
        TransportEvent e;
        e.type = TransportEvent::Type::disconnected;
        e.peer = id;
        e.reason = reason;
        events_.push_back(std::move(e));
    }
    peers_.erase(id);
}

// ---- Transport
// -----------------------------------------------------------------------------------------------------

Result<PeerId> SimEndpoint::connect(const Address& to) {
    if (to == address_) return Error{Errc::invalid_argument, "cannot connect to itself"};
    if (find(to) != nullptr)
        return Error{Errc::already_exists, "already connected or connecting to that address"};
    if (peers_.size() >= max_peers_) return Errc::too_many_peers;
    Peer& p = add_peer(to, true);
    send_control(now_, to, PacketType::connect_request);
    return p.id;
}

void SimEndpoint::disconnect(PeerId peer, DisconnectReason reason) {
    Peer* p = find(peer);
    if (p == nullptr) return;
    for (int i = 0; i < 3; ++i) send_control(now_, p->address, PacketType::disconnect);  // survives some loss
    remove_peer(peer, reason, true);
}

Status SimEndpoint::send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) {
    Peer* p = find(peer);
    if (p == nullptr || !p->connected) return Errc::not_connected;
    if (data.size() > max_message_size())
        return Error{Errc::length_too_long, "message larger than max_message_size()"};
    if (delivery == Delivery::unreliable) {
        if (stream_ && hold_if_backed_up(*p, data)) return {};
        std::vector<std::uint8_t> b = wire_.buffer();
        b.assign(data.begin(), data.end());
        p->unreliable_out.push_back(std::move(b));
        return {};
    }
    if (p->reliable_out.size() >= config_.max_reliable_queue) {
        return Error{Errc::out_of_space, "reliable queue full"};
    }
    OutMessage m;
    m.id = p->next_message_id++;
    m.data.assign(data.begin(), data.end());
    p->reliable_out.push_back(std::move(m));
    p->quiet.valid = false;  // a new message: has_due() scans again
    return {};
}

bool SimEndpoint::poll(TransportEvent& out) {
    if (events_.empty()) return false;
    out = std::move(events_.front());
    events_.pop_front();
    return true;
}

PeerStats SimEndpoint::stats(PeerId peer) const {
    const Peer* p = find(peer);
    return p == nullptr ? PeerStats{} : p->stats;
}

std::size_t SimEndpoint::max_message_size() const { return config_.mtu - kHeaderBytes - kMaxMessageOverhead; }

void SimEndpoint::update(Micros now) {
    now_ = std::max(now, now_);
    wire_.collect(now_, inbox_of_, inbox_);
    for (auto& d : inbox_) {
        receive(now_, d.from, d.bytes);
        wire_.recycle(std::move(d.bytes));
    }
    inbox_.clear();
    check_timeouts(now_);
    for (auto& [id, p] : peers_) {
        if (!p->connected) {
            if (now_ - p->last_connect_attempt >= config_.connect_retry) {
                p->last_connect_attempt = now_;
                send_control(now_, p->address, PacketType::connect_request);
            }
            continue;
        }
        flush(now_, *p);
        evaluate_loss(now_, *p);
        p->rate_sent.tick(now_);
        p->rate_received.tick(now_);
        p->stats.rtt = Micros{std::llround(p->rtt.srtt_us)};
        p->stats.jitter = Micros{std::llround(p->rtt.rttvar_us)};
        p->stats.loss = p->loss.fraction();
        if (stream_) measure_stream_loss(*p);
        p->stats.kbps_sent = p->rate_sent.kbps;
        p->stats.kbps_received = p->rate_received.kbps;
    }
}

// ---- sending and housekeeping
// --------------------------------------------------------------------------------------

void SimEndpoint::check_timeouts(Micros now) {
    std::vector<PeerId> gone;
    for (const auto& [id, p] : peers_) {
        const bool dead = p->connected ? now - p->last_heard > config_.timeout
                                       : now - p->created_at > config_.connect_timeout;
        if (dead) gone.push_back(id);
    }
    for (PeerId id : gone) {
        // A stream's connection is gone with its peer: a new one does not queue behind the old one's data.
        if (Peer* p = find(id); stream_ && p != nullptr && p->link != nullptr) wire_.reset_stream(*p->link);
        remove_peer(id, DisconnectReason::timed_out, true);
    }
}

Micros SimEndpoint::rto(const Peer& p) const {
    if (!config_.adaptive_rto || !p.rtt.have) return config_.reliable_rto;
    const auto adaptive = Micros{std::llround(p.rtt.srtt_us + 4.0 * p.rtt.rttvar_us)};
    return std::max(config_.reliable_rto, adaptive);
}

Micros SimEndpoint::loss_horizon(const Peer& p) const {
    if (!p.rtt.have) return Micros{1'000'000};
    return Micros{std::llround(2.0 * p.rtt.srtt_us + 4.0 * p.rtt.rttvar_us)} + config_.keepalive_interval;
}

void SimEndpoint::evaluate_loss(Micros now, Peer& p, bool make_room) {
    // A packet counts as lost when no ack came within the horizon; with make_room, only the packet whose slot
    // the next send reuses is judged (early, whatever its age).
    const Micros horizon = loss_horizon(p);
    while (p.oldest_unevaluated != p.next_seq) {
        SentPacket& s = p.sent.at(p.oldest_unevaluated);
        const bool valid = s.used && s.seq == p.oldest_unevaluated;
        if (make_room) {
            if (seq_diff(p.next_seq, p.oldest_unevaluated) < static_cast<std::int32_t>(kSentBuffer)) break;
        } else if (valid && now - s.sent_at < horizon) {
            break;
        }
        if (valid && !s.evaluated) {
            s.evaluated = true;
            p.loss.add(!s.acked);
        }
        ++p.oldest_unevaluated;
    }
}

namespace {
// A reliable message goes out when it never has, or when its last copy has had `timeout` to be acked.
bool message_due(const OutMessage& m, Micros now, Micros timeout) {
    return !m.acked && (!m.sent || now - m.last_sent >= timeout);
}
}  // namespace

bool SimEndpoint::bare_packet_due(Micros now, const Peer& p) const {
    return p.ack_pending || now - p.last_sent >= config_.keepalive_interval;
}

bool SimEndpoint::has_due(Micros now, Peer& p, Micros timeout) const {
    if (!p.unreliable_out.empty() || bare_packet_due(now, p)) return true;
    if (p.reliable_out.empty()) return false;
    Peer::QuietWindow& q = p.quiet;
    if (q.valid && now - q.oldest_sent < timeout)
        return false;  // the same queue as the last quiet scan, and its oldest send not yet timed out
    const std::size_t window = std::min(p.reliable_out.size(), kReliableWindow);
    q = Peer::QuietWindow{true, p.reliable_out.front().last_sent};
    for (std::size_t i = 0; i < window; ++i) {
        const OutMessage& m = p.reliable_out[i];
        if (message_due(m, now, timeout)) {
            q.valid = false;
            return true;
        }
        if (!m.acked && m.last_sent < q.oldest_sent) q.oldest_sent = m.last_sent;
    }
    return false;
}

void SimEndpoint::flush(Micros now, Peer& p) {
    if (stream_) release_held(p);
    const Micros timeout = rto(p);
    if (!has_due(now, p, timeout)) return;  // nothing to send: most updates of a quiet peer
    std::vector<std::uint8_t> packet;
    auto start_packet = [&] {
        packet = wire_.buffer();
        packet.resize(kHeaderBytes);
    };
    start_packet();
    std::vector<std::uint16_t> ids;
    bool emitted = false;
    std::size_t frames = 0, frame_bytes = 0;  // stream endpoints: the WebSocket frames of the packet
    auto make_room = [&](std::size_t bytes, std::size_t message_bytes) {
        if (packet.size() + bytes > config_.mtu) {
            emit(now, p, packet, std::move(ids), frames, frame_bytes);
            start_packet();
            ids = {};
            frames = frame_bytes = 0;
            emitted = true;
        }
        ++frames;
        frame_bytes += frame_size(message_bytes, masks_to(p));
    };
    const std::size_t window = std::min(p.reliable_out.size(), kReliableWindow);
    for (std::size_t i = 0; i < window; ++i) {
        OutMessage& m = p.reliable_out[i];
        if (!message_due(m, now, timeout)) continue;
        make_room(message_size(true, m.data.size()), m.data.size());
        append_message(packet, true, m.id, m.data);
        ids.push_back(m.id);
        m.sent = true;
        m.last_sent = now;
    }
    while (!p.unreliable_out.empty()) {
        const std::vector<std::uint8_t>& m = p.unreliable_out.front();
        make_room(message_size(false, m.size()), m.size());
        append_message(packet, false, 0, m);
        wire_.recycle(std::move(p.unreliable_out.front()));
        p.unreliable_out.pop_front();
    }
    if (packet.size() > kHeaderBytes || (!emitted && bare_packet_due(now, p)))
        emit(now, p, packet, std::move(ids), frames, frame_bytes);
    else
        wire_.recycle(std::move(packet));
    // The stream delivers what it was given, in order: a written reliable message is never sent again.
    if (stream_)
        while (!p.reliable_out.empty() && p.reliable_out.front().sent) {
            p.reliable_out.pop_front();
            p.quiet.valid = false;
        }
}

void SimEndpoint::emit(Micros now, Peer& p, std::vector<std::uint8_t>& packet, std::vector<std::uint16_t> ids,
                       std::size_t frames, std::size_t frame_bytes) {
    evaluate_loss(now, p, true);  // the slot about to be reused must have been counted
    Header h;
    h.type = PacketType::data;
    h.ack_valid = p.have_received;
    h.seq = p.next_seq;
    h.ack = p.remote_latest;
    h.ack_bits = p.remote_bits;
    write_header(packet, h);
    SentPacket& s = p.sent.at(p.next_seq);
    s = SentPacket{true, false, false, p.next_seq, now, std::move(ids)};
    ++p.next_seq;
    // A stream endpoint counts what its socket would: WebSocket frames, headers included (a packet without
    // a message stands for the TCP acknowledgments and pings that keep the connection alive).
    p.stats.bytes_sent += stream_ ? frame_bytes : packet.size();
    p.stats.packets_sent += stream_ ? frames : 1;
    p.rate_sent.add(stream_ ? frame_bytes : packet.size());
    p.last_sent = now;
    p.ack_pending = false;
    if (stream_)
        wire_.write_stream(now, link_of(p), std::move(packet), frame_bytes);
    else
        wire_.transmit(now, link_of(p), std::move(packet));
    packet.clear();
}

void SimEndpoint::send_control(Micros now, const Address& to, PacketType type,
                               std::span<const std::uint8_t> payload) {
    std::vector<std::uint8_t> packet = wire_.buffer();
    Header h;
    h.type = type;
    write_header(packet, h);
    packet.insert(packet.end(), payload.begin(), payload.end());
    // On a stream a control packet stands for a small control message (the handshake is not modelled).
    if (stream_)
        wire_.write_stream(now, wire_.link(address_, to), std::move(packet),
                           frame_size(1 + payload.size(), !accept_incoming_));
    else
        wire_.transmit(now, wire_.link(address_, to), std::move(packet));
}

}  // namespace rwd::transport::sim
