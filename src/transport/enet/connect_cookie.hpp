// ConnectCookie: the listening side's stateless proof that a connecting address can receive what is sent to
// it, checked before ENet gives the address a peer slot.
#pragma once

#include <rewind/core/time.hpp>

#include <array>
#include <cstdint>

namespace rwd::transport::enet {

/// A keyed hash (SipHash-2-4, libsodium's crypto_shorthash) of the address and a time epoch under a random
/// key only this side knows: a cookie is valid for the address it was sent to, in its epoch and the next.
/// Nothing is stored per address, so a flood of requests costs no memory.
class ConnectCookie {
public:
    /// How long one epoch lasts: a cookie stays valid between one and two epochs.
    static constexpr Micros kEpoch{10'000'000};

    /// A fresh random key.
    ConnectCookie();
    /// The cookie for `host` (network order, as ENet keeps it) and `port` at `now`.
    [[nodiscard]] std::uint32_t make(std::uint32_t host, std::uint16_t port, Micros now) const;
    /// Whether `cookie` is one this side made for that address in the current or the previous epoch.
    [[nodiscard]] bool valid(std::uint32_t cookie, std::uint32_t host, std::uint16_t port, Micros now) const;

private:
    [[nodiscard]] std::uint32_t of(std::uint32_t host, std::uint16_t port, std::int64_t epoch) const;
    std::array<unsigned char, 16> key_{};
};

/// A random 64-bit value from the system's generator (libsodium's randombytes), for challenge nonces.
[[nodiscard]] std::uint64_t random_nonce();

}  // namespace rwd::transport::enet
