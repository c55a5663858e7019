/// ServerCore: messages, the library's and the game's: sent to the clients a scope selects, and received from
/// clients and validated against the game's message table (type, channel, size, rate, payload).
#include "server_core_impl.hpp"

#include <rewind/core/log.hpp>
#include <rewind/wire/message.hpp>

#include <algorithm>
#include <utility>

namespace rwd::client_server {

void ServerCore::Impl::send_reliable(int slot, Tick at, MessageId type,
                                     const std::vector<std::uint8_t>& payload) {
    Seat& s = seat(slot);
    ServerMessage m{s.message_sequence, at, type, payload, s.message_sequence, s.last_message_tick};
    ++s.message_sequence;
    s.last_message_tick = at;
    log_message(s, m);
    // A held seat's messages wait in the log for its client to come back.
    if (s.phase == Phase::seated &&
        send(&s, s.peer, transport::Delivery::reliable_ordered, m, &s.stats.bytes_sent))
        ++s.stats.events_sent;
}

void ServerCore::Impl::send_unreliable(int slot, Tick at, MessageId type,
                                       const std::vector<std::uint8_t>& payload) {
    Seat& s = seat(slot);
    UnreliableMessage m{at, type, payload, s.unreliable_sequence++};
    send(&s, s.peer, transport::Delivery::unreliable, m, &s.stats.bytes_sent);
}

void ServerCore::Impl::send_out(const OutMessage& m, Tick at, bool (*sees)(void*, int), void* user) {
    ++stats.events;
    for (int i = 0; i < max_clients; ++i) {
        // A held seat's client misses nothing reliable: it is resent when it comes back.
        if (seat(i).phase != Phase::seated && !(seat(i).phase == Phase::held && m.reliable)) continue;
        if (m.scope == MessageScope::one && i != m.a) continue;
        if (m.scope == MessageScope::nearby && i != m.a && i != m.b && (sees == nullptr || !sees(user, i)))
            continue;
        if (m.reliable)
            send_reliable(i, at, m.type, m.payload);
        else
            send_unreliable(i, at, m.type, m.payload);
    }
}

void ServerCore::Impl::refuse_message(int slot, MessageRefusal why, Micros now) {
    ++stats.messages_refused[static_cast<std::size_t>(why)];
    ++seat(slot).stats.messages_refused[static_cast<std::size_t>(why)];
    switch (why) {
        case MessageRefusal::unknown_type:
        case MessageRefusal::wrong_channel:
            return count_unexpected(slot, now);  // well formed, never legitimate
        case MessageRefusal::oversized:
        case MessageRefusal::malformed:
            return count_malformed(slot, now);
        case MessageRefusal::rate_limited:
            return count_abusive_packet(slot, now);  // a client that keeps flooding is kicked as cheating
        case MessageRefusal::queue_full:
            return;  // the app's doing, not the client's
    }
}

bool ServerCore::Impl::take_message_token(int slot, MessageId type, const MessageSpec& spec, Micros now) {
    Seat& s = seat(slot);
    if (type >= s.message_buckets.size()) return false;
    MessageBucket& b = s.message_buckets[type];
    const double elapsed = std::max<double>(0.0, (now - b.at).seconds());
    b.tokens = std::min<double>(spec.burst_messages, b.tokens + elapsed * spec.per_second);
    b.at = now;
    if (b.tokens < 1.0) return false;
    b.tokens -= 1.0;
    return true;
}

void ServerCore::Impl::on_client_message(int slot, bool reliable, std::span<const std::uint8_t> data,
                                         Micros now) {
    // The framing is the library's; the payload is checked against the type's rule before the app sees it.
    // Every length here is attacker-controlled: serialize_bytes refuses one over kMaxMessageBytes, or over
    // what the datagram holds, before allocating.
    MessageId type = 0;
    std::vector<std::uint8_t> payload;
    if (reliable) {
        // Counted whatever becomes of it: the client numbers every reliable message it sends, and a comeback
        // resends from the count the accept gives back.
        ++seat(slot).client_messages_taken;
        ClientMessage m;
        if (!decode_message(data, m).ok()) return count_malformed(slot, now);
        type = m.type;
        payload = std::move(m.payload);
    } else {
        UnreliableMessage m;  // its tick is the client's own: untrusted, and not used by the server
        if (!decode_message(data, m).ok()) return count_malformed(slot, now);
        // At most once: the transport may deliver a datagram twice (and a stale one is of no use).
        auto& seen = seat(slot).unreliable_seen;
        if (seen.exists(m.sequence) || seen.is_too_old(m.sequence)) return;
        seen.insert(m.sequence);
        type = m.type;
        payload = std::move(m.payload);
    }
    Seat& s = seat(slot);
    s.last_heard = now;
    s.proven = true;
    s.spoke = true;  // it holds the accept (and its secret): a lost link may hold its seat
    const MessageRule* rule = messages.find(type);
    if (rule == nullptr || rule->spec.direction == MessageDirection::to_client)
        return refuse_message(slot, MessageRefusal::unknown_type, now);
    if (reliable != (rule->spec.delivery == MessageDelivery::reliable))
        return refuse_message(slot, MessageRefusal::wrong_channel, now);
    if (payload.size() > rule->spec.max_bytes) return refuse_message(slot, MessageRefusal::oversized, now);
    if (!take_message_token(slot, type, rule->spec, now))
        return refuse_message(slot, MessageRefusal::rate_limited, now);
    if (type == kChatMessageId) {
        // The library's chat: relayed to everyone with the speaker set by the server, not by the client.
        Chat chat;
        if (!decode_payload(payload, chat).ok()) return refuse_message(slot, MessageRefusal::malformed, now);
        chat.speaker = static_cast<std::uint8_t>(slot);
        ++stats.messages_received;
        ++s.stats.messages_received;
        return send_builtin(chat);
    }
    if (!rule->decodes(payload)) return refuse_message(slot, MessageRefusal::malformed, now);
    ++stats.messages_received;
    ++s.stats.messages_received;
    if (inbox.size() >= kMaxQueuedClientMessages) {
        const int from = inbox.front().from;
        inbox.pop_front();
        if (valid(from)) refuse_message(from, MessageRefusal::queue_full, now);
        logf(config.logger, LogLevel::warn, "client messages are not polled: the oldest was dropped");
    }
    inbox.push_back(Message{type, reliable, slot, tick, 0, std::move(payload)});
}

void ServerCore::send_message(const OutMessage& m, Tick at, bool (*sees)(void*, int), void* user) {
    impl_->send_out(m, at, sees, user);
}

bool ServerCore::poll_message(Message& out) {
    auto& inbox = impl_->inbox;
    if (inbox.empty()) return false;
    out = std::move(inbox.front());
    inbox.pop_front();
    return true;
}

}  // namespace rwd::client_server
