/// libFuzzer target: the connect token decoder and verifier on arbitrary bytes; whatever decodes must be a
/// token the minting code could have produced (valid fields, same length, keys only when opened), and must
/// never crash the replay cache.
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/auth/keys.hpp>
#include <rewind/session/auth/token_replay_cache.hpp>

#include <algorithm>
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

/// The sealing key of the same seed (as rewind-token keygen derives it), so seeds get past the sealed keys.
const auth::SealingKey& corpus_sealing_key() {
    static const auth::SealingKey k = [] {
        auth::KeySeed s{};
        for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(7 + i);
        return auth::derive_sealing_key(s);
    }();
    return k;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    auto decoded = auth::decode_token(bytes);
    const rwd::Micros now{1'700'000'000'000'000};
    auto verified = auth::verify_token(bytes, corpus_keys().public_key, corpus_sealing_key(), 0xA11CE,
                                       "203.0.113.7:40000", now);
    if (verified.ok() && !decoded.ok()) std::abort();  // verification is decoding plus checks
    if (!verified.ok() && auth::token_error(verified.error()) == auth::TokenError::none) std::abort();
    if (!decoded.ok()) return 0;
    if (size > auth::kMaxTokenBytes) std::abort();
    if (!decoded->validate().ok()) std::abort();  // the decoder never hands out fields a token cannot carry
    if (!decoded->keys.empty()) std::abort();     // the keys are sealed: decoding alone never reveals them
    // Verification opens the keys; everything else is the decoded fields.
    const auto same_but_keys = [&](auth::TokenFields f) {
        f.keys = {};
        return f == *decoded;
    };
    if (verified.ok() && !same_but_keys(*verified)) std::abort();
    // At the token's own issue time a correctly signed seed reaches the accept path too.
    auto at_issue = auth::verify_token(bytes, corpus_keys().public_key, corpus_sealing_key(),
                                       decoded->game_id, decoded->server_address, decoded->issued_at);
    if (at_issue.ok() && (!same_but_keys(*at_issue) || at_issue->keys.empty())) std::abort();
    // Re-minting the fields (with the opened keys, or any) gives a token of exactly the same length (the
    // layout is canonical); with the opened keys, exactly the same bytes.
    auth::TokenFields fields = at_issue.ok() ? *at_issue : *decoded;
    if (!fields.keys.usable()) {  // any usable keys: only the length is compared then
        fields.keys.client_to_server[0] = 1;
        fields.keys.server_to_client[0] = 2;
    }
    auto again = auth::mint_token(fields, corpus_keys().secret_key, corpus_sealing_key());
    if (!again.ok() || again->size() != size) std::abort();
    if (at_issue.ok() && !std::equal(again->begin(), again->end(), bytes.begin())) std::abort();
    auth::TokenReplayCache cache(2);
    if (cache.admit(*decoded, 1, now) != auth::TokenError::none && now < decoded->expires_at) std::abort();
    if (now < decoded->expires_at && cache.admit(*decoded, 2, now) != auth::TokenError::replayed)
        std::abort();
    return 0;
}
