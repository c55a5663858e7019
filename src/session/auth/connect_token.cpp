/// Connect token layout, minting (sealed keys, Ed25519 signature) and verification of untrusted tokens.
#include <rewind/session/auth/connect_token.hpp>

#include <rewind/core/detail/byte_cursor.hpp>
#include "sodium_init.hpp"

#include <sodium.h>

#include <algorithm>
#include <limits>

namespace rwd::auth {

namespace {

// Layout (docs/SECURITY.md), little-endian:
//   magic "RWTK" (4) | version (1) | game id (4) | client id (8) | issued_at (8) | expires_at (8) | nonce
//   (16) | address length A (1) | address (A) | user data length U (2) | user data (U) | sealed keys (80) |
//   Ed25519 signature (64)
// The sealed keys are the two session keys under XChaCha20-Poly1305 with the sealing key, the nonce being
// the token nonce then the client id, and every byte before them as associated data. The signature covers
// every byte before it, magic and version included.
constexpr std::array<std::uint8_t, 4> kMagic{'R', 'W', 'T', 'K'};

bool address_ok(std::string_view a) {
    if (a.empty() || a.size() > kMaxTokenAddressBytes) return false;
    return std::all_of(a.begin(), a.end(),
                       [](char c) { return c > 0x20 && c < 0x7F; });  // printable, no spaces
}

void encode_unsigned(const TokenFields& f, std::vector<std::uint8_t>& out) {
    rwd::detail::ByteWriter w(out);
    w.raw(kMagic);
    w.uint(kTokenVersion, 1);
    w.uint(f.game_id, 4);
    w.uint(f.client_id, 8);
    w.uint(static_cast<std::uint64_t>(f.issued_at.count), 8);
    w.uint(static_cast<std::uint64_t>(f.expires_at.count), 8);
    w.raw(f.nonce);
    w.uint(f.server_address.size(), 1);
    w.raw({reinterpret_cast<const std::uint8_t*>(f.server_address.data()), f.server_address.size()});
    w.uint(f.user_data.size(), 2);
    w.raw(f.user_data);
}

/// A parsed token: its fields, the bytes before the sealed keys, the sealed keys, the signed bytes and the
/// signature (views into the input).
struct Parsed {
    TokenFields fields;
    std::span<const std::uint8_t> clear_part;
    std::span<const std::uint8_t> sealed_keys;
    std::span<const std::uint8_t> signed_part;
    std::span<const std::uint8_t> signature;
};

/// The XChaCha20-Poly1305 nonce of a token's sealed keys: its nonce, then its client id.
std::array<std::uint8_t, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES> sealing_nonce(const TokenFields& f) {
    static_assert(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES == kTokenNonceBytes + 8);
    std::array<std::uint8_t, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES> n{};
    std::copy(f.nonce.begin(), f.nonce.end(), n.begin());
    for (std::size_t i = 0; i < 8; ++i)
        n[kTokenNonceBytes + i] = static_cast<std::uint8_t>(f.client_id >> (8 * i));
    return n;
}

Error malformed(std::string_view why) { return Error{Errc::malformed, why}; }

// Everything here is attacker-controlled: every length is checked against its maximum and against the bytes
// actually present before it is used, and nothing is allocated beyond the (bounded) address and user data.
Result<Parsed> parse(std::span<const std::uint8_t> bytes) {
    if (bytes.empty()) return malformed("empty token");
    if (bytes.size() < kMinTokenBytes) return malformed("token truncated");
    if (bytes.size() > kMaxTokenBytes) return malformed("token too long");
    rwd::detail::ByteReader r(bytes);
    std::span<const std::uint8_t> magic, nonce, address, user_data, signature;
    std::uint64_t version = 0, game_id = 0, client_id = 0, issued = 0, expires = 0, address_len = 0,
                  user_len = 0;
    if (!r.raw(magic, kMagic.size()) || !std::equal(magic.begin(), magic.end(), kMagic.begin()))
        return malformed("not a connect token (bad magic)");
    if (!r.uint(version, 1) || version != kTokenVersion) return malformed("unsupported token version");
    r.uint(game_id, 4);
    r.uint(client_id, 8);
    r.uint(issued, 8);
    r.uint(expires, 8);
    r.raw(nonce, kTokenNonceBytes);
    if (!r.uint(address_len, 1) || address_len == 0 || address_len > kMaxTokenAddressBytes)
        return malformed("bad server address length");
    if (!r.raw(address, address_len)) return malformed("token truncated");
    if (!r.uint(user_len, 2) || user_len > kMaxTokenUserDataBytes) return malformed("bad user data length");
    if (!r.raw(user_data, user_len)) return malformed("token truncated");
    const std::size_t clear_len = r.position();
    std::span<const std::uint8_t> sealed;
    if (!r.raw(sealed, kSealedKeysBytes)) return malformed("token truncated");
    const std::size_t signed_len = r.position();
    if (!r.raw(signature, kSignatureBytes)) return malformed("token truncated");
    if (r.remaining() != 0) return malformed("trailing bytes after the signature");

    Parsed p;
    TokenFields& f = p.fields;
    f.game_id = static_cast<std::uint32_t>(game_id);
    f.client_id = client_id;
    f.issued_at = Micros{static_cast<std::int64_t>(issued)};
    f.expires_at = Micros{static_cast<std::int64_t>(expires)};
    std::copy(nonce.begin(), nonce.end(), f.nonce.begin());
    f.server_address.assign(address.begin(), address.end());
    f.user_data.assign(user_data.begin(), user_data.end());
    if (!address_ok(f.server_address)) return malformed("bad characters in the server address");
    if (f.expires_at <= f.issued_at) return malformed("expiry not after issue time");
    p.clear_part = bytes.first(clear_len);
    p.sealed_keys = sealed;
    p.signed_part = bytes.first(signed_len);
    p.signature = signature;
    return p;
}

Error refused(TokenError e) { return Error{Errc::rejected, token_error_name(e)}; }

/// a > b + slack without overflow (slack >= 0).
bool beyond(Micros a, Micros b, Micros slack) {
    if (b.count > std::numeric_limits<std::int64_t>::max() - slack.count) return false;
    return a > b + slack;
}

}  // namespace

Status TokenFields::validate() const {
    if (!address_ok(server_address))
        return Error{Errc::invalid_argument,
                     "server_address must be 1..128 printable characters without spaces"};
    if (user_data.size() > kMaxTokenUserDataBytes)
        return Error{Errc::invalid_argument, "user_data must be at most 256 bytes"};
    if (expires_at <= issued_at) return Error{Errc::invalid_argument, "expires_at must be after issued_at"};
    return {};
}

std::string_view token_error_name(TokenError e) {
    switch (e) {
        case TokenError::none:
            return "none";
        case TokenError::missing:
            return "missing";
        case TokenError::malformed:
            return "malformed";
        case TokenError::bad_signature:
            return "bad_signature";
        case TokenError::expired:
            return "expired";
        case TokenError::not_yet_valid:
            return "not_yet_valid";
        case TokenError::wrong_server:
            return "wrong_server";
        case TokenError::wrong_game:
            return "wrong_game";
        case TokenError::replayed:
            return "replayed";
        case TokenError::replay_cache_full:
            return "replay_cache_full";
        case TokenError::client_in_use:
            return "client_in_use";
        case TokenError::wrong_sealing_key:
            return "wrong_sealing_key";
    }
    return "unknown";
}

TokenError token_error(const Error& e) {
    if (e.code == Errc::ok) return TokenError::none;
    if (e.code == Errc::rejected) {
        for (std::size_t i = 1; i < kTokenErrorCount; ++i) {
            const auto t = static_cast<TokenError>(i);
            if (e.detail == token_error_name(t)) return t;
        }
    }
    return TokenError::malformed;
}

Result<std::vector<std::uint8_t>> mint_token(const TokenFields& fields, const SecretKey& key,
                                             const SealingKey& sealing_key) {
    if (Status s = fields.validate(); !s.ok()) return s.error();
    if (!fields.keys.usable())
        return Error{Errc::invalid_argument, "keys must be random: neither zero, nor equal to each other"};
    if (sealing_key.empty()) return Error{Errc::invalid_argument, "the sealing key is all zero"};
    if (!detail::init_sodium()) return Error{Errc::io_error, "libsodium failed to initialise"};
    std::vector<std::uint8_t> out;
    out.reserve(kMaxTokenBytes);
    encode_unsigned(fields, out);
    const std::size_t clear_len = out.size();
    std::array<std::uint8_t, kSessionKeysBytes> plain{};
    std::copy(fields.keys.client_to_server.begin(), fields.keys.client_to_server.end(), plain.begin());
    std::copy(fields.keys.server_to_client.begin(), fields.keys.server_to_client.end(),
              plain.begin() + kSessionKeyBytes);
    out.resize(clear_len + kSealedKeysBytes);
    const auto nonce = sealing_nonce(fields);
    crypto_aead_xchacha20poly1305_ietf_encrypt(out.data() + clear_len, nullptr, plain.data(), plain.size(),
                                               out.data(), clear_len, nullptr, nonce.data(),
                                               sealing_key.bytes.data());
    sodium_memzero(plain.data(), plain.size());
    const std::size_t signed_len = out.size();
    out.resize(signed_len + kSignatureBytes);
    crypto_sign_detached(out.data() + signed_len, nullptr, out.data(), signed_len, key.bytes.data());
    return out;
}

Result<TokenFields> decode_token(std::span<const std::uint8_t> bytes) {
    auto p = parse(bytes);
    if (!p.ok()) return p.error();
    return std::move(p->fields);
}

Result<TokenFields> verify_token(std::span<const std::uint8_t> bytes, const PublicKey& key,
                                 const SealingKey& sealing_key, std::uint32_t game_id,
                                 std::string_view this_server_address, Micros now, Micros max_clock_skew) {
    if (bytes.empty()) return refused(TokenError::missing);
    auto p = parse(bytes);
    if (!p.ok()) return p.error();
    if (!detail::init_sodium()) return Error{Errc::io_error, "libsodium failed to initialise"};
    // The signature first: until it checks out, no field may decide anything (not even which reason we give).
    if (crypto_sign_verify_detached(p->signature.data(), p->signed_part.data(), p->signed_part.size(),
                                    key.bytes.data()) != 0)
        return refused(TokenError::bad_signature);
    TokenFields& f = p->fields;
    std::array<std::uint8_t, kSessionKeysBytes> plain{};
    const auto nonce = sealing_nonce(f);
    if (crypto_aead_xchacha20poly1305_ietf_decrypt(
            plain.data(), nullptr, nullptr, p->sealed_keys.data(), p->sealed_keys.size(),
            p->clear_part.data(), p->clear_part.size(), nonce.data(), sealing_key.bytes.data()) != 0)
        return refused(TokenError::wrong_sealing_key);
    std::copy(plain.begin(), plain.begin() + kSessionKeyBytes, f.keys.client_to_server.begin());
    std::copy(plain.begin() + kSessionKeyBytes, plain.end(), f.keys.server_to_client.begin());
    sodium_memzero(plain.data(), plain.size());
    if (!f.keys.usable()) return malformed("the sealed keys are zero or equal to each other");
    if (f.game_id != game_id) return refused(TokenError::wrong_game);
    if (f.server_address != this_server_address) return refused(TokenError::wrong_server);
    if (now >= f.expires_at) return refused(TokenError::expired);
    if (beyond(f.issued_at, now, std::max(max_clock_skew, Micros{})))
        return refused(TokenError::not_yet_valid);
    return std::move(p->fields);
}

}  // namespace rwd::auth
