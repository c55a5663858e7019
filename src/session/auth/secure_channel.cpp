/// SecureChannel: sealing with ChaCha20-Poly1305 (IETF), the 16-bit sequence on the wire and its expansion,
/// and the replay windows.
#include <rewind/session/auth/secure_channel.hpp>

#include "sodium_init.hpp"

#include <sodium.h>

#include <algorithm>

namespace rwd::auth {

static_assert(crypto_aead_chacha20poly1305_ietf_KEYBYTES == kSessionKeyBytes);
static_assert(crypto_aead_chacha20poly1305_ietf_ABYTES + 2 == kSealedOverheadBytes);
static_assert(crypto_aead_chacha20poly1305_ietf_NPUBBYTES == 12);

namespace {

/// The nonce of a packet: its full sequence (little-endian), its lane, then zeros.
std::array<std::uint8_t, 12> nonce_of(Lane lane, std::uint64_t sequence) {
    std::array<std::uint8_t, 12> n{};
    for (int i = 0; i < 8; ++i)
        n[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(sequence >> (8 * i));
    n[8] = static_cast<std::uint8_t>(lane);
    return n;
}

/// The full sequence whose low 16 bits are `low`, nearest to `newest` (the newest opened so far).
std::uint64_t expand(std::uint16_t low, std::uint64_t newest) {
    std::uint64_t s = (newest & ~std::uint64_t{0xFFFF}) | low;
    if (s > newest + 0x8000 && s >= 0x10000)
        s -= 0x10000;
    else if (s + 0x8000 < newest)
        s += 0x10000;
    return s;
}

bool bit(const std::array<std::uint64_t, 4>& seen, std::uint64_t i) { return (seen[i / 64] >> (i % 64)) & 1; }

/// Moves the window so that `by` newer sequences fit: bit i becomes bit i + by.
void shift(std::array<std::uint64_t, 4>& seen, std::uint64_t by) {
    if (by >= kReplayWindowPackets) {
        seen.fill(0);
        return;
    }
    const std::size_t words = by / 64, bits = by % 64;
    for (std::size_t w = seen.size(); w-- > 0;) {
        std::uint64_t v = w >= words ? seen[w - words] << bits : 0;
        if (bits && w >= words + 1) v |= seen[w - words - 1] >> (64 - bits);
        seen[w] = v;
    }
}

}  // namespace

bool SessionKeys::empty() const {
    const auto zero = [](const SessionKey& k) {
        return std::all_of(k.begin(), k.end(), [](std::uint8_t b) { return b == 0; });
    };
    return zero(client_to_server) && zero(server_to_client);
}

std::string_view open_error_name(OpenError e) {
    switch (e) {
        case OpenError::none:
            return "none";
        case OpenError::truncated:
            return "truncated";
        case OpenError::forged:
            return "forged";
        case OpenError::replayed:
            return "replayed";
        case OpenError::stale:
            return "stale";
    }
    return "unknown";
}

SecureChannel::SecureChannel(const SessionKeys& keys, Side side)
    : send_key_(side == Side::client ? keys.client_to_server : keys.server_to_client),
      receive_key_(side == Side::client ? keys.server_to_client : keys.client_to_server) {}

SecureChannel::~SecureChannel() {
    sodium_memzero(send_key_.data(), send_key_.size());
    sodium_memzero(receive_key_.data(), receive_key_.size());
}

Status SecureChannel::seal(Lane lane, std::span<const std::uint8_t> plain, std::vector<std::uint8_t>& out) {
    if (!detail::init_sodium()) return Error{Errc::io_error, "libsodium failed to initialise"};
    const std::uint64_t sequence = next_send_[static_cast<std::size_t>(lane)]++;
    const auto nonce = nonce_of(lane, sequence);
    out.resize(plain.size() + kSealedOverheadBytes);
    out[0] = static_cast<std::uint8_t>(sequence);
    out[1] = static_cast<std::uint8_t>(sequence >> 8);
    // The sequence bytes are the associated data: altering them fails the tag like altering the rest.
    unsigned long long written = 0;
    crypto_aead_chacha20poly1305_ietf_encrypt(out.data() + 2, &written, plain.data(), plain.size(),
                                              out.data(), 2, nullptr, nonce.data(), send_key_.data());
    out.resize(2 + static_cast<std::size_t>(written));
    return {};
}

OpenError SecureChannel::open(Lane lane, std::span<const std::uint8_t> packet,
                              std::vector<std::uint8_t>& out) {
    out.clear();
    if (packet.size() < kSealedOverheadBytes) return OpenError::truncated;
    if (!detail::init_sodium()) return OpenError::forged;
    Window& w = windows_[static_cast<std::size_t>(lane)];
    const auto low = static_cast<std::uint16_t>(packet[0] | (packet[1] << 8));
    const std::uint64_t sequence = expand(low, w.any ? w.newest : 0);
    // Cheap refusals first (the window needs no key), but only authentic packets ever move it.
    if (w.any && sequence <= w.newest) {
        if (lane == Lane::reliable) return OpenError::replayed;
        if (w.newest - sequence >= kReplayWindowPackets) return OpenError::stale;
        if (bit(w.seen, w.newest - sequence)) return OpenError::replayed;
    }
    const auto nonce = nonce_of(lane, sequence);
    out.resize(packet.size() - kSealedOverheadBytes);
    unsigned long long written = 0;
    if (crypto_aead_chacha20poly1305_ietf_decrypt(out.data(), &written, nullptr, packet.data() + 2,
                                                  packet.size() - 2, packet.data(), 2, nonce.data(),
                                                  receive_key_.data()) != 0) {
        out.clear();
        return OpenError::forged;
    }
    out.resize(static_cast<std::size_t>(written));
    if (!w.any || sequence > w.newest) {
        shift(w.seen, w.any ? sequence - w.newest : kReplayWindowPackets);
        w.newest = sequence;
        w.any = true;
        w.seen[0] |= 1;
    } else {
        const std::uint64_t i = w.newest - sequence;
        w.seen[i / 64] |= std::uint64_t{1} << (i % 64);
    }
    return OpenError::none;
}

void SecureChannel::restart_receiving() { windows_ = {}; }

}  // namespace rwd::auth
