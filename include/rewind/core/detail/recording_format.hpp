/// What the replay and world recording layouts share: name checks, the version verdict, the file checksum
/// (for the library's own sources, not API).
#pragma once

#include <rewind/core/checksum.hpp>
#include <rewind/core/detail/byte_cursor.hpp>
#include <rewind/core/result.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace rwd::detail {

/// Whether every byte is printable ASCII (0x20..0x7E).
inline bool printable(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7F; });
}

/// rejected, naming which way, when a file's format `version` is not the `current` one this build reads.
inline Status check_format_version(std::uint64_t version, std::uint16_t current) {
    if (version < current)
        return Error{Errc::rejected,
                     "format version is older than this build reads: play it with the release that wrote it"};
    if (version > current)
        return Error{Errc::rejected, "format version is newer than this build reads: update rewind"};
    return {};
}

/// The four bytes a file starts with, naming its kind.
using FileMagic = std::array<std::uint8_t, 4>;

/// Writes the magic and the format version every file starts with.
inline void put_file_start(ByteWriter& w, const FileMagic& magic, std::uint16_t version) {
    for (const std::uint8_t b : magic) w.uint(b, 1);
    w.uint(version, 2);
}

/// Reads them: malformed with `not_this` (a static text) for another magic or `truncated` when the bytes end,
/// rejected for a format version other than `current`.
inline Status read_file_start(ByteReader& r, const FileMagic& magic, std::uint16_t current,
                              std::string_view not_this, std::string_view truncated) {
    std::span<const std::uint8_t> found;
    if (!r.raw(found, magic.size()) || !std::equal(magic.begin(), magic.end(), found.begin()))
        return Error{Errc::malformed, not_this};
    std::uint64_t version = 0;
    if (!r.uint(version, 2)) return Error{Errc::malformed, truncated};
    return check_format_version(version, current);
}

/// The format version of bytes that start with `magic`, or 0 when they do not.
inline std::uint16_t file_version(std::span<const std::uint8_t> bytes, const FileMagic& magic) {
    if (bytes.size() < magic.size() + 2 || !std::equal(magic.begin(), magic.end(), bytes.begin())) return 0;
    return static_cast<std::uint16_t>(bytes[4] | (bytes[5] << 8));
}

/// The file checksum of everything written so far (the end record's last field covers all bytes before it).
inline std::uint64_t file_checksum(const std::vector<std::uint8_t>& out) {
    return checksum64(std::as_bytes(std::span<const std::uint8_t>(out)));
}

/// Whether `stored` is the file checksum of the first `covered` bytes.
inline bool file_checksum_ok(std::span<const std::uint8_t> bytes, std::size_t covered, std::uint64_t stored) {
    return stored == checksum64(std::as_bytes(bytes.first(covered)));
}

}  // namespace rwd::detail
