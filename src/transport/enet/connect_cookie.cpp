// ConnectCookie: SipHash-2-4 of (host, port, epoch) under a per-process random key, truncated to the 32 bits
// ENet's CONNECT can carry in its `data` field.
#include "transport/enet/connect_cookie.hpp"

#include <sodium.h>

#include <cstdlib>

namespace rwd::transport::enet {

namespace {

void init_sodium() {
    // Thread-safe and idempotent; it fails only if the system has no source of randomness, where no key
    // can be made at all.
    if (sodium_init() < 0) std::abort();
}

}  // namespace

static_assert(crypto_shorthash_KEYBYTES == 16, "ConnectCookie's key is SipHash-2-4's 16 bytes");

ConnectCookie::ConnectCookie() {
    init_sodium();
    randombytes_buf(key_.data(), key_.size());
}

std::uint32_t ConnectCookie::of(std::uint32_t host, std::uint16_t port, std::int64_t epoch) const {
    std::array<unsigned char, 14> in{};
    for (int i = 0; i < 4; ++i) in[static_cast<std::size_t>(i)] = static_cast<unsigned char>(host >> (8 * i));
    in[4] = static_cast<unsigned char>(port);
    in[5] = static_cast<unsigned char>(port >> 8);
    const auto e = static_cast<std::uint64_t>(epoch);
    for (int i = 0; i < 8; ++i)
        in[static_cast<std::size_t>(6 + i)] = static_cast<unsigned char>(e >> (8 * i));
    std::array<unsigned char, crypto_shorthash_BYTES> out{};
    crypto_shorthash(out.data(), in.data(), in.size(), key_.data());
    return static_cast<std::uint32_t>(out[0]) | static_cast<std::uint32_t>(out[1]) << 8 |
           static_cast<std::uint32_t>(out[2]) << 16 | static_cast<std::uint32_t>(out[3]) << 24;
}

std::uint32_t ConnectCookie::make(std::uint32_t host, std::uint16_t port, Micros now) const {
    return of(host, port, now.count / kEpoch.count);
}

bool ConnectCookie::valid(std::uint32_t cookie, std::uint32_t host, std::uint16_t port, Micros now) const {
    const std::int64_t epoch = now.count / kEpoch.count;
    return cookie == of(host, port, epoch) || cookie == of(host, port, epoch - 1);
}

std::uint64_t random_nonce() {
    init_sodium();
    std::uint64_t n = 0;
    randombytes_buf(&n, sizeof n);
    return n;
}

}  // namespace rwd::transport::enet
