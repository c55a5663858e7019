/// TokenRequirement::validate and TokenGate: the server's token check with its clock offset and replay cache.
#include <rewind/session/auth/token_gate.hpp>

#include <algorithm>
#include <cassert>

namespace rwd::auth {

Status TokenRequirement::validate() const {
    if (server_address.empty() || server_address.size() > kMaxTokenAddressBytes)
        return Error{Errc::invalid_config,
                     "require_token.server_address must be 1..128 characters (host:port)"};
    if (public_key == PublicKey{})
        return Error{Errc::invalid_config, "require_token.public_key is all zeros"};
    if (sealing_key.empty()) return Error{Errc::invalid_config, "require_token.sealing_key is all zeros"};
    if (std::all_of(process_salt.begin(), process_salt.end(), [](std::uint8_t b) { return b == 0; }))
        return Error{Errc::invalid_config, "require_token.process_salt is all zeros (draw it at random)"};
    if (max_clock_skew < Micros{})
        return Error{Errc::invalid_config, "require_token.max_clock_skew must be >= 0"};
    if (replay_capacity < 1 || replay_capacity > 1'000'000)
        return Error{Errc::invalid_config, "require_token.replay_capacity must be 1..1000000"};
    return {};
}

TokenGate::TokenGate(const TokenRequirement& requirement)
    : requirement_(requirement), cache_(requirement.replay_capacity) {
    assert(requirement.validate().ok());
}

Result<TokenFields> TokenGate::verify(std::span<const std::uint8_t> token, std::uint32_t game_id,
                                      Micros now) const {
    return verify_token(token, requirement_.public_key, requirement_.sealing_key, game_id,
                        requirement_.server_address, now + requirement_.clock_offset,
                        requirement_.max_clock_skew);
}

TokenError TokenGate::check_replay(const TokenFields& token, std::uint64_t owner, Micros now) const {
    return cache_.check(token, owner, now + requirement_.clock_offset);
}

TokenError TokenGate::admit(const TokenFields& token, std::uint64_t owner, Micros now) {
    return cache_.admit(token, owner, now + requirement_.clock_offset);
}

}  // namespace rwd::auth
