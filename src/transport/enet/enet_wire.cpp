// Read-only plausibility check of a received datagram, mirroring what ENet's protocol.c silently drops, and
// the challenge datagrams exchanged before ENet's CONNECT.
#include "transport/enet/enet_wire.hpp"

#include <algorithm>
#include <cstddef>

namespace rwd::transport::enet {

bool datagram_plausible(const ENetHost& host, const ENetAddress& from, std::span<const std::uint8_t> d) {
    // The header's first 16 bits (big-endian) hold flags, session id and peer id. Attacker-controlled: only
    // read what the length allows.
    if (d.size() < 2) return false;
    const auto word = static_cast<std::uint16_t>((d[0] << 8) | d[1]);
    const std::uint16_t flags = word & ENET_PROTOCOL_HEADER_FLAG_MASK;
    const auto session = static_cast<std::uint8_t>((word & ENET_PROTOCOL_HEADER_SESSION_MASK) >>
                                                   ENET_PROTOCOL_HEADER_SESSION_SHIFT);
    const std::uint16_t peer_id =
        word & ~(ENET_PROTOCOL_HEADER_FLAG_MASK | ENET_PROTOCOL_HEADER_SESSION_MASK);
    if ((flags & ENET_PROTOCOL_HEADER_FLAG_COMPRESSED) != 0) return false;
    const std::size_t header =
        (flags & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME) != 0 ? sizeof(ENetProtocolHeader) : 2;
    if (d.size() < header + sizeof(ENetProtocolCommandHeader)) return false;
    if (peer_id == ENET_PROTOCOL_MAXIMUM_PEER_ID) {
        const std::uint8_t command = d[header] & ENET_PROTOCOL_COMMAND_MASK;
        return command == ENET_PROTOCOL_COMMAND_CONNECT && d.size() >= header + sizeof(ENetProtocolConnect);
    }
    if (peer_id >= host.peerCount) return false;
    const ENetPeer& peer = host.peers[peer_id];
    if (peer.state == ENET_PEER_STATE_DISCONNECTED || peer.state == ENET_PEER_STATE_ZOMBIE) return false;
    if (peer.address.host != from.host || peer.address.port != from.port) return false;
    if (peer.outgoingPeerID < ENET_PROTOCOL_MAXIMUM_PEER_ID && session != peer.incomingSessionID)
        return false;
    return true;
}

}  // namespace rwd::transport::enet

namespace rwd::transport::enet {

namespace {

constexpr std::array<std::uint8_t, 4> kRequestMagic{'R', 'W', 'C', 'Q'};
constexpr std::array<std::uint8_t, 4> kAnswerMagic{'R', 'W', 'C', 'A'};
constexpr std::array<std::uint8_t, 4> kRefusalMagic{'R', 'W', 'C', 'X'};

void put32(std::uint8_t* at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) at[i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

std::uint32_t get32(const std::uint8_t* at) {
    return static_cast<std::uint32_t>(at[0]) << 24 | static_cast<std::uint32_t>(at[1]) << 16 |
           static_cast<std::uint32_t>(at[2]) << 8 | static_cast<std::uint32_t>(at[3]);
}

void put64(std::uint8_t* at, std::uint64_t v) {
    put32(at, static_cast<std::uint32_t>(v >> 32));
    put32(at + 4, static_cast<std::uint32_t>(v));
}

std::uint64_t get64(const std::uint8_t* at) {
    return static_cast<std::uint64_t>(get32(at)) << 32 | get32(at + 4);
}

bool opens_with(std::span<const std::uint8_t> d, const std::array<std::uint8_t, 4>& magic) {
    return d.size() >= magic.size() && std::equal(magic.begin(), magic.end(), d.begin());
}

}  // namespace

std::array<std::uint8_t, kChallengeRequestBytes> challenge_request(std::uint32_t protocol_id,
                                                                   std::uint64_t nonce) {
    std::array<std::uint8_t, kChallengeRequestBytes> d{};
    std::copy(kRequestMagic.begin(), kRequestMagic.end(), d.begin());
    put32(d.data() + 4, protocol_id);
    put64(d.data() + 8, nonce);
    return d;
}

std::array<std::uint8_t, kChallengeAnswerBytes> challenge_answer(std::uint32_t cookie, std::uint64_t nonce) {
    std::array<std::uint8_t, kChallengeAnswerBytes> d{};
    std::copy(kAnswerMagic.begin(), kAnswerMagic.end(), d.begin());
    put32(d.data() + 4, cookie);
    put64(d.data() + 8, nonce);
    return d;
}

std::array<std::uint8_t, kChallengeRefusalBytes> challenge_refusal(std::uint64_t nonce) {
    std::array<std::uint8_t, kChallengeRefusalBytes> d{};
    std::copy(kRefusalMagic.begin(), kRefusalMagic.end(), d.begin());
    put64(d.data() + 4, nonce);
    return d;
}

std::optional<ChallengeRequest> parse_challenge_request(std::span<const std::uint8_t> d) {
    if (d.size() != kChallengeRequestBytes || !opens_with(d, kRequestMagic)) return std::nullopt;
    return ChallengeRequest{get32(d.data() + 4), get64(d.data() + 8)};
}

std::optional<ChallengeAnswer> parse_challenge_answer(std::span<const std::uint8_t> d) {
    if (d.size() != kChallengeAnswerBytes || !opens_with(d, kAnswerMagic)) return std::nullopt;
    return ChallengeAnswer{get32(d.data() + 4), get64(d.data() + 8)};
}

std::optional<std::uint64_t> parse_challenge_refusal(std::span<const std::uint8_t> d) {
    if (d.size() != kChallengeRefusalBytes || !opens_with(d, kRefusalMagic)) return std::nullopt;
    return get64(d.data() + 4);
}

std::optional<std::uint32_t> connect_data(std::span<const std::uint8_t> d) {
    if (d.size() < 2) return std::nullopt;
    const auto word = static_cast<std::uint16_t>((d[0] << 8) | d[1]);
    const std::uint16_t flags = word & ENET_PROTOCOL_HEADER_FLAG_MASK;
    const std::uint16_t peer_id =
        word & ~(ENET_PROTOCOL_HEADER_FLAG_MASK | ENET_PROTOCOL_HEADER_SESSION_MASK);
    if (peer_id != ENET_PROTOCOL_MAXIMUM_PEER_ID || (flags & ENET_PROTOCOL_HEADER_FLAG_COMPRESSED) != 0)
        return std::nullopt;
    const std::size_t header =
        (flags & ENET_PROTOCOL_HEADER_FLAG_SENT_TIME) != 0 ? sizeof(ENetProtocolHeader) : 2;
    if (d.size() < header + sizeof(ENetProtocolConnect)) return std::nullopt;
    if ((d[header] & ENET_PROTOCOL_COMMAND_MASK) != ENET_PROTOCOL_COMMAND_CONNECT) return std::nullopt;
    return get32(d.data() + header + offsetof(ENetProtocolConnect, data));
}

}  // namespace rwd::transport::enet
