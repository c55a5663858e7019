/// 64-bit checksums (XXH3) of bytes, of whole trivially copyable values, and incrementally, for desync
/// detection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

namespace rwd {

/// XXH3-64 of `data` with `seed`: the same bytes give the same value on every platform and run.
std::uint64_t checksum64(std::span<const std::byte> data, std::uint64_t seed = 0);

/// Whether checksum_of / Hasher::add_value accept T: trivially copyable and free of padding. Padding bytes
/// have indeterminate values (whatever was on the stack or heap before), so hashing them would make two equal
/// states hash differently from run to run or machine to machine: exactly the false desync a checksum must
/// not report. Add explicit padding members (zeroed) or reorder fields until this holds.
template <class T>
inline constexpr bool kChecksummable =
    std::is_trivially_copyable_v<T>&& std::has_unique_object_representations_v<T>;

/// XXH3-64 of the object representation of `value`. Multi-byte fields hash in the machine's byte order;
/// rewind targets little-endian machines only (checked in checksum.cpp), so the value is the same on all of
/// them. float/double members are rejected by the padding check (they lack unique representations: +0.0 vs
/// -0.0); store such fields as fixed-point integers, or hash their bytes explicitly with checksum64.
template <class T>
std::uint64_t checksum_of(const T& value, std::uint64_t seed = 0) {
    static_assert(std::is_trivially_copyable_v<T>, "checksum_of needs a trivially copyable type");
    static_assert(std::has_unique_object_representations_v<T>,
                  "checksum_of: T has padding (or floating point) bytes whose values are indeterminate; "
                  "the checksum would not be deterministic");
    return checksum64(std::as_bytes(std::span<const T, 1>(&value, 1)), seed);
}

/// Incremental XXH3-64: add bytes in any number of pieces; digest() equals checksum64 of all bytes added
/// (concatenated) with the same seed. Copyable (a copy continues independently); no heap.
class Hasher {
public:
    /// A hasher with nothing added yet.
    explicit Hasher(std::uint64_t seed = 0);

    /// Appends raw bytes.
    void add(std::span<const std::byte> data);
    /// Appends the object representation of a padding-free trivially copyable value (see checksum_of).
    template <class T>
    void add_value(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>, "add_value needs a trivially copyable type");
        static_assert(
            std::has_unique_object_representations_v<T>,
            "add_value: T has padding (or floating point) bytes; the digest would not be deterministic");
        add(std::as_bytes(std::span<const T, 1>(&value, 1)));
    }
    /// The checksum of everything added so far; adding more afterwards is allowed.
    [[nodiscard]] std::uint64_t digest() const;
    /// Forgets everything added and starts again with `seed`.
    void reset(std::uint64_t seed = 0);

    /// Size of the opaque XXH3 streaming state (checked against the library in checksum.cpp).
    static constexpr std::size_t kStateSize = 576;
    /// Alignment of the opaque XXH3 streaming state.
    static constexpr std::size_t kStateAlign = 64;

private:
    alignas(kStateAlign) std::byte state_[kStateSize];
};

}  // namespace rwd
