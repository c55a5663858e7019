/// Tests of the backend key pairs: determinism from the seed and the hex codec of key files.
#include "token_fixtures.hpp"

#include <gtest/gtest.h>

using namespace authtest;

TEST(AuthKeys, SameSeedGivesSameKeysOtherSeedOtherKeys) {
    const auth::KeyPair a = auth::generate_keypair(seed_from(7));
    const auth::KeyPair b = auth::generate_keypair(seed_from(7));
    const auth::KeyPair c = auth::generate_keypair(seed_from(8));
    EXPECT_EQ(a.public_key, b.public_key);
    EXPECT_EQ(a.secret_key.bytes, b.secret_key.bytes);
    EXPECT_NE(a.public_key, c.public_key);
    // libsodium's secret key is the seed followed by the public key.
    const auth::KeySeed s = seed_from(7);
    EXPECT_TRUE(std::equal(s.begin(), s.end(), a.secret_key.bytes.begin()));
    EXPECT_TRUE(
        std::equal(a.public_key.bytes.begin(), a.public_key.bytes.end(), a.secret_key.bytes.begin() + 32));
}

TEST(AuthKeys, HexRoundTripOfBothKeys) {
    const auth::KeyPair& kp = backend_keys();
    const std::string pub = auth::to_hex(kp.public_key.bytes);
    const std::string sec = auth::to_hex(kp.secret_key.bytes);
    EXPECT_EQ(pub.size(), 64u);
    EXPECT_EQ(sec.size(), 128u);
    auto p = auth::public_key_from_hex("  " + pub + "\n");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(*p, kp.public_key);
    auto s = auth::secret_key_from_hex(sec);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->bytes, kp.secret_key.bytes);
}

TEST(AuthKeys, BadHexIsRefused) {
    EXPECT_EQ(auth::from_hex("abc", 10).code(), rwd::Errc::malformed);    // odd digit count
    EXPECT_EQ(auth::from_hex("zz", 10).code(), rwd::Errc::malformed);     // not hex
    EXPECT_EQ(auth::from_hex("ab cd", 10).code(), rwd::Errc::malformed);  // inner space
    EXPECT_EQ(auth::from_hex("aabbcc", 2).code(), rwd::Errc::length_too_long);
    auto ok = auth::from_hex("00ff10", 3);
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(*ok, (std::vector<std::uint8_t>{0x00, 0xFF, 0x10}));
    EXPECT_TRUE(auth::from_hex("", 3).ok());
    const std::string pub = auth::to_hex(backend_keys().public_key.bytes);
    EXPECT_FALSE(auth::public_key_from_hex(pub.substr(0, 62)).ok());  // one byte short
    EXPECT_FALSE(auth::secret_key_from_hex(pub).ok());                // a public key is not a secret key
}
