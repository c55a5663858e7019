/// Helpers of the client-server message tests: encode a message, and check that no proper prefix decodes.
#pragma once

#include <rewind/session/client_server/message_codec.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

namespace msgtest {

/// The bytes of `m` (a test failure when it does not encode).
template <class Msg>
std::vector<std::uint8_t> encode(Msg m) {
    std::vector<std::uint8_t> out;
    EXPECT_TRUE(rwd::client_server::encode_message(m, out).ok());
    return out;
}

/// Every proper prefix of an encoded message must be refused (never accepted, never a crash).
template <class Msg>
void expect_every_truncation_fails(const std::vector<std::uint8_t>& bytes) {
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        Msg m{};
        EXPECT_FALSE(rwd::client_server::decode_message(std::span(bytes.data(), n), m).ok())
            << "prefix of " << n << " bytes";
    }
}

}  // namespace msgtest
