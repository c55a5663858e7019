/// libFuzzer target: the connect token decoder and verifier on arbitrary bytes; whatever decodes must be a
/// token the minting code could have produced (valid fields, same length), and must never crash the replay
/// cache.
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/auth/keys.hpp>
#include <rewind/session/auth/token_replay_cache.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

namespace auth = rwd::auth;

namespace {

/// The key of the seed corpus (seed bytes 7, 8, ..., as in tests/unit/session/auth/token_fixtures.hpp), so
/// seeds get past the signature and reach the field checks.
const auth::KeyPair& corpus_keys() {
    static const auth::KeyPair kp = [] {
        auth::KeySeed s{};
        for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(7 + i);
        return auth::generate_keypair(s);
    }();
    return kp;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    auto decoded = auth::decode_token(bytes);
    const rwd::Micros now{1'700'000'000'000'000};
    auto verified = auth::verify_token(bytes, corpus_keys().public_key, 0xA11CE, "203.0.113.7:40000", now);
    if (verified.ok() && !decoded.ok()) std::abort();  // verification is decoding plus checks
    if (!verified.ok() && auth::token_error(verified.error()) == auth::TokenError::none) std::abort();
    if (!decoded.ok()) return 0;
    if (size > auth::kMaxTokenBytes) std::abort();
    if (!decoded->validate().ok()) std::abort();  // the decoder never hands out fields a token cannot carry
    if (verified.ok() && !(*verified == *decoded)) std::abort();
    // At the token's own issue time a correctly signed seed reaches the accept path too.
    auto at_issue = auth::verify_token(bytes, corpus_keys().public_key, decoded->game_id,
                                       decoded->server_address, decoded->issued_at);
    if (at_issue.ok() && !(*at_issue == *decoded)) std::abort();
    // Re-signing the decoded fields gives a token of exactly the same length (the layout is canonical).
    auto again = auth::mint_token(*decoded, corpus_keys().secret_key);
    if (!again.ok() || again->size() != size) std::abort();
    auth::TokenReplayCache cache(2);
    if (cache.admit(*decoded, 1, now) != auth::TokenError::none && now < decoded->expires_at) std::abort();
    if (now < decoded->expires_at && cache.admit(*decoded, 2, now) != auth::TokenError::replayed)
        std::abort();
    return 0;
}
