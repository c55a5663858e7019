/// From a game's message types to the wire: each type's id, its payload encoded and decoded, and the table
/// of rules (spec and payload check) the compiled session cores validate received messages with.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/session/client_server/builtin_messages.hpp>
#include <rewind/session/client_server/game_message.hpp>
#include <rewind/wire/message.hpp>

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

namespace rwd::client_server {

/// A game that declares message types: `using Messages = MessageList<...>;`. Optional: a game without it
/// still has the library's spawn, leave and chat.
template <class G>
concept DeclaresMessages = requires {
    typename G::Messages;
};

namespace detail {
template <class L>
struct IsMessageList : std::false_type {};
template <class... Ms>
struct IsMessageList<MessageList<Ms...>> : std::true_type {};

template <class M, class... Ms>
constexpr std::size_t index_in() {
    std::size_t i = 0;
    const bool found = ((std::is_same_v<M, Ms> ? true : (++i, false)) || ...);
    return found ? i : sizeof...(Ms);
}

template <class M, class L>
struct ListIndex;
template <class M, class... Ms>
struct ListIndex<M, MessageList<Ms...>> {
    static constexpr std::size_t value = index_in<M, Ms...>();
    static constexpr bool found = value < sizeof...(Ms);
};
}  // namespace detail

/// The game's message list (an empty one for a game that declares none).
template <class G>
struct GameMessagesOf {
    using type = MessageList<>;  ///< none
};
/// The game's message list.
template <DeclaresMessages G>
struct GameMessagesOf<G> {
    static_assert(detail::IsMessageList<typename G::Messages>::value,
                  "G::Messages must be rwd::client_server::MessageList<...> (docs/GUIDE.md, 'Messages')");
    using type = typename G::Messages;  ///< the game's own
};
/// The game's message list.
template <class G>
using game_messages_t = typename GameMessagesOf<G>::type;

/// Whether M is one of the library's own message types.
template <class M>
inline constexpr bool is_builtin_message =
    std::is_same_v<M, Spawn> || std::is_same_v<M, Leave> || std::is_same_v<M, Chat> ||
    std::is_same_v<M, Away> || std::is_same_v<M, Back>;

/// The wire id of message type M in game G: the library's own ids, else kFirstGameMessageId + its place in
/// G::Messages. A type that is in neither is a compile error.
template <class G, class M>
constexpr MessageId message_id() {
    if constexpr (std::is_same_v<M, Spawn>) {
        return kSpawnMessageId;
    } else if constexpr (std::is_same_v<M, Leave>) {
        return kLeaveMessageId;
    } else if constexpr (std::is_same_v<M, Chat>) {
        return kChatMessageId;
    } else if constexpr (std::is_same_v<M, Away>) {
        return kAwayMessageId;
    } else if constexpr (std::is_same_v<M, Back>) {
        return kBackMessageId;
    } else {
        using L = game_messages_t<G>;
        static_assert(detail::ListIndex<M, L>::found,
                      "this message type is not in G::Messages (docs/GUIDE.md, 'Messages')");
        return static_cast<MessageId>(kFirstGameMessageId + detail::ListIndex<M, L>::value);
    }
}

/// Whether messages of type M may travel from the server to clients.
template <class M>
inline constexpr bool to_client_v = M::kMessage.direction != MessageDirection::to_server;
/// Whether messages of type M may travel from a client to the server.
template <class M>
inline constexpr bool to_server_v = M::kMessage.direction != MessageDirection::to_client;

/// Encodes `m` as a message payload into `out` (resized to the bytes used). Fails with length_too_long when
/// it is over M's max_bytes, or with the stream's error when a field does not serialize.
template <GameMessage M>
[[nodiscard]] Status encode_payload(const M& m, std::vector<std::uint8_t>& out) {
    M copy = m;  // serialize() takes a mutable reference (it also reads)
    const std::size_t bytes = (wire::measure_bits(copy) + 7) / 8;
    if (bytes > M::kMessage.max_bytes) return Error{Errc::length_too_long, "message over its max_bytes"};
    out.resize(bytes);
    auto r = wire::write_message(std::span<std::uint8_t>(out), copy);
    if (!r.ok()) return r.error();
    out.resize(r.value());
    return {};
}

/// Decodes a payload as M: every field must parse and nothing but zero padding may follow.
template <GameMessage M>
[[nodiscard]] Status decode_payload(std::span<const std::uint8_t> payload, M& out) {
    if (payload.size() > M::kMessage.max_bytes)
        return Error{Errc::length_too_long, "message over its max_bytes"};
    return wire::read_message(payload, out);
}

/// What a session core knows of one message type: its spec and a check that a payload decodes as it.
struct MessageRule {
    MessageSpec spec{};
    bool (*decodes)(std::span<const std::uint8_t> payload) = nullptr;  ///< null: no type has this id
};

/// The rules of every message id of one game, indexed by id (the cores validate received messages with it).
class MessageTable {
public:
    /// The rule of `id`, or null when no type has it.
    [[nodiscard]] const MessageRule* find(MessageId id) const {
        return id < rules_.size() && rules_[id].decodes != nullptr ? &rules_[id] : nullptr;
    }
    /// Number of ids (the largest id + 1).
    [[nodiscard]] std::size_t size() const { return rules_.size(); }
    /// Sets the rule of `id`.
    void set(MessageId id, const MessageRule& rule) {
        if (rules_.size() <= id) rules_.resize(std::size_t{id} + 1);
        rules_[id] = rule;
    }

private:
    std::vector<MessageRule> rules_;
};

namespace detail {
template <GameMessage M>
bool payload_decodes(std::span<const std::uint8_t> payload) {
    M m{};
    return decode_payload(payload, m).ok();
}
template <class G, GameMessage M>
void add_rule(MessageTable& t) {
    static_assert(valid_spec(M::kMessage),
                  "a MessageSpec needs max_bytes in 1..kMaxMessageBytes and a burst >= 1");
    t.set(message_id<G, M>(), MessageRule{M::kMessage, &payload_decodes<M>});
}
template <class G, class... Ms>
void add_rules(MessageTable& t, MessageList<Ms...>) {
    static_assert(sizeof...(Ms) <= kMaxGameMessageTypes, "too many message types");
    (add_rule<G, Ms>(t), ...);
}
}  // namespace detail

/// The table of game G: the library's own types and G::Messages.
template <class G>
MessageTable message_table() {
    MessageTable t;
    detail::add_rule<G, Spawn>(t);
    detail::add_rule<G, Leave>(t);
    detail::add_rule<G, Chat>(t);
    detail::add_rule<G, Away>(t);
    detail::add_rule<G, Back>(t);
    detail::add_rules<G>(t, game_messages_t<G>{});
    return t;
}

/// Decodes `msg` as M when it is of that type in game G; false (leaving `out` unspecified) otherwise.
template <class G, GameMessage M>
[[nodiscard]] bool read_message_as(const Message& msg, M& out) {
    return msg.type == message_id<G, M>() && decode_payload(msg.payload, out).ok();
}

}  // namespace rwd::client_server
