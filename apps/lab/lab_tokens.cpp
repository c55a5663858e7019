// LabTokens: keys and tokens derived from the pass's seed with BLAKE2b.
#include "lab_tokens.hpp"

#include <sodium.h>

#include <stdexcept>
#include <utility>

namespace lab {

namespace {

constexpr rwd::Micros kEpoch{1'800'000'000'000'000};  // the wall clock at session time 0 (a Unix time)

/// 32 bytes of BLAKE2b over (what, seed, n).
template <class Out>
void derive(Out& out, char what, std::uint64_t seed, std::uint64_t n) {
    unsigned char in[17];
    in[0] = static_cast<unsigned char>(what);
    for (int i = 0; i < 8; ++i) {
        in[1 + i] = static_cast<unsigned char>(seed >> (8 * i));
        in[9 + i] = static_cast<unsigned char>(n >> (8 * i));
    }
    crypto_generichash(out.data(), out.size(), in, sizeof in, nullptr, 0);
}

}  // namespace

LabTokens::LabTokens(std::uint64_t seed, std::string server_address)
    : seed_(seed), server_address_(std::move(server_address)) {
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to start");
    rwd::auth::KeySeed s{};
    derive(s, 'b', seed, 0);
    backend_ = rwd::auth::generate_keypair(s);
    sealing_ = rwd::auth::derive_sealing_key(s);
}

rwd::auth::TokenRequirement LabTokens::requirement() const {
    rwd::auth::TokenRequirement r;
    r.public_key = backend_.public_key;
    r.sealing_key = sealing_;
    r.server_address = server_address_;
    r.clock_offset = kEpoch;
    derive(r.process_salt, 'p', seed_, 0);
    return r;
}

rwd::auth::ClientCredentials LabTokens::credentials(std::uint64_t client_id) const {
    rwd::auth::TokenFields f;
    f.game_id = 0;
    f.client_id = client_id;
    f.server_address = server_address_;
    f.issued_at = kEpoch;
    f.expires_at = kEpoch + rwd::Micros{86'400'000'000};
    std::array<std::uint8_t, 32> nonce{};
    derive(nonce, 'n', seed_, client_id);
    std::copy(nonce.begin(), nonce.begin() + f.nonce.size(), f.nonce.begin());
    derive(f.keys.client_to_server, 'c', seed_, client_id);
    derive(f.keys.server_to_client, 's', seed_, client_id);
    return {rwd::auth::mint_token(f, backend_.secret_key, sealing_).value(), f.keys};
}

}  // namespace lab
