/// SecureChannel: sealing with ChaCha20-Poly1305 (IETF), the 16-bit sequence on the wire and its expansion,
/// the replay windows, and the per-connection keys (salt and derivation).
#include <rewind/session/auth/secure_channel.hpp>

#include "sodium_init.hpp"

#include <sodium.h>

#include <algorithm>
#include <cassert>
#include <string_view>

namespace rwd::auth {

static_assert(crypto_aead_chacha20poly1305_ietf_KEYBYTES == kSessionKeyBytes);
static_assert(crypto_aead_chacha20poly1305_ietf_ABYTES + 2 == kSealedOverheadBytes);
static_assert(crypto_aead_chacha20poly1305_ietf_NPUBBYTES == 12);

namespace {

using Side = SecureChannel::Side;

/// The nonce of a packet: its full sequence (little-endian), its lane, the side that sealed it, then zeros.
std::array<std::uint8_t, 12> nonce_of(Lane lane, Side sender, std::uint64_t sequence) {
    std::array<std::uint8_t, 12> n{};
    for (std::size_t i = 0; i < 8; ++i) n[i] = static_cast<std::uint8_t>(sequence >> (8 * i));
    n[8] = static_cast<std::uint8_t>(lane);
    n[9] = static_cast<std::uint8_t>(sender);
    return n;
}

Side other(Side s) { return s == Side::client ? Side::server : Side::client; }

/// The associated data of a packet: its two sequence bytes, then the bytes sent in the clear beside it.
std::vector<std::uint8_t> associated(const std::uint8_t* seq, std::span<const std::uint8_t> clear) {
    std::vector<std::uint8_t> ad(2 + clear.size());
    ad[0] = seq[0];
    ad[1] = seq[1];
    for (std::size_t i = 0; i < clear.size(); ++i) ad[2 + i] = clear[i];
    return ad;
}

/// 32 bytes of keyed BLAKE2b of (label, salt) under `key`.
SessionKey derive(const SessionKey& key, std::string_view label, const ConnectionSalt& salt) {
    std::array<std::uint8_t, 16 + kConnectionSaltBytes> in{};
    for (std::size_t i = 0; i < label.size() && i < 16; ++i) in[i] = static_cast<std::uint8_t>(label[i]);
    for (std::size_t i = 0; i < salt.size(); ++i) in[16 + i] = salt[i];
    SessionKey out{};
    crypto_generichash(out.data(), out.size(), in.data(), in.size(), key.data(), key.size());
    return out;
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

bool zero(const SessionKey& k) {
    return std::all_of(k.begin(), k.end(), [](std::uint8_t b) { return b == 0; });
}

}  // namespace

bool SessionKeys::empty() const { return zero(client_to_server) && zero(server_to_client); }

bool SessionKeys::usable() const {
    return !zero(client_to_server) && !zero(server_to_client) && client_to_server != server_to_client;
}

ConnectionSalt connection_salt(const ProcessSalt& process, std::uint64_t n) {
    (void)detail::init_sodium();
    std::array<std::uint8_t, 8> counter{};
    for (std::size_t i = 0; i < 8; ++i) counter[i] = static_cast<std::uint8_t>(n >> (8 * i));
    ConnectionSalt out{};
    crypto_generichash(out.data(), out.size(), counter.data(), counter.size(), process.data(),
                       process.size());
    return out;
}

SessionKeys connection_keys(const SessionKeys& token_keys, const ConnectionSalt& salt) {
    (void)detail::init_sodium();
    return SessionKeys{derive(token_keys.client_to_server, "rwd conn c2s", salt),
                       derive(token_keys.server_to_client, "rwd conn s2c", salt)};
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
    : side_(side),
      send_key_(side == Side::client ? keys.client_to_server : keys.server_to_client),
      receive_key_(side == Side::client ? keys.server_to_client : keys.client_to_server) {}

SecureChannel::~SecureChannel() {
    sodium_memzero(send_key_.data(), send_key_.size());
    sodium_memzero(receive_key_.data(), receive_key_.size());
}

Status SecureChannel::seal(Lane lane, std::span<const std::uint8_t> plain, std::vector<std::uint8_t>& out,
                           std::span<const std::uint8_t> clear) {
    if (!detail::init_sodium()) return Error{Errc::io_error, "libsodium failed to initialise"};
    assert((plain.empty() || plain.data() != out.data()) && "seal() must not write over its input");
    const std::uint64_t sequence = next_send_[static_cast<std::size_t>(lane)]++;
    const auto nonce = nonce_of(lane, side_, sequence);
    const std::uint8_t seq[2] = {static_cast<std::uint8_t>(sequence),
                                 static_cast<std::uint8_t>(sequence >> 8)};
    // The sequence bytes (and what goes in the clear beside the packet) are the associated data: altering
    // them fails the tag like altering the rest.
    // (Built only when there are clear bytes: a packet alone needs no allocation.)
    const std::vector<std::uint8_t> joined =
        clear.empty() ? std::vector<std::uint8_t>{} : associated(seq, clear);
    const std::uint8_t* ad = clear.empty() ? seq : joined.data();
    const std::size_t ad_len = clear.empty() ? 2 : joined.size();
    out.resize(plain.size() + kSealedOverheadBytes);
    out[0] = seq[0];
    out[1] = seq[1];
    unsigned long long written = 0;
    crypto_aead_chacha20poly1305_ietf_encrypt(out.data() + 2, &written, plain.data(), plain.size(), ad,
                                              ad_len, nullptr, nonce.data(), send_key_.data());
    out.resize(2 + static_cast<std::size_t>(written));
    return {};
}

OpenError SecureChannel::open(Lane lane, std::span<const std::uint8_t> packet, std::vector<std::uint8_t>& out,
                              std::span<const std::uint8_t> clear) {
    assert((packet.empty() || packet.data() != out.data()) && "open() must not write over its input");
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
    const auto nonce = nonce_of(lane, other(side_), sequence);
    const std::vector<std::uint8_t> joined =
        clear.empty() ? std::vector<std::uint8_t>{} : associated(packet.data(), clear);
    const std::uint8_t* ad = clear.empty() ? packet.data() : joined.data();
    const std::size_t ad_len = clear.empty() ? 2 : joined.size();
    out.resize(packet.size() - kSealedOverheadBytes);
    unsigned long long written = 0;
    if (crypto_aead_chacha20poly1305_ietf_decrypt(out.data(), &written, nullptr, packet.data() + 2,
                                                  packet.size() - 2, ad, ad_len, nonce.data(),
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

}  // namespace rwd::auth
