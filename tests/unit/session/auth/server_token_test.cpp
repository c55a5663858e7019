/// Server<G> with require_token over SimNetwork: each refused token keeps its reason and leaves no game
/// state.
#include "token_fixtures.hpp"
#include "unit/session/client_server/toy_harness.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace authtest;
namespace cs = rwd::client_server;
using auth::TokenError;

namespace {

constexpr const char* kSimServer = "server:1";  // toy::Match's server address as host:port
constexpr std::uint64_t kSeed = 8101;

/// The keys the backend handed out with `token` (sample_keys() of its client id and nonce), or some keys when
/// it does not even decode (the server refuses it before keys matter).
auth::SessionKeys keys_for(const std::vector<std::uint8_t>& token) {
    auto f = auth::decode_token(token);
    return f.ok() ? sample_keys(f->client_id, f->nonce[0]) : sample_keys(0, 0);
}

/// A match whose server requires tokens; the server's wall clock starts at kIssued (via clock_offset).
struct TokenMatch : toy::Match<> {
    explicit TokenMatch(std::uint64_t seed, int max_clients = 0)
        : toy::Match<>(seed, {}, server_config(max_clients)) {
        client_config.game_id = kGameId;
    }

    static cs::ServerConfig server_config(int max_clients) {
        cs::ServerConfig sc;
        sc.game_id = kGameId;
        sc.max_clients = max_clients;
        sc.require_token = requirement_for(kSimServer);
        return sc;
    }

    /// Adds and connects a client presenting `token`.
    int connect_with(std::vector<std::uint8_t> token) {
        client_config.session_keys = keys_for(token);
        client_config.connect_token = std::move(token);
        return connect_client();
    }

    int players_in_state() const {
        const auto& ps = server->state().players;
        return static_cast<int>(
            std::count_if(ps.begin(), ps.end(), [](const auto& p) { return p.present != 0; }));
    }

    std::uint64_t refusals(TokenError e) const {
        return server->stats().token_refusals[static_cast<std::size_t>(e)];
    }
};

std::vector<std::uint8_t> token_for(const auth::TokenFields& f,
                                    const auth::SecretKey& k = backend_keys().secret_key) {
    auto t = auth::mint_token(f, k, sealing_key());
    EXPECT_TRUE(t.ok());
    return t.ok() ? *t : std::vector<std::uint8_t>{};
}

std::vector<std::uint8_t> valid_token(std::uint64_t client_id = 42, std::uint8_t nonce_base = 1) {
    auth::TokenFields f = sample_fields(client_id, nonce_base);
    f.server_address = kSimServer;
    return token_for(f);
}

/// Connects one client with `token` to a fresh match and expects it refused for `why`, with nothing created.
void expect_refused(const std::vector<std::uint8_t>& token, TokenError why) {
    SCOPED_TRACE("seed=" + std::to_string(kSeed) + " reason=" + std::string(auth::token_error_name(why)));
    TokenMatch m(kSeed);
    const int c = m.connect_with(token);
    m.run(Micros{1'000'000});
    EXPECT_EQ(m.client(c).phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(m.client(c).stats().disconnect_code, cs::DisconnectCode::unauthorized);
    EXPECT_EQ(m.client(c).stats().token_error, why);
    EXPECT_EQ(m.refusals(why), 1u);
    EXPECT_EQ(m.server->stats().refused, 1u);
    EXPECT_EQ(m.server->stats().connects, 0u);
    EXPECT_EQ(m.server->seated_count(), 0);
    EXPECT_EQ(m.players_in_state(), 0);  // no player was ever added
}

}  // namespace

TEST(ServerToken, ValidTokenIsSeated) {
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    TokenMatch m(kSeed);
    const int c = m.connect_with(valid_token());
    ASSERT_TRUE(m.run_until_playing());
    EXPECT_EQ(m.client(c).stats().token_error, TokenError::none);
    EXPECT_EQ(m.server->seated_count(), 1);
    EXPECT_EQ(m.players_in_state(), 1);
    EXPECT_EQ(m.server->stats().refused, 0u);
}

TEST(ServerToken, MissingTokenIsRefused) { expect_refused({}, TokenError::missing); }

TEST(ServerToken, GarbageTokenIsRefusedAsMalformed) {
    expect_refused(std::vector<std::uint8_t>(200, 0x5A), TokenError::malformed);
}

TEST(ServerToken, ForgedTokenIsRefused) {
    auth::TokenFields f = sample_fields();
    f.server_address = kSimServer;
    expect_refused(token_for(f, other_keys().secret_key), TokenError::bad_signature);
}

TEST(ServerToken, TokenSealedForOtherServersIsRefused) {
    // Signed by our backend, but its keys sealed with another fleet's key: the refusal (in the clear, since
    // the server holds no keys for this client) still reaches the client with its reason.
    auth::TokenFields f = sample_fields();
    f.server_address = kSimServer;
    auto t = auth::mint_token(f, backend_keys().secret_key, other_sealing_key());
    ASSERT_TRUE(t.ok());
    expect_refused(*t, TokenError::wrong_sealing_key);
}

TEST(ServerToken, ASeatedClientTalksSealedBothWays) {
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    TokenMatch m(kSeed);
    const int c = m.connect_with(valid_token());
    ASSERT_TRUE(m.run_until_playing());
    m.run(Micros{1'000'000});
    const int slot = m.client(c).slot();
    ASSERT_GE(slot, 0);
    EXPECT_TRUE(m.server->client_stats(slot).encrypted);
    EXPECT_EQ(m.server->client_stats(slot).packets_rejected, 0u);
    EXPECT_GT(m.client(c).stats().snapshots_received, 20u);
    EXPECT_EQ(m.client(c).stats().malformed, 0u);
    // A client whose keys are not the token's cannot talk to the server: it is seated (the token is good),
    // but the seal of the accept does not open under the keys it derives, so it never plays (and never
    // sends a sealed packet).
    TokenMatch w(kSeed);
    w.client_config.connect_token = valid_token();
    w.client_config.session_keys = sample_keys(7, 7);
    const int d = w.connect_client();
    w.run(Micros{2'000'000});
    EXPECT_NE(w.client(d).phase(), cs::ClientPhase::playing);
    std::uint64_t refused = 0;
    for (auto n : w.client(d).stats().packets_rejected) refused += n;
    EXPECT_GT(w.client(d).stats().packets_rejected[static_cast<std::size_t>(auth::OpenError::forged)], 0u);
    EXPECT_GT(refused, 0u);
    EXPECT_EQ(w.server->stats().connects, 1u);  // the token was good: seated, then silent
}

TEST(ServerToken, AClientWithCredentialsWillNotPlayAServerWithoutTokensUnencrypted) {
    // The server seats anyone and accepts in the clear; a client holding credentials says so and leaves,
    // rather than wait forever for an accept it can open or play unencrypted.
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    toy::Match<> m(kSeed);
    m.client_config.connect_token = valid_token();
    m.client_config.session_keys = sample_keys();
    const int c = m.connect_client();
    m.run(Micros{2'000'000});
    EXPECT_EQ(m.client(c).phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(m.client(c).stats().disconnect_code, cs::DisconnectCode::bad_protocol);
    EXPECT_EQ(m.server->stats().connects, 1u);
    EXPECT_EQ(m.server->seated_count(), 0) << "the client closed its connection";
}

TEST(ServerToken, TamperedTokenIsRefused) {
    auto t = valid_token();
    t[9] ^= 0x01;  // the client id: a client trying to pass as someone else
    expect_refused(t, TokenError::bad_signature);
}

TEST(ServerToken, ExpiredTokenIsRefused) {
    auth::TokenFields f = sample_fields();
    f.server_address = kSimServer;
    f.issued_at = kIssued - Micros{60'000'000};
    f.expires_at = kIssued - Micros{30'000'000};
    expect_refused(token_for(f), TokenError::expired);
}

TEST(ServerToken, TokenFromTheFutureIsRefused) {
    auth::TokenFields f = sample_fields();
    f.server_address = kSimServer;
    f.issued_at = kIssued + Micros{60'000'000};
    f.expires_at = f.issued_at + kLifetime;
    expect_refused(token_for(f), TokenError::not_yet_valid);
}

TEST(ServerToken, WrongServerTokenIsRefused) {
    auth::TokenFields f = sample_fields();
    f.server_address = "server:2";
    expect_refused(token_for(f), TokenError::wrong_server);
}

TEST(ServerToken, WrongGameTokenIsRefused) {
    auth::TokenFields f = sample_fields();
    f.server_address = kSimServer;
    f.game_id = kGameId + 1;
    expect_refused(token_for(f), TokenError::wrong_game);
}

TEST(ServerToken, TokenReplayedElsewhereIsRefusedWhileAndAfterTheFirstPlays) {
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    TokenMatch m(kSeed);
    const auto token = valid_token();
    const int a = m.connect_with(token);
    ASSERT_TRUE(m.run_until_playing());
    const int b = m.connect_with(token);  // the same token from a second address
    m.run(Micros{1'000'000});
    EXPECT_EQ(m.client(b).stats().disconnect_code, cs::DisconnectCode::unauthorized);
    EXPECT_EQ(m.client(b).stats().token_error, TokenError::replayed);
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::playing);  // the honest holder is unaffected
    EXPECT_EQ(m.players_in_state(), 1);
    // The first connection leaves; the token is single-use, so it still cannot come back on a new connection.
    m.client(a).disconnect(m.now);
    m.run(Micros{500'000});
    EXPECT_EQ(m.players_in_state(), 0);
    const int c = m.connect_with(token);
    m.run(Micros{1'000'000});
    EXPECT_EQ(m.client(c).stats().token_error, TokenError::replayed);
    EXPECT_EQ(m.refusals(TokenError::replayed), 2u);
    EXPECT_EQ(m.players_in_state(), 0);
    // A fresh token for the same client gets in.
    const int d = m.connect_with(valid_token(42, 50));
    m.run(Micros{1'000'000});
    EXPECT_NE(m.client(d).phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(m.server->seated_count(), 1);
}

TEST(ServerToken, SecondConnectionOfTheSameClientIdIsRefused) {
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    TokenMatch m(kSeed);
    const int a = m.connect_with(valid_token(42, 1));
    ASSERT_TRUE(m.run_until_playing());
    const int b = m.connect_with(valid_token(42, 2));  // another genuine token, same account
    m.run(Micros{1'000'000});
    EXPECT_EQ(m.client(b).stats().token_error, TokenError::client_in_use);
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::playing);
    EXPECT_EQ(m.players_in_state(), 1);
}

TEST(ServerToken, FullServerDoesNotBurnTheToken) {
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    TokenMatch m(kSeed, 1);
    const int a = m.connect_with(valid_token(1, 1));
    ASSERT_TRUE(m.run_until_playing());
    const auto token = valid_token(2, 9);
    const int b = m.connect_with(token);
    m.run(Micros{1'000'000});
    EXPECT_EQ(m.client(b).stats().disconnect_code, cs::DisconnectCode::server_full);
    m.client(a).disconnect(m.now);
    m.run(Micros{500'000});
    const int c = m.connect_with(token);  // the same token, on a new connection, once a seat is free
    m.run(Micros{1'000'000});
    EXPECT_NE(m.client(c).phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(m.server->seated_count(), 1);
    EXPECT_EQ(m.server->stats().refused, 1u);
}

TEST(ServerToken, ConfigRefusesAnIncompleteRequirement) {
    cs::ServerConfig sc = TokenMatch::server_config(0);
    EXPECT_TRUE(sc.validate().ok());
    sc.require_token->server_address.clear();
    EXPECT_EQ(sc.validate().code(), rwd::Errc::invalid_config);
    sc = TokenMatch::server_config(0);
    sc.require_token->public_key = {};
    EXPECT_FALSE(sc.validate().ok());
    cs::ClientConfig cc;
    cc.connect_token.assign(auth::kMaxTokenBytes + 1, 0);
    EXPECT_FALSE(cc.validate().ok());
}

TEST(ServerToken, ALostLinkComesBackWithAFreshTokenOfTheSameAccount) {
    SCOPED_TRACE("seed=" + std::to_string(kSeed));
    TokenMatch m(kSeed);
    const auto first = valid_token(42, 1);
    const int a = m.connect_with(first);
    const int b = m.connect_with(valid_token(7, 3));
    ASSERT_TRUE(m.run_until_playing());
    m.client(a).set_input(toy::move(100, 0));
    m.run(Micros{500'000});
    const int slot = m.client(a).slot();
    rwd::transport::LinkConfig gone;
    gone.loss = 1.0;
    m.set_link(a, gone);
    m.run(Micros{6'500'000});
    ASSERT_TRUE(m.server->away(slot));
    ASSERT_EQ(m.client(a).phase(), cs::ClientPhase::reconnecting);
    m.set_link(a, {});
    m.run(Micros{6'000'000});
    // Its token served its first connection: the reconnection waits for a fresh one.
    EXPECT_TRUE(m.client(a).needs_credentials());
    EXPECT_EQ(m.client(a).stats().token_error, TokenError::replayed);
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::reconnecting);
    EXPECT_TRUE(m.server->away(slot));
    // The backend mints another for the same account: the seat comes back, sealed under new keys.
    const auto fresh = valid_token(42, 9);
    m.client(a).set_credentials(fresh, keys_for(fresh));
    m.run(Micros{3'000'000});
    EXPECT_EQ(m.client(a).phase(), cs::ClientPhase::playing);
    EXPECT_EQ(m.client(a).slot(), slot);
    EXPECT_EQ(m.client(a).stats().resumes, 1u);
    EXPECT_EQ(m.server->stats().resumes, 1u);
    EXPECT_TRUE(m.server->client_stats(slot).encrypted);
    EXPECT_EQ(m.players_in_state(), 2);
    EXPECT_GT(m.server->state().players[static_cast<std::size_t>(slot)].x, 0);
    // Another account's fresh token never takes it.
    EXPECT_EQ(m.client(b).phase(), cs::ClientPhase::playing);
}
