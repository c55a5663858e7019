/// The game backend's keys: Ed25519 key pairs that sign tokens and the servers' sealing key, deterministic
/// from a seed (libsodium), and their hex form for key files.
#pragma once

#include <rewind/core/result.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rwd::auth {

/// Bytes of an Ed25519 public key.
inline constexpr std::size_t kPublicKeyBytes = 32;
/// Bytes of an Ed25519 secret key as libsodium keeps it (the seed followed by the public key).
inline constexpr std::size_t kSecretKeyBytes = 64;
/// Bytes of the seed a key pair is derived from.
inline constexpr std::size_t kKeySeedBytes = 32;
/// Bytes of an Ed25519 signature.
inline constexpr std::size_t kSignatureBytes = 64;

/// The seed of a key pair: 32 random bytes (the caller owns the randomness; the library never draws any).
using KeySeed = std::array<std::uint8_t, kKeySeedBytes>;

/// The backend's public key: game servers hold it and verify connect tokens with it.
struct PublicKey {
    std::array<std::uint8_t, kPublicKeyBytes> bytes{};  ///< raw key bytes
    /// Same bytes.
    friend bool operator==(const PublicKey&, const PublicKey&) = default;
};

/// The backend's secret key: only the token minting service holds it. Wiped from memory when destroyed.
struct SecretKey {
    std::array<std::uint8_t, kSecretKeyBytes> bytes{};  ///< raw key bytes (seed, then public key)

    SecretKey() = default;
    /// Copies the key bytes.
    SecretKey(const SecretKey&) = default;
    /// Copies the key bytes.
    SecretKey& operator=(const SecretKey&) = default;
    /// Overwrites the key bytes with zeros (sodium_memzero) so they do not linger in freed memory.
    ~SecretKey();
};

/// Bytes of the servers' sealing key (XChaCha20-Poly1305).
inline constexpr std::size_t kSealingKeyBytes = 32;

/// The key the backend seals every token's session keys with and every game server opens them with: shared by
/// the backend and its servers, secret from everyone else (clients included). Wiped from memory when
/// destroyed.
struct SealingKey {
    std::array<std::uint8_t, kSealingKeyBytes> bytes{};  ///< raw key bytes

    SealingKey() = default;
    /// Copies the key bytes.
    SealingKey(const SealingKey&) = default;
    /// Copies the key bytes.
    SealingKey& operator=(const SealingKey&) = default;
    /// Overwrites the key bytes with zeros (sodium_memzero).
    ~SealingKey();
    /// True when every byte is zero (no key given).
    [[nodiscard]] bool empty() const;
};

/// A public key and its secret key.
struct KeyPair {
    PublicKey public_key;  ///< give this to the game servers
    SecretKey secret_key;  ///< keep this on the backend
};

/// The key pair derived from `seed` (crypto_sign_seed_keypair): the same seed always gives the same keys.
[[nodiscard]] KeyPair generate_keypair(const KeySeed& seed);

/// The sealing key derived from `seed` (keyed BLAKE2b under a fixed context, so it reveals nothing of the
/// signing key derived from the same seed): the same seed always gives the same key.
[[nodiscard]] SealingKey derive_sealing_key(const KeySeed& seed);

/// Lower-case hex of `bytes`.
[[nodiscard]] std::string to_hex(std::span<const std::uint8_t> bytes);
/// The bytes of a hex string (surrounding whitespace ignored). Fails with malformed on a non-hex character or
/// an odd digit count, and with length_too_long beyond `max_bytes` (checked before anything is allocated).
[[nodiscard]] Result<std::vector<std::uint8_t>> from_hex(std::string_view hex, std::size_t max_bytes);
/// A public key from exactly 64 hex digits.
[[nodiscard]] Result<PublicKey> public_key_from_hex(std::string_view hex);
/// A secret key from exactly 128 hex digits.
[[nodiscard]] Result<SecretKey> secret_key_from_hex(std::string_view hex);
/// A sealing key from exactly 64 hex digits (not all zero).
[[nodiscard]] Result<SealingKey> sealing_key_from_hex(std::string_view hex);

}  // namespace rwd::auth
