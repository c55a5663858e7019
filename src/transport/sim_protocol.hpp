// The datagram format SimNetwork endpoints speak: header with sequence/ack/ack bits, then messages.
#pragma once

#include <rewind/core/sequence.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace rwd::transport::sim {

// Datagram layout, little-endian:
//   u8  kind   low 4 bits: PacketType; bit 7 set when ack/ack_bits are valid
//   u16 seq    packet sequence (data packets; 0 otherwise)
//   u16 ack    newest sequence received from the other side
//   u32 bits   bit i set: ack - 1 - i was received too
// then for `data`, zero or more messages:
//   u8  delivery (0 unreliable, 1 reliable_ordered), [u16 message id if reliable], u16 length, bytes
// and for `connect_refuse`: u8 DisconnectReason.
inline constexpr std::size_t kHeaderBytes = 9;
inline constexpr std::size_t kMaxMessageOverhead = 5;  // delivery + id + length
inline constexpr std::uint8_t kAckValidBit = 0x80;

enum class PacketType : std::uint8_t {
    data = 1,
    connect_request = 2,
    connect_accept = 3,
    connect_refuse = 4,
    disconnect = 5
};

struct Header {
    PacketType type = PacketType::data;
    bool ack_valid = false;
    Seq16 seq = 0;
    Seq16 ack = 0;
    std::uint32_t ack_bits = 0;
};

struct MessageView {
    bool reliable = false;
    std::uint16_t id = 0;
    std::span<const std::uint8_t> data;
};

inline void put_u16(std::vector<std::uint8_t>& b, std::uint16_t v) {
    b.push_back(static_cast<std::uint8_t>(v & 0xFFu));
    b.push_back(static_cast<std::uint8_t>(v >> 8u));
}

inline std::uint16_t get_u16(std::span<const std::uint8_t> b, std::size_t at) {
    return static_cast<std::uint16_t>(b[at] | (b[at + 1] << 8u));
}

// Writes the header over the first kHeaderBytes of `b` (growing it if shorter).
inline void write_header(std::vector<std::uint8_t>& b, const Header& h) {
    if (b.size() < kHeaderBytes) b.resize(kHeaderBytes);
    b[0] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(h.type) | (h.ack_valid ? kAckValidBit : 0u));
    b[1] = static_cast<std::uint8_t>(h.seq & 0xFFu);
    b[2] = static_cast<std::uint8_t>(h.seq >> 8u);
    b[3] = static_cast<std::uint8_t>(h.ack & 0xFFu);
    b[4] = static_cast<std::uint8_t>(h.ack >> 8u);
    for (std::size_t i = 0; i < 4; ++i) b[5 + i] = static_cast<std::uint8_t>(h.ack_bits >> (8u * i));
}

// nullopt when the datagram is too short or of an unknown type.
inline std::optional<Header> read_header(std::span<const std::uint8_t> b) {
    if (b.size() < kHeaderBytes) return std::nullopt;
    const std::uint8_t type = b[0] & 0x0Fu;
    if ((b[0] & 0x70u) != 0 || type < 1 || type > 5) return std::nullopt;
    Header h;
    h.type = static_cast<PacketType>(type);
    h.ack_valid = (b[0] & kAckValidBit) != 0;
    h.seq = get_u16(b, 1);
    h.ack = get_u16(b, 3);
    for (std::size_t i = 0; i < 4; ++i) h.ack_bits |= static_cast<std::uint32_t>(b[5 + i]) << (8u * i);
    return h;
}

inline void append_message(std::vector<std::uint8_t>& b, bool reliable, std::uint16_t id,
                           std::span<const std::uint8_t> data) {
    b.push_back(reliable ? 1 : 0);
    if (reliable) put_u16(b, id);
    put_u16(b, static_cast<std::uint16_t>(data.size()));
    b.insert(b.end(), data.begin(), data.end());
}

inline std::size_t message_size(bool reliable, std::size_t bytes) { return (reliable ? 5 : 3) + bytes; }

// Parses every message of a data datagram; false (and `out` unspecified) if any part is malformed.
inline bool read_messages(std::span<const std::uint8_t> b, std::vector<MessageView>& out) {
    out.clear();
    std::size_t at = kHeaderBytes;
    while (at < b.size()) {
        const std::uint8_t delivery = b[at++];
        if (delivery > 1) return false;
        MessageView m;
        m.reliable = delivery == 1;
        if (m.reliable) {
            if (b.size() - at < 2) return false;
            m.id = get_u16(b, at);
            at += 2;
        }
        if (b.size() - at < 2) return false;
        const std::size_t len = get_u16(b, at);
        at += 2;
        if (b.size() - at < len) return false;
        m.data = b.subspan(at, len);
        at += len;
        out.push_back(m);
    }
    return true;
}

}  // namespace rwd::transport::sim
