/// EventLedger: a running count and hash of reliable messages per peer, kept on the server's send side and on
/// each client's receive side, so exactly-once in-order delivery is checked without storing an hour of
/// messages.
#pragma once

#include <rewind/core/tick.hpp>

#include <cstdint>
#include <span>

namespace soak {

/// Count and order-sensitive hash of a stream of reliable messages.
struct EventLedger {
    std::uint64_t count = 0;                   ///< events taken in
    std::uint64_t hash = 0xcbf29ce484222325u;  ///< FNV-1a over every field, in order
    std::uint64_t out_of_sequence = 0;         ///< events whose sequence was not `count` (must stay 0)

    /// Takes in the next reliable message of the stream: its sequence, type, tick and every payload byte.
    void add(std::uint32_t sequence, std::uint8_t type, rwd::Tick tick,
             std::span<const std::uint8_t> payload) {
        if (sequence != static_cast<std::uint32_t>(count)) ++out_of_sequence;
        mix(sequence);
        mix(type);
        mix(tick.value);
        mix(payload.size());
        for (std::uint8_t b : payload) mix(b);
        ++count;
    }

    /// Same count and hash.
    friend bool operator==(const EventLedger& a, const EventLedger& b) {
        return a.count == b.count && a.hash == b.hash;
    }

private:
    void mix(std::uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            hash ^= (v >> (8 * i)) & 0xFFu;
            hash *= 0x100000001b3u;
        }
    }
};

}  // namespace soak
