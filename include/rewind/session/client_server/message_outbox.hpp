/// What a game's server sends after a tick: G::collect_messages(before, after, outbox) fills a
/// MessageOutbox with typed messages and who receives each; the server stamps and sends them.
#pragma once

#include <rewind/session/client_server/message_registry.hpp>

#include <cassert>
#include <cstdint>
#include <utility>
#include <vector>

namespace rwd::client_server {

/// Who receives an outgoing message.
enum class MessageScope : std::uint8_t {
    everyone,  ///< every seated client (kill feed, scores, round announcements)
    nearby,    ///< slots a and b, and every client whose newest snapshot carried either one's player entity
               ///< (effects nobody else can see, such as hits): interest management for messages
    one,       ///< the client in slot a only
};

/// One message on its way out, encoded: a replay of the tick compares these, so two are equal when they
/// would reach the same clients with the same bytes.
struct OutMessage {
    MessageId type = 0;
    MessageScope scope = MessageScope::everyone;
    std::uint8_t a = 0;  ///< the slot of `one`, the first slot of `nearby`
    std::uint8_t b = 0;  ///< the second slot of `nearby`
    bool reliable = true;
    std::vector<std::uint8_t> payload;
    friend bool operator==(const OutMessage&, const OutMessage&) = default;
};

/// Where G::collect_messages puts what a tick sends. Each message is encoded when it is added (a message
/// over its max_bytes is a programmer error: asserted, and dropped in release builds).
template <class G>
class MessageOutbox {
public:
    /// To every seated client.
    template <GameMessage M>
    void broadcast(const M& m) {
        add(m, MessageScope::everyone, 0, 0);
    }
    /// To slots `a` and `b` and every client that can see one of them.
    template <GameMessage M>
    void nearby(int a, int b, const M& m) {
        add(m, MessageScope::nearby, a, b);
    }
    /// To the client in `slot` only.
    template <GameMessage M>
    void send(int slot, const M& m) {
        add(m, MessageScope::one, slot, slot);
    }
    /// What was added since clear(), in order.
    [[nodiscard]] const std::vector<OutMessage>& items() const { return items_; }
    /// Empties the outbox.
    void clear() { items_.clear(); }

private:
    template <GameMessage M>
    void add(const M& m, MessageScope scope, int a, int b) {
        static_assert(to_client_v<M>,
                      "this message type may not travel to clients (its MessageSpec::direction)");
        OutMessage out{message_id<G, M>(),
                       scope,
                       static_cast<std::uint8_t>(a),
                       static_cast<std::uint8_t>(b),
                       M::kMessage.delivery == MessageDelivery::reliable,
                       {}};
        const bool encoded = encode_payload(m, out.payload).ok();
        assert(encoded && "a message over its MessageSpec::max_bytes");
        if (encoded) items_.push_back(std::move(out));
    }
    std::vector<OutMessage> items_;
};

/// A game that sends messages after a tick: `G::collect_messages(before, after, outbox)` adds what happened
/// between the state before a tick and after it. Optional: without it the server still sends spawn, leave
/// and chat, and the app may send any message with Server::send and Server::broadcast.
template <class G>
concept EmitsMessages = requires(const typename G::State& s, MessageOutbox<G>& out) {
    G::collect_messages(s, s, out);
};

}  // namespace rwd::client_server
