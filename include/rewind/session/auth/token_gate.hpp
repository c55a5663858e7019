/// TokenRequirement and TokenGate: what a server demands of a client's connect token, and the check itself.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/auth/keys.hpp>
#include <rewind/session/auth/token_replay_cache.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace rwd::auth {

/// A server's token settings (ServerConfig::require_token). Tokens carry Unix-epoch microseconds from the
/// backend's clock; the session's `now` is whatever clock the app drives it with, so clock_offset turns one
/// into the other (the apps set it to wall clock minus their steady clock at start; tests leave both on one
/// clock).
struct TokenRequirement {
    PublicKey public_key{};    ///< the backend's public key
    SealingKey sealing_key{};  ///< the servers' sealing key: opens each token's connection keys
    /// Random bytes the app draws once per server process (not all zero): every seated connection's keys
    /// are derived from its token's keys, this and a counter, so no two connections share keys or nonces,
    /// not even one token seated again after a restart.
    ProcessSalt process_salt{};
    std::string server_address;  ///< "host:port" a token must name: this server's public address
    Micros clock_offset{};       ///< added to `now` to get the wall clock tokens are stamped with
    Micros max_clock_skew =
        kDefaultTokenClockSkew;          ///< how far ahead of us a token's issue time may be, >= 0
    std::size_t replay_capacity = 4096;  ///< live tokens remembered, 1..1'000'000 (see TokenReplayCache)

    /// Ok, or invalid_config naming the first field out of range.
    [[nodiscard]] Status validate() const;
};

/// The server side of authorized connections: verify() does the stateless checks of a hello's token, admit()
/// binds a verified token to the connection that presented it (refusing replays). Split so that a server can
/// refuse a full house between the two without burning the client's token.
class TokenGate {
public:
    /// A gate for `requirement` (validate() it first; an invalid one is a programmer error).
    explicit TokenGate(const TokenRequirement& requirement);

    /// verify_token() against the requirement and `game_id`, at session time `now` (clock_offset applied).
    [[nodiscard]] Result<TokenFields> verify(std::span<const std::uint8_t> token, std::uint32_t game_id,
                                             Micros now) const;
    /// Whether another connection already holds this token (replayed) or not (none); stores nothing.
    [[nodiscard]] TokenError check_replay(const TokenFields& token, std::uint64_t owner, Micros now) const;
    /// Binds a verified token to `owner` (the connection); none, replayed or replay_cache_full.
    [[nodiscard]] TokenError admit(const TokenFields& token, std::uint64_t owner, Micros now);
    /// The requirement in use.
    [[nodiscard]] const TokenRequirement& requirement() const { return requirement_; }
    /// The replay cache (for stats and tests).
    [[nodiscard]] const TokenReplayCache& replay_cache() const { return cache_; }

private:
    TokenRequirement requirement_;
    TokenReplayCache cache_;
};

}  // namespace rwd::auth
