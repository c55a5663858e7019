/// Tests of TokenReplayCache: one owner per live token, repeats by the owner, capacity, expiry and reuse.
#include "token_fixtures.hpp"

#include <rewind/session/auth/token_replay_cache.hpp>

#include <gtest/gtest.h>

using namespace authtest;
using auth::TokenError;

TEST(TokenReplayCache, SecondConnectionWithTheSameTokenIsAReplay) {
    auth::TokenReplayCache cache(8);
    const auth::TokenFields t = sample_fields();
    EXPECT_EQ(cache.admit(t, 1, kIssued), TokenError::none);
    EXPECT_EQ(cache.admit(t, 1, kIssued + Micros{5}), TokenError::none);  // the owner repeating its hello
    EXPECT_EQ(cache.admit(t, 2, kIssued + Micros{10}), TokenError::replayed);
    EXPECT_EQ(cache.live(kIssued), 1u);
}

TEST(TokenReplayCache, ReplayedLaterStillRefusedUntilExpiry) {
    auth::TokenReplayCache cache(8);
    const auth::TokenFields t = sample_fields();
    ASSERT_EQ(cache.admit(t, 1, kIssued), TokenError::none);
    // The first connection is long gone; the token is still single-use while it lives.
    EXPECT_EQ(cache.admit(t, 3, t.expires_at - Micros{1}), TokenError::replayed);
    EXPECT_EQ(cache.live(t.expires_at), 0u);
    // After expiry verify_token refuses it anyway; the cache has forgotten it and reuses the entry.
    EXPECT_EQ(cache.admit(t, 3, t.expires_at), TokenError::none);
}

TEST(TokenReplayCache, KeyIsClientIdAndNonce) {
    auth::TokenReplayCache cache(8);
    EXPECT_EQ(cache.admit(sample_fields(42, 1), 1, kIssued), TokenError::none);
    EXPECT_EQ(cache.admit(sample_fields(43, 1), 2, kIssued), TokenError::none);  // same nonce, other client
    EXPECT_EQ(cache.admit(sample_fields(42, 2), 3, kIssued), TokenError::none);  // same client, fresh token
    EXPECT_EQ(cache.admit(sample_fields(42, 1), 4, kIssued), TokenError::replayed);
    EXPECT_EQ(cache.live(kIssued), 3u);
}

TEST(TokenReplayCache, FullOfLiveTokensRefusesNewOnesThenRecoversAsTheyExpire) {
    constexpr std::size_t kCap = 4;
    auth::TokenReplayCache cache(kCap);
    EXPECT_EQ(cache.capacity(), kCap);
    for (std::uint64_t i = 0; i < kCap; ++i) {
        auth::TokenFields t = sample_fields(100 + i);
        t.expires_at = kIssued + Micros{static_cast<std::int64_t>(1000 * (i + 1))};
        ASSERT_EQ(cache.admit(t, i + 1, kIssued), TokenError::none);
    }
    const auth::TokenFields extra = sample_fields(999);
    EXPECT_EQ(cache.admit(extra, 50, kIssued), TokenError::replay_cache_full);
    // Fail closed: the cache never forgot a live token to make room, so every one is still refused elsewhere.
    for (std::uint64_t i = 0; i < kCap; ++i)
        EXPECT_EQ(cache.admit(sample_fields(100 + i), 77, kIssued), TokenError::replayed);
    // The first token expires at kIssued + 1000: its entry is reused.
    EXPECT_EQ(cache.admit(extra, 50, kIssued + Micros{1000}), TokenError::none);
    EXPECT_EQ(cache.live(kIssued + Micros{1000}), kCap);
    EXPECT_EQ(cache.admit(sample_fields(1000), 51, kIssued + Micros{1000}), TokenError::replay_cache_full);
    EXPECT_EQ(cache.live(kIssued + kLifetime), 0u);
}

TEST(TokenReplayCache, ZeroCapacityStillHoldsOne) {
    auth::TokenReplayCache cache(0);
    EXPECT_EQ(cache.capacity(), 1u);
    EXPECT_EQ(cache.admit(sample_fields(1), 1, kIssued), TokenError::none);
    EXPECT_EQ(cache.admit(sample_fields(2), 2, kIssued), TokenError::replay_cache_full);
}

TEST(TokenReplayCache, CheckLooksWithoutStoring) {
    auth::TokenReplayCache cache(1);
    const auth::TokenFields t = sample_fields();
    EXPECT_EQ(cache.check(t, 1, kIssued), TokenError::none);
    EXPECT_EQ(cache.live(kIssued), 0u);
    ASSERT_EQ(cache.admit(t, 1, kIssued), TokenError::none);
    EXPECT_EQ(cache.check(t, 1, kIssued), TokenError::none);
    EXPECT_EQ(cache.check(t, 2, kIssued), TokenError::replayed);
    EXPECT_EQ(cache.check(t, 2, t.expires_at), TokenError::none);  // expired: forgotten
}
