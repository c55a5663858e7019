/// Tests of SecureChannel: both lanes round trip, and every forged, altered, truncated, replayed, stale or
/// misdirected packet is refused without moving the replay window.
#include "token_fixtures.hpp"

#include <rewind/session/auth/secure_channel.hpp>

#include <gtest/gtest.h>

#include <algorithm>
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

TEST(SecureChannel, TheSenderNeverRepeatsASequence) {
    Pair p;
    EXPECT_NE(p.from_client(Lane::reliable, bytes_of(10, 1)), p.from_client(Lane::reliable, bytes_of(10, 1)));
}

TEST(SecureChannel, WindowJumpsAcrossWordsKeepEveryBitRight) {
    // Open packets with jumps of 1, 63, 64, 65 and 200 sequences, then replay every one of them and try the
    // skipped ones: each opened one is refused, each skipped one inside the window opens once.
    Pair p;
    std::vector<std::vector<std::uint8_t>> sent;
    for (int i = 0; i < 600; ++i)
        sent.push_back(p.from_client(Lane::unreliable, bytes_of(3, static_cast<std::uint8_t>(i))));
    std::vector<int> opened{0};
    for (int jump : {1, 63, 64, 65, 200}) opened.push_back(opened.back() + jump);
    for (int i : opened)
        ASSERT_EQ(p.at_server(Lane::unreliable, sent[static_cast<std::size_t>(i)]), OpenError::none) << i;
    const int newest = opened.back();
    for (int i : opened) {
        const OpenError want = newest - i >= static_cast<int>(auth::kReplayWindowPackets)
                                   ? OpenError::stale
                                   : OpenError::replayed;
        EXPECT_EQ(p.at_server(Lane::unreliable, sent[static_cast<std::size_t>(i)]), want) << i;
    }
    for (int i = newest - static_cast<int>(auth::kReplayWindowPackets) + 1; i < newest; ++i) {
        if (std::find(opened.begin(), opened.end(), i) != opened.end()) continue;
        EXPECT_EQ(p.at_server(Lane::unreliable, sent[static_cast<std::size_t>(i)]), OpenError::none) << i;
        EXPECT_EQ(p.at_server(Lane::unreliable, sent[static_cast<std::size_t>(i)]), OpenError::replayed) << i;
    }
}

TEST(SecureChannel, EveryConnectionOfATokenHasItsOwnKeys) {
    // The same token seated twice (a replayed hello, a restarted server): other salts, other keys, so what
    // the first connection sent never opens on the second.
    const auth::SessionKeys token = sample_keys();
    const auth::ProcessSalt before = process_salt(1), after_restart = process_salt(2);
    const auth::SessionKeys a = auth::connection_keys(token, auth::connection_salt(before, 1));
    const auth::SessionKeys b = auth::connection_keys(token, auth::connection_salt(after_restart, 1));
    const auth::SessionKeys c = auth::connection_keys(token, auth::connection_salt(before, 2));
    EXPECT_TRUE(a.usable());
    EXPECT_NE(a, b);
    EXPECT_NE(a, c);
    EXPECT_NE(a.client_to_server, token.client_to_server);
    EXPECT_EQ(a, auth::connection_keys(token, auth::connection_salt(before, 1)));  // deterministic
    SecureChannel first(a, SecureChannel::Side::client);
    SecureChannel second(b, SecureChannel::Side::server);
    std::vector<std::uint8_t> sealed, out;
    ASSERT_TRUE(first.seal(Lane::unreliable, bytes_of(20, 4), sealed).ok());
    EXPECT_EQ(second.open(Lane::unreliable, sealed, out), OpenError::forged);
}

TEST(SecureChannel, EqualKeysStillNeverShareANonceAcrossSides) {
    // A backend that gave both directions one key (mint and verify refuse it): the side is in the nonce, so a
    // packet reflected back at its sender still does not open.
    auth::SessionKeys same;
    same.client_to_server = same.server_to_client = sample_keys().client_to_server;
    EXPECT_FALSE(same.usable());
    SecureChannel server(same, SecureChannel::Side::server);
    SecureChannel client(same, SecureChannel::Side::client);
    std::vector<std::uint8_t> sealed, out;
    ASSERT_TRUE(server.seal(Lane::reliable, bytes_of(30, 2), sealed).ok());
    EXPECT_EQ(server.open(Lane::reliable, sealed, out), OpenError::forged);
    EXPECT_EQ(client.open(Lane::reliable, sealed, out), OpenError::none);
}

TEST(SecureChannel, ClearBytesAreAuthenticatedWithThePacket) {
    Pair p;
    const std::vector<std::uint8_t> clear{1, 2, 3, 4};
    std::vector<std::uint8_t> tag, out;
    ASSERT_TRUE(p.client.seal(Lane::reliable, {}, tag, clear).ok());
    EXPECT_EQ(tag.size(), auth::kSealedOverheadBytes);
    auto altered = clear;
    altered[2] ^= 1;
    EXPECT_EQ(p.server.open(Lane::reliable, tag, out, altered), OpenError::forged);
    EXPECT_EQ(p.server.open(Lane::reliable, tag, out, {}), OpenError::forged);
    EXPECT_EQ(p.server.open(Lane::reliable, tag, out, clear), OpenError::none);
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
