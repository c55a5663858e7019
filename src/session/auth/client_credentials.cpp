/// ClientCredentials: the connect token and its keys as the one byte string a client is given.
#include <rewind/session/auth/connect_token.hpp>

#include <algorithm>

namespace rwd::auth {

namespace {
constexpr std::array<std::uint8_t, 4> kCredentialsMagic{'R', 'W', 'C', 'C'};
}  // namespace

std::vector<std::uint8_t> encode_credentials(const ClientCredentials& c) {
    // Sized once and filled by index (GCC 12 misreads insert() after reserve() as an overflow).
    constexpr std::size_t head = kCredentialsMagic.size() + kSessionKeysBytes;
    std::vector<std::uint8_t> out(head + c.token.size());
    for (std::size_t i = 0; i < kCredentialsMagic.size(); ++i) out[i] = kCredentialsMagic[i];
    for (std::size_t i = 0; i < kSessionKeyBytes; ++i) {
        out[kCredentialsMagic.size() + i] = c.keys.client_to_server[i];
        out[kCredentialsMagic.size() + kSessionKeyBytes + i] = c.keys.server_to_client[i];
    }
    for (std::size_t i = 0; i < c.token.size(); ++i) out[head + i] = c.token[i];
    return out;
}

Result<ClientCredentials> decode_credentials(std::span<const std::uint8_t> bytes) {
    constexpr std::size_t head = kCredentialsMagic.size() + kSessionKeysBytes;
    if (bytes.size() < head || !std::equal(kCredentialsMagic.begin(), kCredentialsMagic.end(), bytes.begin()))
        return Error{Errc::malformed, "not client credentials (rewind-token mint prints them)"};
    if (bytes.size() - head > kMaxTokenBytes) return Error{Errc::malformed, "the token in them is too long"};
    if (bytes.size() == head) return Error{Errc::malformed, "credentials without a token"};
    ClientCredentials c;
    for (std::size_t i = 0; i < kSessionKeyBytes; ++i) {
        c.keys.client_to_server[i] = bytes[kCredentialsMagic.size() + i];
        c.keys.server_to_client[i] = bytes[kCredentialsMagic.size() + kSessionKeyBytes + i];
    }
    c.token.assign(bytes.begin() + head, bytes.end());
    return c;
}

}  // namespace rwd::auth
