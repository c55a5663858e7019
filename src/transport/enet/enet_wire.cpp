// Read-only plausibility check of a received datagram, mirroring what ENet's protocol.c silently drops.
#include "transport/enet/enet_wire.hpp"

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
