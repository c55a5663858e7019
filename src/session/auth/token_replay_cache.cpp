/// TokenReplayCache: a fixed table of accepted (client id, nonce) pairs bound to the connection that used
/// them.
#include <rewind/session/auth/token_replay_cache.hpp>

#include <algorithm>

namespace rwd::auth {

TokenReplayCache::TokenReplayCache(std::size_t capacity) : entries_(std::max<std::size_t>(capacity, 1)) {}

TokenError TokenReplayCache::admit(const TokenFields& token, std::uint64_t owner, Micros now) {
    Entry* free_slot = nullptr;
    for (Entry& e : entries_) {
        const bool live = e.used && now < e.expires_at;
        if (!live) {
            if (!free_slot) free_slot = &e;
            continue;
        }
        if (e.client_id == token.client_id && e.nonce == token.nonce) {
            // The same token again: fine from the connection that owns it (a repeated hello), a replay
            // otherwise.
            return e.owner == owner ? TokenError::none : TokenError::replayed;
        }
    }
    if (!free_slot) return TokenError::replay_cache_full;
    *free_slot = Entry{true, token.client_id, token.nonce, token.expires_at, owner};
    return TokenError::none;
}

TokenError TokenReplayCache::check(const TokenFields& token, std::uint64_t owner, Micros now) const {
    for (const Entry& e : entries_)
        if (e.used && now < e.expires_at && e.client_id == token.client_id && e.nonce == token.nonce)
            return e.owner == owner ? TokenError::none : TokenError::replayed;
    return TokenError::none;
}

std::size_t TokenReplayCache::live(Micros now) const {
    return static_cast<std::size_t>(std::count_if(
        entries_.begin(), entries_.end(), [&](const Entry& e) { return e.used && now < e.expires_at; }));
}

}  // namespace rwd::auth
