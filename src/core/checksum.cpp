// XXH3-64 checksums behind rewind's API: xxhash.h stays out of the public headers.
#include <rewind/core/checksum.hpp>

#include <bit>
#include <new>

#define XXH_STATIC_LINKING_ONLY  // exposes XXH3_state_t's size so the state can live inside Hasher (no heap)
#include <xxhash.h>

namespace rwd {

// checksum_of/add_value hash multi-byte fields in native byte order; pinning little-endian keeps checksums
// comparable between every machine rewind runs on.
static_assert(std::endian::native == std::endian::little, "rewind checksums assume a little-endian machine");
static_assert(sizeof(XXH3_state_t) <= Hasher::kStateSize, "Hasher::kStateSize is too small for this xxhash");
static_assert(alignof(XXH3_state_t) <= Hasher::kStateAlign,
              "Hasher::kStateAlign is too small for this xxhash");
// Hasher is copied byte for byte; that is sound because a default-secret or seeded XXH3 state holds no
// pointer into itself (extSecret stays null).
static_assert(std::is_trivially_copyable_v<XXH3_state_t>, "XXH3_state_t must be trivially copyable");

namespace {

XXH3_state_t* as_state(std::byte* storage) { return std::launder(reinterpret_cast<XXH3_state_t*>(storage)); }
const XXH3_state_t* as_state(const std::byte* storage) {
    return std::launder(reinterpret_cast<const XXH3_state_t*>(storage));
}

}  // namespace

std::uint64_t checksum64(std::span<const std::byte> data, std::uint64_t seed) {
    return XXH3_64bits_withSeed(data.data(), data.size(), seed);
}

Hasher::Hasher(std::uint64_t seed) : state_{} { reset(seed); }

void Hasher::reset(std::uint64_t seed) {
    auto* st = new (state_) XXH3_state_t;  // begins the state's lifetime in our storage
    // With the default secret and seed 0, XXH3_64bits_reset_withSeed is identical to XXH3_64bits_reset.
    (void)XXH3_64bits_reset_withSeed(st, seed);
}

void Hasher::add(std::span<const std::byte> data) {
    if (data.empty()) return;  // XXH3_64bits_update rejects a null pointer even with length 0
    (void)XXH3_64bits_update(as_state(state_), data.data(), data.size());
}

std::uint64_t Hasher::digest() const { return XXH3_64bits_digest(as_state(state_)); }

}  // namespace rwd
