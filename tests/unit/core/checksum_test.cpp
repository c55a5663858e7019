// Tests for checksum64, checksum_of and Hasher against XXH3-64 values pinned from the xxhsum tool.
#include <rewind/core/checksum.hpp>
#include <rewind/core/rng.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstring>
#include <string_view>
#include <vector>

namespace rwd {
namespace {

std::span<const std::byte> bytes_of(std::string_view s) {
    return std::as_bytes(std::span(s.data(), s.size()));
}

std::vector<std::byte> pattern(std::size_t n) {  // byte i = i mod 251, as written for xxhsum
    std::vector<std::byte> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::byte>(i % 251);
    return v;
}

// Expected values: `xxhsum -H3 <file>` (xxhash 0.8.1) over files holding exactly these bytes. They pin the
// algorithm and seed handling: a change of hash function or of byte order would break them.
TEST(Checksum64, MatchesXxhsumReferenceValues) {
    EXPECT_EQ(checksum64({}), 0x2d06800538d394c2ull);
    EXPECT_EQ(checksum64(bytes_of("abc")), 0x78af5f94892f3950ull);
    EXPECT_EQ(checksum64(pattern(100)), 0x004e4f921a64bd1cull);   // 17..128-byte path
    EXPECT_EQ(checksum64(pattern(1000)), 0x33ef703fb2b20ed1ull);  // > 240 bytes: the long-input loop
    EXPECT_EQ(checksum64(pattern(5000)), 0xb418500fc42320eeull);  // several 1 KiB blocks
}

TEST(Checksum64, SeedChangesTheValueAndZeroIsDefault) {
    const auto data = pattern(64);
    EXPECT_EQ(checksum64(data, 0), checksum64(data));
    EXPECT_NE(checksum64(data, 1), checksum64(data));
    EXPECT_NE(checksum64(data, 1), checksum64(data, 2));
}

TEST(Checksum64, EveryBitFlipChangesTheValue) {
    auto data = pattern(256);
    const std::uint64_t base = checksum64(data);
    for (std::size_t i = 0; i < data.size(); ++i) {
        for (int b = 0; b < 8; ++b) {
            data[i] ^= static_cast<std::byte>(1u << b);
            EXPECT_NE(checksum64(data), base) << "byte " << i << " bit " << b;
            data[i] ^= static_cast<std::byte>(1u << b);
        }
    }
    EXPECT_EQ(checksum64(data), base);
}

struct Packed {
    std::uint32_t a;
    std::uint32_t b;
    std::int32_t c;
};
struct WithPadding {
    std::uint8_t a;
    std::uint32_t b;
};
static_assert(kChecksummable<Packed>);
static_assert(kChecksummable<Rng>);
static_assert(!kChecksummable<WithPadding>, "padding must be rejected");
static_assert(!kChecksummable<float>, "floats have two zeros, so are rejected");

TEST(ChecksumOf, HashesTheObjectRepresentation) {
    EXPECT_EQ(checksum_of(std::uint64_t{0x0123456789abcdefull}), 0xb78df414284277a6ull);
    EXPECT_EQ(checksum_of(Packed{1, 2, -3}), 0xef519066e0728e2dull);
    EXPECT_NE(checksum_of(Packed{1, 2, -3}), checksum_of(Packed{1, 2, 3}));
    EXPECT_NE(checksum_of(Packed{1, 2, -3}, 9), checksum_of(Packed{1, 2, -3}));
    const std::array<std::uint16_t, 3> arr{1, 2, 3};
    EXPECT_EQ(checksum_of(arr), checksum64(std::as_bytes(std::span(arr))));
}

TEST(Hasher, EmptyDigestIsTheEmptyChecksum) {
    Hasher h;
    EXPECT_EQ(h.digest(), 0x2d06800538d394c2ull);
    h.add({});
    EXPECT_EQ(h.digest(), 0x2d06800538d394c2ull);
}

TEST(Hasher, ValuesMatchPinnedOneShotValues) {
    Hasher h;
    h.add_value(std::uint32_t{1});
    h.add_value(std::uint32_t{2});
    h.add_value(std::int32_t{-3});
    EXPECT_EQ(h.digest(), 0xef519066e0728e2dull);
    Hasher abc;
    abc.add(bytes_of("a"));
    abc.add(bytes_of("bc"));
    EXPECT_EQ(abc.digest(), 0x78af5f94892f3950ull);
}

TEST(Hasher, ChunkedEqualsOneShotAcrossBlockBoundaries) {
    const auto data = pattern(5000);
    for (std::size_t chunk : {1u, 3u, 63u, 64u, 255u, 256u, 1000u, 1024u, 4999u}) {
        SCOPED_TRACE("chunk=" + std::to_string(chunk));
        Hasher h;
        for (std::size_t off = 0; off < data.size(); off += chunk) {
            h.add(std::span(data).subspan(off, std::min(chunk, data.size() - off)));
        }
        EXPECT_EQ(h.digest(), 0xb418500fc42320eeull);
    }
}

RC_GTEST_PROP(Hasher, AnySplitEqualsOneShot,
              (std::vector<std::uint8_t> raw, std::vector<std::size_t> cuts, std::uint64_t seed)) {
    const auto data = std::as_bytes(std::span(raw));
    Hasher h(seed);
    std::size_t off = 0;
    for (std::size_t c : cuts) {
        if (off >= data.size()) break;
        const std::size_t n = c % (data.size() - off + 1);
        h.add(data.subspan(off, n));
        off += n;
    }
    h.add(data.subspan(off));
    RC_ASSERT(h.digest() == checksum64(data, seed));
}

TEST(Hasher, DigestIsNonDestructiveAndCopiesAreIndependent) {
    const auto data = pattern(3000);
    Hasher h(7);
    h.add(std::span(data).first(1500));
    Hasher fork = h;
    const std::uint64_t mid = h.digest();
    EXPECT_EQ(h.digest(), mid);
    h.add(std::span(data).subspan(1500));
    EXPECT_EQ(h.digest(), checksum64(data, 7));
    EXPECT_EQ(fork.digest(), mid);
    EXPECT_EQ(mid, checksum64(std::span(data).first(1500), 7));
    fork.add(std::span(data).subspan(1500));
    EXPECT_EQ(fork.digest(), h.digest());
}

TEST(Hasher, ResetStartsOver) {
    Hasher h;
    h.add(bytes_of("garbage"));
    h.reset();
    h.add(bytes_of("abc"));
    EXPECT_EQ(h.digest(), 0x78af5f94892f3950ull);
    h.reset(5);
    h.add(bytes_of("abc"));
    EXPECT_EQ(h.digest(), checksum64(bytes_of("abc"), 5));
    EXPECT_NE(h.digest(), 0x78af5f94892f3950ull);
}

}  // namespace
}  // namespace rwd
