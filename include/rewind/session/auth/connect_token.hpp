/// Connect tokens: a client's signed permission from the game backend to join one server, carrying its
/// connection's keys sealed for the servers; minted and verified; and the credentials a client connects with.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/auth/keys.hpp>
#include <rewind/session/auth/secure_channel.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rwd::auth {

/// Bytes of the token nonce (random per token; with the client id it names the token in the replay cache).
inline constexpr std::size_t kTokenNonceBytes = 16;
/// Longest server address a token may name ("host:port").
inline constexpr std::size_t kMaxTokenAddressBytes = 128;
/// Most bytes of application data a token may carry (readable by the client: signed, not encrypted).
inline constexpr std::size_t kMaxTokenUserDataBytes = 256;
/// Bytes of the sealed session keys inside a token (the keys and the XChaCha20-Poly1305 tag).
inline constexpr std::size_t kSealedKeysBytes = kSessionKeysBytes + 16;
/// Bytes of a token with an empty address and no user data, sealed keys and signature included (below
/// this: truncated).
inline constexpr std::size_t kMinTokenBytes = 52 + kSealedKeysBytes + kSignatureBytes;
/// Largest encoded token; anything longer is refused before it is parsed.
inline constexpr std::size_t kMaxTokenBytes = kMinTokenBytes + kMaxTokenAddressBytes + kMaxTokenUserDataBytes;
/// Version of the token layout (docs/SECURITY.md); tokens of other versions are malformed.
inline constexpr std::uint8_t kTokenVersion = 2;
/// How far in the future a token's issue time may lie (backend and server clocks disagree a little).
inline constexpr Micros kDefaultTokenClockSkew{10'000'000};

/// The random nonce of a token.
using TokenNonce = std::array<std::uint8_t, kTokenNonceBytes>;

/// What a token says. Times are microseconds since the Unix epoch on the backend's clock; the server compares
/// them with its own wall clock, so backend and servers must keep their clocks in sync (NTP) to within the
/// skew.
struct TokenFields {
    std::uint32_t game_id = 0;    ///< the game/build the token is for (ServerConfig::game_id)
    std::uint64_t client_id = 0;  ///< who the backend says this client is (unique per account)
    std::string server_address;   ///< the one server it admits to, "host:port", 1..kMaxTokenAddressBytes
    Micros issued_at{};           ///< when the backend minted it
    Micros expires_at{};          ///< first instant it is no longer valid; after issued_at
    TokenNonce nonce{};           ///< random bytes, fresh for every token
    std::vector<std::uint8_t> user_data;  ///< application data, at most kMaxTokenUserDataBytes
    /// The connection's keys, random for every token (the backend draws them): sealed in the token for the
    /// servers, handed to the client beside it (ClientCredentials). decode_token() leaves them zero.
    SessionKeys keys{};
    /// Same fields.
    friend bool operator==(const TokenFields&, const TokenFields&) = default;

    /// Ok, or invalid_argument naming the first field a token cannot carry.
    [[nodiscard]] Status validate() const;
};

/// Why a token was refused. Append only: the values travel in Disconnect messages and index ServerStats.
enum class TokenError : std::uint8_t {
    none = 0,           ///< accepted
    missing,            ///< the server requires a token and the client sent none
    malformed,          ///< truncated, too long, wrong magic or version, bad lengths or address characters
    bad_signature,      ///< not signed by the backend key: forged, or tampered with after signing
    expired,            ///< the server's clock is at or past expires_at
    not_yet_valid,      ///< issued further in the future than the allowed clock skew
    wrong_server,       ///< minted for a different server address
    wrong_game,         ///< minted for a different game id
    replayed,           ///< already used by another connection (token copied or stolen)
    replay_cache_full,  ///< the server cannot remember one more live token, so it refuses rather than forget
                        ///< one
    client_in_use,      ///< another live connection already plays as this client id
    wrong_sealing_key,  ///< signed by the backend, but its keys were sealed with another sealing key than
                        ///< this server's (a deployment mismatch)
};
/// Number of TokenError values (for per-reason counters).
inline constexpr std::size_t kTokenErrorCount = 12;
/// The readable name of a token error, e.g. "expired".
[[nodiscard]] std::string_view token_error_name(TokenError e);
/// The TokenError an error from verify_token() stands for (none for Errc::ok, malformed when unknown).
[[nodiscard]] TokenError token_error(const Error& e);

/// Seals `fields.keys` with the servers' sealing key (the token's nonce and client id make the nonce), signs
/// everything with the backend's secret key and returns the token bytes (at most kMaxTokenBytes). Fails with
/// invalid_argument when the fields do not validate() or carry no keys.
[[nodiscard]] Result<std::vector<std::uint8_t>> mint_token(const TokenFields& fields, const SecretKey& key,
                                                           const SealingKey& sealing_key);

/// Checks an untrusted token: structure, signature, the sealed keys, game id, server address, then times
/// against `now` (the server's wall clock, microseconds since the Unix epoch); the fields returned carry the
/// opened keys. Errors carry Errc::malformed (malformed tokens) or Errc::rejected with the reason's name as
/// detail; token_error() turns either into a TokenError.
[[nodiscard]] Result<TokenFields> verify_token(std::span<const std::uint8_t> bytes, const PublicKey& key,
                                               const SealingKey& sealing_key, std::uint32_t game_id,
                                               std::string_view this_server_address, Micros now,
                                               Micros max_clock_skew = kDefaultTokenClockSkew);

/// Parses a token WITHOUT checking its signature or opening its keys (for tools and diagnostics: nothing in
/// it can be trusted; `keys` stays zero).
[[nodiscard]] Result<TokenFields> decode_token(std::span<const std::uint8_t> bytes);

/// What a client connects with: the token for the server and, beside it, the keys the token seals (the
/// backend sends both to the client over its own authenticated, encrypted channel, such as HTTPS).
struct ClientCredentials {
    std::vector<std::uint8_t> token;  ///< the connect token, passed to the server in the hello
    SessionKeys keys{};               ///< its connection's keys
    /// Same token and keys.
    friend bool operator==(const ClientCredentials&, const ClientCredentials&) = default;
};
/// The credentials as one byte string: "RWCC", the keys (client to server first), the token.
[[nodiscard]] std::vector<std::uint8_t> encode_credentials(const ClientCredentials& credentials);
/// Credentials from encode_credentials() bytes; malformed on a wrong magic, a short string or a token longer
/// than kMaxTokenBytes (the token itself is checked by the server, not here).
[[nodiscard]] Result<ClientCredentials> decode_credentials(std::span<const std::uint8_t> bytes);

}  // namespace rwd::auth
