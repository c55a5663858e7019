/// Ed25519 key pairs and the sealing key from a seed (libsodium) and the hex codec of key files.
#include <rewind/session/auth/keys.hpp>

#include "sodium_init.hpp"

#include <sodium.h>

#include <algorithm>
#include <cctype>

namespace rwd::auth {

namespace detail {
bool init_sodium() { return sodium_init() >= 0; }
}  // namespace detail

SecretKey::~SecretKey() { sodium_memzero(bytes.data(), bytes.size()); }

SealingKey::~SealingKey() { sodium_memzero(bytes.data(), bytes.size()); }

bool SealingKey::empty() const {
    return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; });
}

SealingKey derive_sealing_key(const KeySeed& seed) {
    (void)detail::init_sodium();
    static constexpr std::string_view kContext = "rewind token sealing key v1";
    SealingKey k;
    crypto_generichash(k.bytes.data(), k.bytes.size(),
                       reinterpret_cast<const unsigned char*>(kContext.data()), kContext.size(), seed.data(),
                       seed.size());
    return k;
}

KeyPair generate_keypair(const KeySeed& seed) {
    // Key derivation from a seed is pure computation; init only selects the fastest implementation.
    (void)detail::init_sodium();
    KeyPair kp;
    crypto_sign_seed_keypair(kp.public_key.bytes.data(), kp.secret_key.bytes.data(), seed.data());
    return kp;
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
    std::string out(bytes.size() * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
    out.pop_back();  // the terminating NUL
    return out;
}

Result<std::vector<std::uint8_t>> from_hex(std::string_view hex, std::size_t max_bytes) {
    while (!hex.empty() && std::isspace(static_cast<unsigned char>(hex.front()))) hex.remove_prefix(1);
    while (!hex.empty() && std::isspace(static_cast<unsigned char>(hex.back()))) hex.remove_suffix(1);
    if (hex.size() % 2 != 0) return Error{Errc::malformed, "odd number of hex digits"};
    if (hex.size() / 2 > max_bytes) return Error{Errc::length_too_long, "hex string too long"};
    if (hex.empty()) return std::vector<std::uint8_t>{};  // libsodium's pointers must not be null
    std::vector<std::uint8_t> out(hex.size() / 2);
    std::size_t len = 0;
    const char* end = nullptr;
    if (sodium_hex2bin(out.data(), out.size(), hex.data(), hex.size(), nullptr, &len, &end) != 0 ||
        len != out.size() || end != hex.data() + hex.size())
        return Error{Errc::malformed, "not a hex string"};
    return out;
}

Result<PublicKey> public_key_from_hex(std::string_view hex) {
    auto raw = from_hex(hex, kPublicKeyBytes);
    if (!raw.ok()) return raw.error();
    if (raw->size() != kPublicKeyBytes) return Error{Errc::malformed, "a public key is 64 hex digits"};
    PublicKey k;
    std::copy(raw->begin(), raw->end(), k.bytes.begin());
    return k;
}

Result<SecretKey> secret_key_from_hex(std::string_view hex) {
    auto raw = from_hex(hex, kSecretKeyBytes);
    if (!raw.ok()) return raw.error();
    if (raw->size() != kSecretKeyBytes) return Error{Errc::malformed, "a secret key is 128 hex digits"};
    SecretKey k;
    std::copy(raw->begin(), raw->end(), k.bytes.begin());
    sodium_memzero(raw->data(), raw->size());
    return k;
}

Result<SealingKey> sealing_key_from_hex(std::string_view hex) {
    auto raw = from_hex(hex, kSealingKeyBytes);
    if (!raw.ok()) return raw.error();
    if (raw->size() != kSealingKeyBytes) return Error{Errc::malformed, "a sealing key is 64 hex digits"};
    SealingKey k;
    std::copy(raw->begin(), raw->end(), k.bytes.begin());
    sodium_memzero(raw->data(), raw->size());
    if (k.empty()) return Error{Errc::malformed, "a sealing key of zeros"};
    return k;
}

}  // namespace rwd::auth
