/// EventLedger: a running count and hash of reliable events per peer, kept on the server's send side and on
/// each client's receive side, so exactly-once in-order delivery is checked without storing an hour of
/// events.
#pragma once

#include <rewind/session/client_server/messages.hpp>

#include <cstdint>

namespace soak {

/// Count and order-sensitive hash of a stream of events.
struct EventLedger {
    std::uint64_t count = 0;                   ///< events taken in
    std::uint64_t hash = 0xcbf29ce484222325u;  ///< FNV-1a over every field, in order
    std::uint64_t out_of_sequence = 0;         ///< events whose sequence was not `count` (must stay 0)

    /// Takes in the next event of the stream.
    void add(const rwd::client_server::Event& e) {
        if (e.sequence != static_cast<std::uint32_t>(count)) ++out_of_sequence;
        mix(e.sequence);
        mix(static_cast<std::uint64_t>(e.kind));
        mix(e.tick.value);
        mix(e.subject);
        mix(e.other);
        mix(static_cast<std::uint32_t>(e.value));
        for (char c : e.text) mix(static_cast<std::uint8_t>(c));
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
