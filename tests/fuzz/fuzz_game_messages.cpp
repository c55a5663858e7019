/// libFuzzer target: the framings of game and library messages (server, client, unreliable) on arbitrary
/// bytes, and every payload that decodes checked against the arena's message table and decoded as each type;
/// what decodes must re-encode identically and decode again equal.
#include <arena/arena_game.hpp>

#include <rewind/session/client_server/builtin_messages.hpp>
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/message_registry.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

using arena::ArenaGame;
namespace cs = rwd::client_server;

/// Bytes in front of a ServerMessage that stand for what the receiver already holds (expected sequence, then
/// previous tick, little-endian).
constexpr std::size_t kContextBytes = 8;

bool same(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

std::uint32_t le32(std::span<const std::uint8_t> b) {
    return std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 |
           std::uint32_t{b[3]} << 24;
}

/// Decodes `payload` as M; whatever decodes must encode to the very same bytes and decode again equal.
/// Returns whether it decoded.
template <class M>
bool payload_round_trip(std::span<const std::uint8_t> payload) {
    M m{};
    if (!cs::decode_payload(payload, m).ok()) return false;
    std::vector<std::uint8_t> again;
    if (!cs::encode_payload(m, again).ok() || !same(again, payload)) std::abort();
    M back{};
    if (!cs::decode_payload(again, back).ok() || !(back == m)) std::abort();
    return true;
}

/// A received message's payload, as a session core sees it: its rule in the arena's table must agree with
/// decoding it as the type of that id, and each type's decoder must keep its encoding unique.
void check_payload(cs::MessageId type, std::span<const std::uint8_t> payload) {
    static const cs::MessageTable table = cs::message_table<ArenaGame>();
    constexpr std::size_t kTypes = 8;
    const bool decoded[kTypes] = {
        payload_round_trip<cs::Spawn>(payload),
        payload_round_trip<cs::Leave>(payload),
        payload_round_trip<cs::Chat>(payload),
        payload_round_trip<cs::Away>(payload),
        payload_round_trip<cs::Back>(payload),
        payload_round_trip<arena::HitMessage>(payload),
        payload_round_trip<arena::DeathMessage>(payload),
        payload_round_trip<arena::ScoreMessage>(payload),
    };
    constexpr cs::MessageId ids[kTypes] = {
        cs::message_id<ArenaGame, cs::Spawn>(),
        cs::message_id<ArenaGame, cs::Leave>(),
        cs::message_id<ArenaGame, cs::Chat>(),
        cs::message_id<ArenaGame, cs::Away>(),
        cs::message_id<ArenaGame, cs::Back>(),
        cs::message_id<ArenaGame, arena::HitMessage>(),
        cs::message_id<ArenaGame, arena::DeathMessage>(),
        cs::message_id<ArenaGame, arena::ScoreMessage>(),
    };
    const cs::MessageRule* rule = table.find(type);
    bool known = false;
    for (std::size_t i = 0; i < kTypes; ++i) {
        if (ids[i] != type) continue;
        known = true;
        // The table's check is the type's own decoder, and it refuses anything over the type's max_bytes.
        if (rule == nullptr || rule->decodes(payload) != decoded[i]) std::abort();
        if (decoded[i] && payload.size() > rule->spec.max_bytes) std::abort();
    }
    if (!known && rule != nullptr) std::abort();  // an id no arena type has
}

/// Decodes `data` as the framed message `m` (its context already set); whatever decodes must encode to the
/// very same bytes and decode again equal, and its payload is checked.
template <class Msg>
void framed_round_trip(std::span<const std::uint8_t> data, Msg& m) {
    const Msg context = m;
    if (!cs::decode_message(data, m).ok()) return;
    if (m.payload.size() > cs::kMaxMessageBytes) std::abort();
    std::vector<std::uint8_t> again;
    if (!cs::encode_message(m, again).ok() || !same(again, data)) std::abort();
    Msg back = context;
    if (!cs::decode_message(again, back).ok() || !(back == m)) std::abort();
    check_payload(m.type, m.payload);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    {
        // The first message of a connection's reliable channel, and what each client sends.
        cs::ServerMessage sm;
        framed_round_trip(bytes, sm);
        cs::ClientMessage cm;
        framed_round_trip(bytes, cm);
        cs::UnreliableMessage um;
        framed_round_trip(bytes, um);
    }
    if (size >= kContextBytes) {
        // A later message on the reliable channel: sequence and tick are coded against what the receiver
        // holds, any values (both wrap).
        cs::ServerMessage sm;
        sm.expected_sequence = le32(bytes.first(4));
        sm.previous_tick = rwd::Tick{le32(bytes.subspan(4, 4))};
        framed_round_trip(bytes.subspan(kContextBytes), sm);
    }
    return 0;
}
