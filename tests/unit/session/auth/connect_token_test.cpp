/// Tests of connect tokens: round trip, every refusal reason, tampering, truncation and size bounds.
#include "token_fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace authtest;
using auth::TokenError;

namespace {

std::vector<std::uint8_t> mint(const auth::TokenFields& f,
                               const auth::SecretKey& k = backend_keys().secret_key) {
    auto t = auth::mint_token(f, k, sealing_key());
    EXPECT_TRUE(t.ok()) << t.error().detail;
    return t.ok() ? *t : std::vector<std::uint8_t>{};
}

TokenError check(std::span<const std::uint8_t> bytes, Micros now = kIssued + Micros{1'000'000},
                 std::string_view server = kServer, std::uint32_t game = kGameId) {
    return auth::token_error(
        auth::verify_token(bytes, backend_keys().public_key, sealing_key(), game, server, now).error());
}

}  // namespace

TEST(ConnectToken, RoundTripKeepsEveryField) {
    const auth::TokenFields f = sample_fields();
    const auto bytes = mint(f);
    EXPECT_EQ(bytes.size(), auth::kMinTokenBytes + f.server_address.size() + f.user_data.size());
    auto got = auth::verify_token(bytes, backend_keys().public_key, sealing_key(), kGameId, kServer, kIssued);
    ASSERT_TRUE(got.ok()) << got.error().detail;
    EXPECT_EQ(*got, f);
    auto decoded = auth::decode_token(bytes);
    ASSERT_TRUE(decoded.ok());
    auth::TokenFields without_keys = f;
    without_keys.keys = {};  // sealed: decoding alone does not open them
    EXPECT_EQ(*decoded, without_keys);
}

TEST(ConnectToken, MintingIsDeterministic) {
    // Ed25519 signatures are deterministic: same fields and key, same bytes (no hidden randomness).
    EXPECT_EQ(mint(sample_fields()), mint(sample_fields()));
    EXPECT_NE(mint(sample_fields(42, 1)), mint(sample_fields(42, 2)));
}

TEST(ConnectToken, MissingToken) {
    EXPECT_EQ(check({}), TokenError::missing);
    auto r = auth::verify_token({}, backend_keys().public_key, sealing_key(), kGameId, kServer, kIssued);
    EXPECT_EQ(r.code(), rwd::Errc::rejected);
    EXPECT_EQ(r.error().detail, "missing");
}

TEST(ConnectToken, ForgedWithAnotherKey) {
    const auto forged = mint(sample_fields(), other_keys().secret_key);
    EXPECT_EQ(check(forged), TokenError::bad_signature);
    // The forger's own public key would accept it: the server must hold the backend's key.
    EXPECT_TRUE(
        auth::verify_token(forged, other_keys().public_key, sealing_key(), kGameId, kServer, kIssued).ok());
}

TEST(ConnectToken, ExpiredAtAndAfterExpiry) {
    const auto bytes = mint(sample_fields());
    EXPECT_EQ(check(bytes, kIssued + kLifetime - Micros{1}), TokenError::none);
    EXPECT_EQ(check(bytes, kIssued + kLifetime), TokenError::expired);
    EXPECT_EQ(check(bytes, kIssued + kLifetime * 1000), TokenError::expired);
}

TEST(ConnectToken, NotYetValidBeyondTheSkew) {
    const auto bytes = mint(sample_fields());
    EXPECT_EQ(check(bytes, kIssued - auth::kDefaultTokenClockSkew), TokenError::none);  // server clock behind
    EXPECT_EQ(check(bytes, kIssued - auth::kDefaultTokenClockSkew - Micros{1}), TokenError::not_yet_valid);
    auto strict = auth::verify_token(bytes, backend_keys().public_key, sealing_key(), kGameId, kServer,
                                     kIssued - Micros{1}, Micros{});
    EXPECT_EQ(auth::token_error(strict.error()), TokenError::not_yet_valid);
    // Extreme clocks do not overflow the comparison.
    EXPECT_EQ(check(bytes, Micros{INT64_MIN}), TokenError::not_yet_valid);
    EXPECT_EQ(check(bytes, Micros{INT64_MAX}), TokenError::expired);
}

TEST(ConnectToken, WrongServerAndWrongGame) {
    const auto bytes = mint(sample_fields());
    EXPECT_EQ(check(bytes, kIssued, "203.0.113.7:40001"), TokenError::wrong_server);
    EXPECT_EQ(check(bytes, kIssued, "203.0.113.7"), TokenError::wrong_server);
    EXPECT_EQ(check(bytes, kIssued, ""), TokenError::wrong_server);
    EXPECT_EQ(check(bytes, kIssued, kServer, kGameId + 1), TokenError::wrong_game);
}

TEST(ConnectToken, EveryReasonHasADistinctReadableName) {
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < auth::kTokenErrorCount; ++i) {
        const auto e = static_cast<TokenError>(i);
        names.push_back(auth::token_error_name(e));
        EXPECT_NE(names.back(), "unknown");
        if (e != TokenError::none && e != TokenError::malformed) {
            EXPECT_EQ(auth::token_error(rwd::Error{rwd::Errc::rejected, names.back()}), e);
        }
    }
    std::sort(names.begin(), names.end());
    EXPECT_EQ(std::unique(names.begin(), names.end()), names.end());
    EXPECT_EQ(auth::token_error(rwd::Error{}), TokenError::none);
}

TEST(ConnectToken, FlippingAnyBitOfAnyByteInvalidatesIt) {
    const auto good = mint(sample_fields());
    for (std::size_t i = 0; i < good.size(); ++i) {
        for (int bit = 0; bit < 8; bit += 3) {
            auto bad = good;
            bad[i] = static_cast<std::uint8_t>(bad[i] ^ (1u << bit));
            const TokenError e = check(bad);
            // A length or magic change breaks the structure; anything else breaks the signature.
            EXPECT_TRUE(e == TokenError::bad_signature || e == TokenError::malformed)
                << "byte " << i << " bit " << bit << ": " << auth::token_error_name(e);
        }
    }
}

TEST(ConnectToken, EveryTruncationAndAnyExtensionIsMalformed) {
    const auto good = mint(sample_fields());
    for (std::size_t n = 1; n < good.size(); ++n)
        EXPECT_EQ(check(std::span(good).first(n)), TokenError::malformed) << "length " << n;
    auto longer = good;
    longer.push_back(0);
    EXPECT_EQ(check(longer), TokenError::malformed);
    std::vector<std::uint8_t> huge(auth::kMaxTokenBytes + 1, 0x41);
    EXPECT_EQ(check(huge), TokenError::malformed);
    EXPECT_EQ(auth::decode_token(huge).error().detail, "token too long");
}

TEST(ConnectToken, LargestTokenFitsTheBound) {
    auth::TokenFields f = sample_fields();
    f.server_address = std::string(auth::kMaxTokenAddressBytes, 'a');
    f.user_data.assign(auth::kMaxTokenUserDataBytes, 0xEE);
    const auto bytes = mint(f);
    EXPECT_EQ(bytes.size(), auth::kMaxTokenBytes);
    auto got = auth::verify_token(bytes, backend_keys().public_key, sealing_key(), kGameId, f.server_address,
                                  kIssued);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(*got, f);
}

TEST(ConnectToken, MintRefusesFieldsATokenCannotCarry) {
    const auth::SecretKey& k = backend_keys().secret_key;
    auth::TokenFields f = sample_fields();
    f.server_address.clear();
    EXPECT_EQ(auth::mint_token(f, k, sealing_key()).code(), rwd::Errc::invalid_argument);
    f.server_address = std::string(auth::kMaxTokenAddressBytes + 1, 'a');
    EXPECT_FALSE(auth::mint_token(f, k, sealing_key()).ok());
    f.server_address = "host with space:1";
    EXPECT_FALSE(auth::mint_token(f, k, sealing_key()).ok());
    f = sample_fields();
    f.user_data.assign(auth::kMaxTokenUserDataBytes + 1, 0);
    EXPECT_FALSE(auth::mint_token(f, k, sealing_key()).ok());
    f = sample_fields();
    f.expires_at = f.issued_at;
    EXPECT_FALSE(auth::mint_token(f, k, sealing_key()).ok());
}

TEST(ConnectToken, StructuralLiesAreMalformedNotTrusted) {
    const auto good = mint(sample_fields());
    auto bad_magic = good;
    bad_magic[0] = 'X';
    EXPECT_EQ(auth::decode_token(bad_magic).error().detail, "not a connect token (bad magic)");
    auto bad_version = good;
    bad_version[4] = 1;  // the first layout, without sealed keys
    EXPECT_EQ(auth::decode_token(bad_version).error().detail, "unsupported token version");
    auto zero_address = good;
    zero_address[49] = 0;
    EXPECT_EQ(check(zero_address), TokenError::malformed);
    auto long_address = good;
    long_address[49] = 0xFF;  // claims 255 bytes: beyond the maximum, refused before it is read
    EXPECT_EQ(auth::decode_token(long_address).error().detail, "bad server address length");
    auto long_user = good;
    const std::size_t ul = 50 + sample_fields().server_address.size();
    long_user[ul] = 0xFF;
    long_user[ul + 1] = 0xFF;  // claims 65535 bytes of user data
    EXPECT_EQ(auth::decode_token(long_user).error().detail, "bad user data length");
}

TEST(ConnectToken, KeysAreSealedForTheServersAndOpenOnlyWithTheirKey) {
    const auth::TokenFields f = sample_fields();
    const auto bytes = mint(f);
    // The keys never appear in the clear, and decoding without the sealing key does not reveal them.
    const auto& k = f.keys.client_to_server;
    EXPECT_EQ(std::search(bytes.begin(), bytes.end(), k.begin(), k.begin() + 8), bytes.end());
    EXPECT_TRUE(auth::decode_token(bytes)->keys.empty());
    auto opened =
        auth::verify_token(bytes, backend_keys().public_key, sealing_key(), kGameId, kServer, kIssued);
    ASSERT_TRUE(opened.ok());
    EXPECT_EQ(opened->keys, f.keys);
    // Another fleet's sealing key: signed by our backend, but not sealed for this server.
    auto other =
        auth::verify_token(bytes, backend_keys().public_key, other_sealing_key(), kGameId, kServer, kIssued);
    EXPECT_EQ(auth::token_error(other.error()), TokenError::wrong_sealing_key);
    // A backend with the wrong sealing key signs tokens no server of ours opens.
    auto wrong = auth::mint_token(f, backend_keys().secret_key, other_sealing_key());
    ASSERT_TRUE(wrong.ok());
    EXPECT_EQ(check(*wrong), TokenError::wrong_sealing_key);
}

TEST(ConnectToken, MintRefusesMissingKeys) {
    auth::TokenFields f = sample_fields();
    f.keys = {};
    EXPECT_EQ(auth::mint_token(f, backend_keys().secret_key, sealing_key()).code(),
              rwd::Errc::invalid_argument);
    EXPECT_EQ(auth::mint_token(sample_fields(), backend_keys().secret_key, auth::SealingKey{}).code(),
              rwd::Errc::invalid_argument);
}

TEST(ClientCredentials, RoundTripAndRefuseWhatIsNotCredentials) {
    const auth::ClientCredentials c{mint(sample_fields()), sample_keys()};
    const auto bytes = auth::encode_credentials(c);
    EXPECT_EQ(bytes.size(), 4 + auth::kSessionKeysBytes + c.token.size());
    auto back = auth::decode_credentials(bytes);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, c);
    EXPECT_FALSE(auth::decode_credentials(c.token).ok());  // a bare token
    EXPECT_FALSE(auth::decode_credentials(std::span(bytes).first(4 + auth::kSessionKeysBytes)).ok());
    for (std::size_t n = 0; n < 4 + auth::kSessionKeysBytes; ++n)
        EXPECT_FALSE(auth::decode_credentials(std::span(bytes).first(n)).ok()) << n;
    std::vector<std::uint8_t> huge = bytes;
    huge.resize(4 + auth::kSessionKeysBytes + auth::kMaxTokenBytes + 1, 0);
    EXPECT_FALSE(auth::decode_credentials(huge).ok());
}
