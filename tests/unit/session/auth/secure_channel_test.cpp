/// Tests of SecureChannel: both lanes round trip, and every forged, altered, truncated, replayed, stale or
/// misdirected packet is refused without moving the replay window.
#include "token_fixtures.hpp"

#include <rewind/session/auth/secure_channel.hpp>

#include <gtest/gtest.h>

#include <vector>

using namespace authtest;
using auth::Lane;
using auth::OpenError;
using auth::SecureChannel;

namespace {

std::vector<std::uint8_t> bytes_of(std::size_t n, std::uint8_t base) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(base + i * 7);
    return v;
}

/// A client and a server channel of one connection.
struct Pair {
    SecureChannel client{sample_keys(), SecureChannel::Side::client};
    SecureChannel server{sample_keys(), SecureChannel::Side::server};

    std::vector<std::uint8_t> from_client(Lane lane, const std::vector<std::uint8_t>& plain) {
        std::vector<std::uint8_t> out;
        EXPECT_TRUE(client.seal(lane, plain, out).ok());
        return out;
    }
    OpenError at_server(Lane lane, const std::vector<std::uint8_t>& packet,
                        std::vector<std::uint8_t>* plain = nullptr) {
        std::vector<std::uint8_t> out;
        const OpenError e = server.open(lane, packet, out);
        if (plain) *plain = out;
        return e;
    }
};

}  // namespace

TEST(SecureChannel, BothDirectionsAndBothLanesRoundTrip) {
    Pair p;
    for (Lane lane : {Lane::unreliable, Lane::reliable}) {
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{200}, std::size_t{1200}}) {
            const auto plain = bytes_of(n, static_cast<std::uint8_t>(n));
            const auto sealed = p.from_client(lane, plain);
            EXPECT_EQ(sealed.size(), n + auth::kSealedOverheadBytes);
            std::vector<std::uint8_t> got;
            ASSERT_EQ(p.at_server(lane, sealed, &got), OpenError::none) << n;
            EXPECT_EQ(got, plain);
            std::vector<std::uint8_t> back, opened;
            ASSERT_TRUE(p.server.seal(lane, plain, back).ok());
            ASSERT_EQ(p.client.open(lane, back, opened), OpenError::none);
            EXPECT_EQ(opened, plain);
        }
    }
}

TEST(SecureChannel, APacketOpensOnlyOnTheOtherSideOfItsOwnConnectionAndLane) {
    Pair p;
    const auto sealed = p.from_client(Lane::unreliable, bytes_of(40, 1));
    std::vector<std::uint8_t> out;
    // Reflected back at its sender: the other direction's key.
    EXPECT_EQ(p.client.open(Lane::unreliable, sealed, out), OpenError::forged);
    // Another connection's keys.
    SecureChannel stranger(sample_keys(43, 1), SecureChannel::Side::server);
    EXPECT_EQ(stranger.open(Lane::unreliable, sealed, out), OpenError::forged);
    // The other lane: the lane is part of the nonce.
    EXPECT_EQ(p.at_server(Lane::reliable, sealed), OpenError::forged);
    EXPECT_EQ(p.at_server(Lane::unreliable, sealed), OpenError::none);
}

TEST(SecureChannel, FlippingAnyBitIsForgedAndTruncationIsRefused) {
    Pair p;
    const auto plain = bytes_of(64, 9);
    const auto good = p.from_client(Lane::unreliable, plain);
    for (std::size_t i = 0; i < good.size(); ++i)
        for (int bit = 0; bit < 8; ++bit) {
            auto bad = good;
            bad[i] = static_cast<std::uint8_t>(bad[i] ^ (1u << bit));
            EXPECT_EQ(p.at_server(Lane::unreliable, bad), OpenError::forged)
                << "byte " << i << " bit " << bit;
        }
    for (std::size_t n = 0; n < good.size(); ++n) {
        const std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        const OpenError e = p.at_server(Lane::unreliable, cut);
        EXPECT_EQ(e, n < auth::kSealedOverheadBytes ? OpenError::truncated : OpenError::forged) << n;
    }
    auto longer = good;
    longer.push_back(0);
    EXPECT_EQ(p.at_server(Lane::unreliable, longer), OpenError::forged);
    // None of that moved anything: the genuine packet still opens, once.
    std::vector<std::uint8_t> got;
    EXPECT_EQ(p.at_server(Lane::unreliable, good, &got), OpenError::none);
    EXPECT_EQ(got, plain);
    EXPECT_EQ(p.at_server(Lane::unreliable, good), OpenError::replayed);
}

TEST(SecureChannel, UnreliablePacketsOpenInAnyOrderOnceInsideTheWindow) {
    Pair p;
    std::vector<std::vector<std::uint8_t>> sent;
    for (int i = 0; i < 300; ++i)
        sent.push_back(p.from_client(Lane::unreliable, bytes_of(8, static_cast<std::uint8_t>(i))));
    // Newest first, then older ones back to the window's edge: all open once.
    EXPECT_EQ(p.at_server(Lane::unreliable, sent[299]), OpenError::none);
    for (int i = 298; i >= 299 - static_cast<int>(auth::kReplayWindowPackets) + 1; --i)
        EXPECT_EQ(p.at_server(Lane::unreliable, sent[static_cast<std::size_t>(i)]), OpenError::none) << i;
    EXPECT_EQ(p.at_server(Lane::unreliable, sent[299 - auth::kReplayWindowPackets]), OpenError::stale);
    EXPECT_EQ(p.at_server(Lane::unreliable, sent[0]), OpenError::stale);
    for (int i : {299, 200, 44})
        EXPECT_EQ(p.at_server(Lane::unreliable, sent[static_cast<std::size_t>(i)]), OpenError::replayed) << i;
}

TEST(SecureChannel, ReliablePacketsOpenOnlyWhenNewerThanTheLast) {
    Pair p;
    const auto a = p.from_client(Lane::reliable, bytes_of(10, 1));
    const auto b = p.from_client(Lane::reliable, bytes_of(10, 2));
    const auto c = p.from_client(Lane::reliable, bytes_of(10, 3));
    EXPECT_EQ(p.at_server(Lane::reliable, a), OpenError::none);
    EXPECT_EQ(p.at_server(Lane::reliable, c), OpenError::none);  // b lost (or withheld): c still opens
    EXPECT_EQ(p.at_server(Lane::reliable, b), OpenError::replayed);
    EXPECT_EQ(p.at_server(Lane::reliable, a), OpenError::replayed);
    EXPECT_EQ(p.at_server(Lane::reliable, c), OpenError::replayed);
}

TEST(SecureChannel, SequencesCarryOnPastSixteenBitsUnderReorderingAndLoss) {
    Pair p;
    // 70 000 packets (past 65 536) with 9 of 10 lost and neighbours swapped: the 16 bits on the wire
    // expand to the right sequence throughout.
    std::vector<std::uint8_t> prev;
    int opened = 0;
    for (int i = 0; i < 70'000; ++i) {
        auto s = p.from_client(Lane::unreliable, bytes_of(4, static_cast<std::uint8_t>(i)));
        if (i % 10 == 3) prev = s;
        if (i % 10 == 4) {
            ASSERT_EQ(p.at_server(Lane::unreliable, s), OpenError::none) << i;
            ASSERT_EQ(p.at_server(Lane::unreliable, prev), OpenError::none) << i;
            opened += 2;
        }
    }
    EXPECT_EQ(opened, 14'000);
}

TEST(SecureChannel, AForgedPacketClaimingAFarSequenceDoesNotMoveTheWindow) {
    Pair p;
    const auto first = p.from_client(Lane::unreliable, bytes_of(16, 1));
    auto forged = first;
    forged[0] = 0xFF;
    forged[1] = 0x7F;  // claims sequence 32767
    EXPECT_EQ(p.at_server(Lane::unreliable, forged), OpenError::forged);
    EXPECT_EQ(p.at_server(Lane::unreliable, first), OpenError::none);  // not stale: the window stayed put
}

TEST(SecureChannel, RestartingTheReceiverForgetsOnlyWhatWasReceived) {
    Pair p;
    const auto a = p.from_client(Lane::reliable, bytes_of(10, 1));
    EXPECT_EQ(p.at_server(Lane::reliable, a), OpenError::none);
    p.server.restart_receiving();
    EXPECT_EQ(p.at_server(Lane::reliable, a), OpenError::none);
    // The sender never reuses a sequence: two seals of the same bytes differ.
    EXPECT_NE(p.from_client(Lane::reliable, bytes_of(10, 1)), p.from_client(Lane::reliable, bytes_of(10, 1)));
}

TEST(SecureChannel, EveryRefusalHasADistinctName) {
    std::vector<std::string_view> names;
    for (std::size_t i = 0; i < auth::kOpenErrorCount; ++i) {
        names.push_back(auth::open_error_name(static_cast<OpenError>(i)));
        EXPECT_NE(names.back(), "unknown");
    }
    std::sort(names.begin(), names.end());
    EXPECT_EQ(std::unique(names.begin(), names.end()), names.end());
}
