/// Property tests of connect tokens over random fields: round trip, and no tampered byte is ever accepted.
#include "token_fixtures.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

using namespace authtest;

namespace {

/// Random valid fields: printable addresses of every allowed length, any ids, any user data, any lifetime.
rc::Gen<auth::TokenFields> gen_fields() {
    return rc::gen::exec([] {
        auth::TokenFields f;
        f.game_id = *rc::gen::arbitrary<std::uint32_t>();
        f.client_id = *rc::gen::arbitrary<std::uint64_t>();
        const auto len = *rc::gen::inRange<std::size_t>(1, auth::kMaxTokenAddressBytes + 1);
        f.server_address = *rc::gen::container<std::string>(len, rc::gen::inRange<char>(0x21, 0x7F));
        f.issued_at =
            Micros{*rc::gen::inRange<std::int64_t>(-(std::int64_t{1} << 60), std::int64_t{1} << 60)};
        f.expires_at = f.issued_at + Micros{*rc::gen::inRange<std::int64_t>(1, std::int64_t{1} << 40)};
        const auto nonce = *rc::gen::container<std::vector<std::uint8_t>>(auth::kTokenNonceBytes,
                                                                          rc::gen::arbitrary<std::uint8_t>());
        std::copy(nonce.begin(), nonce.end(), f.nonce.begin());
        const auto ud = *rc::gen::inRange<std::size_t>(0, auth::kMaxTokenUserDataBytes + 1);
        f.user_data = *rc::gen::container<std::vector<std::uint8_t>>(ud, rc::gen::arbitrary<std::uint8_t>());
        const auto keys = *rc::gen::container<std::vector<std::uint8_t>>(auth::kSessionKeysBytes,
                                                                         rc::gen::arbitrary<std::uint8_t>());
        std::copy(keys.begin(), keys.begin() + auth::kSessionKeyBytes, f.keys.client_to_server.begin());
        std::copy(keys.begin() + auth::kSessionKeyBytes, keys.end(), f.keys.server_to_client.begin());
        // Never zero, never equal to each other (mint refuses both).
        f.keys.client_to_server[0] = static_cast<std::uint8_t>(f.keys.client_to_server[0] | 1);
        f.keys.server_to_client[0] = static_cast<std::uint8_t>(f.keys.server_to_client[0] & 0xFE);
        f.keys.server_to_client[1] = static_cast<std::uint8_t>(f.keys.server_to_client[1] | 1);
        return f;
    });
}

}  // namespace

RC_GTEST_PROP(ConnectTokenProperty, MintedTokensVerifyToTheSameFields, ()) {
    const auth::TokenFields f = *gen_fields();
    auto bytes = auth::mint_token(f, backend_keys().secret_key, sealing_key());
    RC_ASSERT(bytes.ok());
    RC_ASSERT(bytes->size() <= auth::kMaxTokenBytes);
    // Any instant inside [issued_at, expires_at) is accepted.
    const auto span = (f.expires_at - f.issued_at).count;
    const Micros now = f.issued_at + Micros{*rc::gen::inRange<std::int64_t>(0, span)};
    auto got = auth::verify_token(*bytes, backend_keys().public_key, sealing_key(), f.game_id,
                                  f.server_address, now);
    RC_ASSERT(got.ok());
    RC_ASSERT(*got == f);
}

RC_GTEST_PROP(ConnectTokenProperty, AnyChangedByteIsRefused, ()) {
    const auth::TokenFields f = *gen_fields();
    auto bytes = auth::mint_token(f, backend_keys().secret_key, sealing_key());
    RC_ASSERT(bytes.ok());
    auto bad = *bytes;
    const auto at = *rc::gen::inRange<std::size_t>(0, bad.size());
    const auto flip = *rc::gen::inRange<int>(1, 256);
    bad[at] = static_cast<std::uint8_t>(bad[at] ^ flip);
    auto got = auth::verify_token(bad, backend_keys().public_key, sealing_key(), f.game_id, f.server_address,
                                  f.issued_at);
    RC_ASSERT(!got.ok());
    const auto e = auth::token_error(got.error());
    RC_ASSERT(e == auth::TokenError::bad_signature || e == auth::TokenError::malformed);
}

RC_GTEST_PROP(ConnectTokenProperty, RandomBytesNeverVerify, ()) {
    const auto n = *rc::gen::inRange<std::size_t>(0, auth::kMaxTokenBytes + 64);
    const auto junk = *rc::gen::container<std::vector<std::uint8_t>>(n, rc::gen::arbitrary<std::uint8_t>());
    auto got = auth::verify_token(junk, backend_keys().public_key, sealing_key(), kGameId, kServer, kIssued);
    RC_ASSERT(!got.ok());
}
