/// RecordingTransport: a Transport decorator for the server that keeps the log of every reliable event it
/// sends to each seat (as an EventLedger, across the seat's connections), i.e. the server's broadcast log the
/// clients are checked against.
#pragma once

#include "soak/event_ledger.hpp"

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <map>
#include <vector>

namespace soak {

/// Forwards everything to `inner`; reliable Event messages that the inner transport accepted are logged.
class RecordingTransport final : public rwd::transport::Transport {
public:
    /// Wraps `inner` (not owned).
    explicit RecordingTransport(rwd::transport::Transport& inner) : inner_(inner) {}

    /// Forwarded.
    rwd::Result<rwd::transport::PeerId> connect(const rwd::transport::Address& to) override {
        return inner_.connect(to);
    }
    /// Forwarded.
    void disconnect(rwd::transport::PeerId peer, rwd::transport::DisconnectReason reason) override {
        inner_.disconnect(peer, reason);
    }
    /// Forwarded; an accepted reliable server message is added to the ledger of its peer's seat.
    rwd::Status send(rwd::transport::PeerId peer, rwd::transport::Delivery delivery,
                     std::span<const std::uint8_t> data) override {
        namespace cs = rwd::client_server;
        rwd::Status s = inner_.send(peer, delivery, data);
        if (!s.ok() || delivery != rwd::transport::Delivery::reliable_ordered) return s;
        const auto type = cs::peek_message_type(data);
        if (!type.ok()) return s;
        if (type.value() == cs::MessageType::connect_accept) {
            cs::ConnectAccept acc;
            if (cs::decode_message(data, acc).ok()) on_accept(peer, acc);
            return s;
        }
        const auto seat = seat_of_.find(peer);
        if (type.value() != cs::MessageType::server_message || seat == seat_of_.end()) return s;
        // Read as the client reads it: against the sequence and tick of the message before on this peer.
        cs::ServerMessage e;
        Context& c = context_[peer];
        e.expected_sequence = c.expected;
        e.previous_tick = c.previous_tick;
        if (!cs::decode_message(data, e).ok()) return s;
        Stream& st = streams_[seat->second];
        st.before.push_back(st.ledger);
        st.ledger.add(e.sequence, e.type, e.tick, e.payload);
        c.expected = e.sequence + 1;
        c.previous_tick = e.tick;
        return s;
    }
    /// Forwarded.
    void update(rwd::Micros now) override { inner_.update(now); }
    /// Forwarded.
    bool poll(rwd::transport::TransportEvent& out) override { return inner_.poll(out); }
    /// Forwarded.
    rwd::transport::PeerStats stats(rwd::transport::PeerId peer) const override { return inner_.stats(peer); }
    /// Forwarded.
    std::size_t max_message_size() const override { return inner_.max_message_size(); }
    /// Forwarded.
    std::size_t header_bytes() const override { return inner_.header_bytes(); }

    /// The reliable stream of the seat `slot` so far: what its client must have received, over every
    /// connection it had (on a comeback the server resends from where the client was, and the stream is
    /// taken from there).
    [[nodiscard]] EventLedger sent_to_seat(int slot) const {
        const auto it = streams_.find(slot);
        return it == streams_.end() ? EventLedger{} : it->second.ledger;
    }
    /// Comebacks whose resend point lay beyond the kept history (the check of that seat is void).
    [[nodiscard]] std::uint64_t untracked_resumes() const { return untracked_; }

private:
    /// Ledger states kept per seat to roll back to a comeback's resend point.
    static constexpr std::size_t kRollback = 4096;
    /// The last kRollback ledgers pushed, in a ring allocated whole when the seat's stream starts: the soak's
    /// own bookkeeping stays flat, so its heap check sees what the library does, not this history filling.
    class LedgerRing {
    public:
        LedgerRing() : slots_(kRollback) {}
        /// Adds `l` as the newest, dropping the oldest when kRollback are kept.
        void push_back(const EventLedger& l) {
            slots_[(first_ + size_) % kRollback] = l;
            if (size_ < kRollback) {
                ++size_;
            } else {
                first_ = (first_ + 1) % kRollback;
            }
        }
        [[nodiscard]] bool empty() const { return size_ == 0; }
        [[nodiscard]] const EventLedger& back() const { return slots_[(first_ + size_ - 1) % kRollback]; }
        void pop_back() { --size_; }

    private:
        std::vector<EventLedger> slots_;
        std::size_t first_ = 0, size_ = 0;
    };
    struct Stream {
        EventLedger ledger;
        LedgerRing before;  // the ledger before each of the newest messages
    };
    void on_accept(rwd::transport::PeerId peer, const rwd::client_server::ConnectAccept& acc) {
        seat_of_[peer] = acc.slot;
        Stream& st = streams_[acc.slot];
        context_[peer] =
            Context{acc.resumed ? acc.next_message : 0u, acc.resumed ? acc.message_tick : rwd::Tick{}};
        if (!acc.resumed) {
            st = Stream{};  // a new player in the seat: a new stream
            return;
        }
        // The stream goes on from next_message: whatever the old connection carried past it is resent.
        while (!st.before.empty() && st.ledger.count > acc.next_message) {
            st.ledger = st.before.back();
            st.before.pop_back();
        }
        if (st.ledger.count != acc.next_message) ++untracked_;
    }

    rwd::transport::Transport& inner_;
    std::map<rwd::transport::PeerId, int> seat_of_;
    std::map<int, Stream> streams_;
    std::uint64_t untracked_ = 0;
    struct Context {
        std::uint32_t expected = 0;
        rwd::Tick previous_tick{};
    };
    std::map<rwd::transport::PeerId, Context> context_;  // per peer, what its events are coded against
};

}  // namespace soak
