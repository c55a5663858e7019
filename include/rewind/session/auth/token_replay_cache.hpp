/// TokenReplayCache: remembers the live connect tokens a server has accepted, so a copied token is refused.
#pragma once

#include <rewind/core/time.hpp>
#include <rewind/session/auth/connect_token.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rwd::auth {

/// A fixed-size table of accepted tokens, keyed by (client id, nonce), each bound to the connection that
/// first presented it. A token stays bound until it expires: while it lives, only that connection may present
/// it again (a retransmitted hello); any other connection, at the same time or later, is refused as a replay.
/// Expired entries are reused; when every entry is live the cache refuses new tokens (fail closed) instead of
/// forgetting one that could then be replayed. Size it for (connects per second) x (token lifetime).
class TokenReplayCache {
public:
    /// A cache of `capacity` entries (at least 1), allocated once here; it never grows.
    explicit TokenReplayCache(std::size_t capacity);

    /// Admits `token` for `owner` (the server's id for the connection) at `now` (the clock tokens are checked
    /// against): none when it is new or already bound to `owner`, replayed when another owner holds it,
    /// replay_cache_full when there is no room. Linear in capacity; hellos are rare.
    [[nodiscard]] TokenError admit(const TokenFields& token, std::uint64_t owner, Micros now);

    /// What admit() would say about a token already held (none or replayed), without storing anything.
    [[nodiscard]] TokenError check(const TokenFields& token, std::uint64_t owner, Micros now) const;
    /// Live (unexpired) entries at `now`.
    [[nodiscard]] std::size_t live(Micros now) const;
    /// Entries the cache holds at most.
    [[nodiscard]] std::size_t capacity() const { return entries_.size(); }

private:
    struct Entry {
        bool used = false;
        std::uint64_t client_id = 0;
        TokenNonce nonce{};
        Micros expires_at{};
        std::uint64_t owner = 0;
    };
    std::vector<Entry> entries_;
};

}  // namespace rwd::auth
