/// Shared fixtures of the connect token tests: fixed-seed backend keys and a valid token's fields.
#pragma once

#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/auth/keys.hpp>
#include <rewind/session/auth/token_gate.hpp>

#include <cstdint>

namespace authtest {

using rwd::Micros;
namespace auth = rwd::auth;

/// A seed whose bytes are `base`, base+1, ... (tests need no hidden randomness).
inline auth::KeySeed seed_from(std::uint8_t base) {
    auth::KeySeed s{};
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(base + i);
    return s;
}

/// The backend key of the tests.
inline const auth::KeyPair& backend_keys() {
    static const auth::KeyPair kp = auth::generate_keypair(seed_from(7));
    return kp;
}

/// The servers' sealing key of the tests.
inline const auth::SealingKey& sealing_key() {
    static const auth::SealingKey k = auth::derive_sealing_key(seed_from(7));
    return k;
}

/// Another fleet's sealing key.
inline const auth::SealingKey& other_sealing_key() {
    static const auth::SealingKey k = auth::derive_sealing_key(seed_from(99));
    return k;
}

/// The session keys a backend would draw for the token of `client_id` with nonce `nonce_base`, ... (fixed
/// bytes here: tests need no hidden randomness).
inline auth::SessionKeys sample_keys(std::uint64_t client_id = 42, std::uint8_t nonce_base = 1) {
    auth::SessionKeys k;
    for (std::size_t i = 0; i < k.client_to_server.size(); ++i) {
        k.client_to_server[i] = static_cast<std::uint8_t>(0x40 + nonce_base + i + client_id);
        k.server_to_client[i] = static_cast<std::uint8_t>(0x90 + nonce_base + i + client_id);
    }
    return k;
}

/// A server process's salt (a real server draws it at random).
inline auth::ProcessSalt process_salt(std::uint8_t base = 0x31) {
    auth::ProcessSalt s{};
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(base + 3 * i);
    return s;
}

/// Some other key (an attacker's).
inline const auth::KeyPair& other_keys() {
    static const auth::KeyPair kp = auth::generate_keypair(seed_from(99));
    return kp;
}

inline constexpr std::uint32_t kGameId = 0xA11CE;
inline constexpr const char* kServer = "203.0.113.7:40000";
inline constexpr Micros kIssued{1'700'000'000'000'000};  // a Unix time in microseconds
inline constexpr Micros kLifetime{30'000'000};

/// Fields of a valid token for kServer, issued at kIssued for 30 s.
inline auth::TokenFields sample_fields(std::uint64_t client_id = 42, std::uint8_t nonce_base = 1) {
    auth::TokenFields f;
    f.game_id = kGameId;
    f.client_id = client_id;
    f.server_address = kServer;
    f.issued_at = kIssued;
    f.expires_at = kIssued + kLifetime;
    for (std::size_t i = 0; i < f.nonce.size(); ++i) f.nonce[i] = static_cast<std::uint8_t>(nonce_base + i);
    f.user_data = {'r', 'o', 'l', 'e', '=', '1'};
    f.keys = sample_keys(client_id, nonce_base);
    return f;
}

/// What a test server at `address` ("host:port") requires: the fixture keys, its session clock at 1 s being
/// kIssued (the SimNetwork harnesses start at now = 1 s).
inline auth::TokenRequirement requirement_for(const char* address) {
    auth::TokenRequirement req;
    req.public_key = backend_keys().public_key;
    req.sealing_key = sealing_key();
    req.process_salt = process_salt();
    req.server_address = address;
    req.clock_offset = kIssued - Micros{1'000'000};
    return req;
}

}  // namespace authtest
