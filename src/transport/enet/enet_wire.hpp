// What rewind puts on top of ENet: channel layout, protocol id, disconnect codes, control messages, datagram
// checks.
#pragma once

#include <rewind/transport/transport.hpp>

#include <enet/enet.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>

namespace rwd::transport::enet {

/// ENet channel numbers. Each channel is sequenced on its own, so a lost reliable message on kReliable never
/// delays a message on kUnreliable.
inline constexpr std::uint8_t kUnreliableChannel = 0;
inline constexpr std::uint8_t kReliableChannel = 1;
inline constexpr std::uint8_t kControlChannel = 2;
inline constexpr std::size_t kChannelCount = 3;

/// rewind's ENet protocol: "RWN" plus version 2 (version 2 opens with the challenge below). A connecting
/// side names it in its challenge request; any other is refused.
inline constexpr std::uint32_t kProtocolId = 0x52574E02u;

/// Before ENet's CONNECT, outside ENet (raw datagrams on the same socket), the connecting side asks for a
/// cookie and ENet's CONNECT then carries it as its `data`; a CONNECT without a valid cookie for its address
/// is dropped before ENet gives it a peer slot, so datagrams from spoofed or silent addresses never hold a
/// half-open slot. Request: "RWCQ", protocol id, 64-bit nonce (16 bytes, integers big-endian). Answer:
/// "RWCA", cookie, the nonce (16 bytes: never more than what asked for it). Refusal (wrong protocol, or a
/// side that accepts no connections): "RWCX", the nonce (12 bytes). The nonce is the requester's random
/// value: an answer or refusal that does not echo it is ignored. Read as an ENet header, 'R' (0x52) sets
/// ENet's compression flag, which rewind's hosts never use, so these can never be mistaken for rewind's ENet
/// traffic.
inline constexpr std::size_t kChallengeRequestBytes = 16;
inline constexpr std::size_t kChallengeAnswerBytes = 16;
inline constexpr std::size_t kChallengeRefusalBytes = 12;

/// A parsed challenge request.
struct ChallengeRequest {
    std::uint32_t protocol_id = 0;
    std::uint64_t nonce = 0;
};
/// A parsed challenge answer.
struct ChallengeAnswer {
    std::uint32_t cookie = 0;
    std::uint64_t nonce = 0;
};

/// The request datagram.
std::array<std::uint8_t, kChallengeRequestBytes> challenge_request(std::uint32_t protocol_id,
                                                                   std::uint64_t nonce);
/// The answer datagram.
std::array<std::uint8_t, kChallengeAnswerBytes> challenge_answer(std::uint32_t cookie, std::uint64_t nonce);
/// The refusal datagram.
std::array<std::uint8_t, kChallengeRefusalBytes> challenge_refusal(std::uint64_t nonce);
/// `d` as a request, if it is exactly one (magic and length).
[[nodiscard]] std::optional<ChallengeRequest> parse_challenge_request(std::span<const std::uint8_t> d);
/// `d` as an answer, if it is exactly one.
[[nodiscard]] std::optional<ChallengeAnswer> parse_challenge_answer(std::span<const std::uint8_t> d);
/// `d` as a refusal (its nonce), if it is exactly one.
[[nodiscard]] std::optional<std::uint64_t> parse_challenge_refusal(std::span<const std::uint8_t> d);
/// The `data` of the CONNECT command that opens `d`, if `d` is a datagram to no peer that ENet would read
/// as a connection request (its first command must be CONNECT, whole).
[[nodiscard]] std::optional<std::uint32_t> connect_data(std::span<const std::uint8_t> d);

/// The one control message: the listening side accepted the connection (reliable, channel kControlChannel).
inline constexpr std::uint8_t kControlAccept = 0x01;

/// Disconnect `data` codes: 0x5257 ("RW") in the high half, the DisconnectReason in the low byte. ENet
/// reports data 0 for a timeout, so a rewind peer never sends 0.
inline constexpr std::uint32_t kDisconnectTag = 0x52570000u;

/// The ENet `data` that says goodbye with `reason`.
constexpr std::uint32_t disconnect_code(DisconnectReason reason) {
    return kDisconnectTag | static_cast<std::uint32_t>(reason);
}

/// Largest message that travels unfragmented in a datagram of `mtu` bytes (ENet fragments at this size).
constexpr std::size_t unfragmented_limit(std::size_t mtu) {
    return mtu - sizeof(ENetProtocolHeader) - sizeof(ENetProtocolSendFragment);
}

/// ENet bytes around one message alone in a datagram: protocol header plus a send-unsequenced command.
inline constexpr std::size_t kHeaderBytes = sizeof(ENetProtocolHeader) + sizeof(ENetProtocolSendUnsequenced);

/// Whether ENet will look at a received datagram at all: it ignores, without a word, datagrams that are too
/// short, compressed (rewind never compresses), addressed to a peer slot that does not exist or is idle, from
/// another address than that peer's, or with a stale session id; a datagram to no peer must open with
/// CONNECT. This replicates those checks (read only, every read bounds-checked) so they can be counted.
[[nodiscard]] bool datagram_plausible(const ENetHost& host, const ENetAddress& from,
                                      std::span<const std::uint8_t> d);

}  // namespace rwd::transport::enet
