// LabTokens: the backend of a sealed lab pass (--encrypt): keys from the pass's seed, a token requirement for
// its server and every client's credentials, so the pass runs as a production match does.
#pragma once

#include <rewind/core/time.hpp>
#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/auth/token_gate.hpp>

#include <cstdint>
#include <string>

namespace lab {

/// Fixed keys (the lab draws no randomness: the same seed gives the same pass).
class LabTokens {
public:
    /// The backend and sealing keys of `seed`, for the server at `server_address` ("host:port").
    LabTokens(std::uint64_t seed, std::string server_address);

    /// What the server requires; session time 0 is the lab's token epoch.
    [[nodiscard]] rwd::auth::TokenRequirement requirement() const;
    /// The credentials of client `client_id`: a token valid for a day and its keys.
    [[nodiscard]] rwd::auth::ClientCredentials credentials(std::uint64_t client_id) const;

private:
    std::uint64_t seed_;
    std::string server_address_;
    rwd::auth::KeyPair backend_;
    rwd::auth::SealingKey sealing_;
};

}  // namespace lab
