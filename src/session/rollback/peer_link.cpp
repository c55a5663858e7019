/// PeerLink: handshake with random nonces, quality pings, keepalives and silence detection for one rollback
/// peer.
#include "session/rollback/peer_link.hpp"

namespace rwd::rollback::detail {

bool Sender::send(transport::Transport& t, transport::PeerId peer, const Message& msg, transport::Delivery d,
                  std::uint64_t& bytes, std::uint64_t& packets) {
    const std::size_t room = std::min(buffer_.size(), t.max_message_size());
    const Result<std::size_t> n = encode_message(msg, std::span<std::uint8_t>(buffer_.data(), room));
    if (!n.ok()) {
        ++failures_;
        return false;
    }
    if (!t.send(peer, d, std::span<const std::uint8_t>(buffer_.data(), *n)).ok()) {
        ++failures_;
        return false;
    }
    bytes += *n + t.header_bytes();
    ++packets;
    return true;
}

void RateMeter::sample(Micros now, std::uint64_t total_bytes) {
    if (!started_) {
        started_ = true;
        window_start_ = now;
        bytes_at_start_ = total_bytes;
        return;
    }
    const Micros elapsed = now - window_start_;
    if (elapsed < Micros{1'000'000}) return;
    kbps_ = static_cast<double>(total_bytes - bytes_at_start_) * 8.0 / 1000.0 / elapsed.seconds();
    window_start_ = now;
    bytes_at_start_ = total_bytes;
}

PeerLink::PeerLink(transport::PeerId peer, Role remote_role, std::uint8_t remote_players, bool initiator,
                   const LinkParams& params, std::uint32_t local_nonce, std::uint64_t seed, Micros now)
    : peer_(peer),
      remote_role_(remote_role),
      remote_players_(remote_players),
      initiator_(initiator),
      params_(params),
      local_nonce_(local_nonce),
      rng_(seed, peer),
      last_send_(now),
      last_recv_(now),
      last_quality_(now) {}

bool PeerLink::send(transport::Transport& t, Sender& sender, Message& msg, Micros now,
                    transport::Delivery d) {
    if (state_ == State::disconnected) return false;
    msg.sender_nonce = local_nonce_;
    const bool ok = sender.send(t, peer_, msg, d, bytes_sent, packets_sent);
    if (ok) last_send_ = now;
    send_rate.sample(now, bytes_sent);
    return ok;
}

void PeerLink::add_rtt_sample(Micros sample) {
    if (!have_rtt_) {
        rtt_ = sample;
        rtt_var_ = Micros{sample.count / 8};  // a first guess the next samples soon replace
        have_rtt_ = true;
        return;
    }
    const std::int64_t err = sample.count - rtt_.count;
    rtt_var_ = Micros{(rtt_var_.count * 7 + (err < 0 ? -err : err)) / 8};  // steadier than TCP's 1/4
    rtt_ = Micros{(rtt_.count * 7 + sample.count) / 8};
}

void PeerLink::send_sync_request(transport::Transport& t, Sender& sender, Micros now) {
    // A retry repeats the outstanding nonce: on a link whose round trip exceeds sync_retry, a fresh nonce per
    // retry would make every reply stale on arrival and the handshake would never finish.
    if (!sync_outstanding_) {
        sync_nonce_ = rng_.next_u32();
        sync_outstanding_ = true;
        sync_retried_ = false;
        first_sync_send_ = now;
    } else {
        sync_retried_ = true;
    }
    Message m;
    m.type = MsgType::sync_request;
    m.request_nonce = sync_nonce_;
    m.role = params_.local_role;
    m.session_tag = params_.session_tag;
    m.num_players = params_.num_players;
    m.players_mask = params_.local_players;
    (void)send(t, sender, m, now);
    sync_sent_ = true;
    last_sync_send_ = now;
}

bool PeerLink::on_message(transport::Transport& t, Sender& sender, const Message& msg, Micros now,
                          std::vector<LinkEvent>& events) {
    if (state_ == State::disconnected) return true;  // late traffic from a gone peer: ignore quietly
    const bool handshake = msg.type == MsgType::sync_request || msg.type == MsgType::sync_reply;
    if (handshake) {
        if (remote_nonce_known_ && msg.sender_nonce != remote_nonce_) return false;  // another incarnation
        if (msg.type == MsgType::sync_request &&
            (msg.session_tag != params_.session_tag || msg.num_players != params_.num_players ||
             msg.role != remote_role_ ||
             (remote_role_ == Role::player && msg.players_mask != remote_players_))) {
            return false;  // a peer of another match, another player count or another seat plan
        }
        remote_nonce_ = msg.sender_nonce;
        remote_nonce_known_ = true;
    } else if (!remote_nonce_known_ || msg.sender_nonce != remote_nonce_) {
        return false;  // not from the peer we shook hands with
    }
    last_recv_ = now;
    ++packets_received;
    if (interrupted_) {
        interrupted_ = false;
        events.push_back({LinkEvent::Type::resumed});
    }
    switch (msg.type) {
        case MsgType::sync_request: {
            Message reply;
            reply.type = MsgType::sync_reply;
            reply.request_nonce = msg.request_nonce;
            (void)send(t, sender, reply, now);
            if (!initiator_ && state_ == State::syncing) {
                state_ = State::running;  // the passive side (a host facing a spectator) is ready at once
                events.push_back({LinkEvent::Type::synchronized});
            }
            break;
        }
        case MsgType::sync_reply:
            if (state_ == State::syncing && initiator_ && sync_outstanding_ &&
                msg.request_nonce == sync_nonce_) {
                sync_outstanding_ = false;
                // A reply to a request sent once times the round trip (after a retry it could answer either
                // send: no sample, as Karn's algorithm has it).
                if (!sync_retried_)
                    add_rtt_sample(now - last_sync_send_);
                else if (!have_rtt_)
                    add_rtt_sample(now -
                                   first_sync_send_);  // an upper bound, better than nothing at the start
                ++sync_done_;
                events.push_back({LinkEvent::Type::synchronizing, sync_done_, params_.sync_roundtrips});
                if (sync_done_ >= params_.sync_roundtrips) {
                    state_ = State::running;
                    events.push_back({LinkEvent::Type::synchronized});
                } else {
                    send_sync_request(t, sender, now);
                }
            }
            break;
        case MsgType::quality_report: {
            Message reply;
            reply.type = MsgType::quality_reply;
            reply.stamp = msg.stamp;
            (void)send(t, sender, reply, now);
            break;
        }
        case MsgType::quality_reply: {
            // The stamp is our own clock's low 32 bits; the modular difference is the round trip.
            const std::uint32_t sample_us = static_cast<std::uint32_t>(now.count) - msg.stamp;
            if (sample_us < 60'000'000u) add_rtt_sample(Micros{static_cast<std::int64_t>(sample_us)});
            break;
        }
        case MsgType::goodbye:
            state_ = State::disconnected;
            events.push_back({LinkEvent::Type::disconnected});
            break;
        default:
            break;  // input and forensics messages are the session's business
    }
    return true;
}

void PeerLink::poll(transport::Transport& t, Sender& sender, Micros now, std::vector<LinkEvent>& events) {
    if (state_ == State::disconnected) return;
    if (state_ == State::syncing) {
        if (initiator_ && (!sync_sent_ || now - last_sync_send_ >= params_.sync_retry)) {
            send_sync_request(t, sender, now);
        }
        return;
    }
    const Micros silent = now - last_recv_;
    if (silent >= params_.disconnect_timeout) {
        state_ = State::disconnected;
        events.push_back({LinkEvent::Type::disconnected});
        return;
    }
    if (!interrupted_ && silent >= params_.disconnect_notice) {
        interrupted_ = true;
        events.push_back({LinkEvent::Type::interrupted, 0, 0, params_.disconnect_timeout - silent});
    }
    if (now - last_quality_ >= params_.quality_interval) {
        last_quality_ = now;
        Message q;
        q.type = MsgType::quality_report;
        q.stamp = static_cast<std::uint32_t>(now.count);
        (void)send(t, sender, q, now);
    }
    if (now - last_send_ >= params_.keepalive_interval) {
        Message k;
        k.type = MsgType::keepalive;
        (void)send(t, sender, k, now);
    }
    recv_rate.sample(now, bytes_received);
    send_rate.sample(now, bytes_sent);
}

}  // namespace rwd::rollback::detail
