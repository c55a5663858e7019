// What rewind puts on top of ENet: channel layout, protocol id, disconnect codes, control messages, datagram
// checks.
#pragma once

#include <rewind/transport/transport.hpp>

#include <enet/enet.h>

#include <cstddef>
#include <cstdint>
#include <span>

namespace rwd::transport::enet {

/// ENet channel numbers. Each channel is sequenced on its own, so a lost reliable message on kReliable never
/// delays a message on kUnreliable.
inline constexpr std::uint8_t kUnreliableChannel = 0;
inline constexpr std::uint8_t kReliableChannel = 1;
inline constexpr std::uint8_t kControlChannel = 2;
inline constexpr std::size_t kChannelCount = 3;

/// Sent as the `data` of enet_host_connect: "RWN" plus protocol version 1. Anything else is refused.
inline constexpr std::uint32_t kProtocolId = 0x52574E01u;

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
