/// What the replay and world recording layouts share: name checks, the version verdict, the file checksum
/// (for the library's own sources, not API).
#pragma once

#include <rewind/core/checksum.hpp>
#include <rewind/core/result.hpp>

#include <algorithm>
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

/// The file checksum of everything written so far (the end record's last field covers all bytes before it).
inline std::uint64_t file_checksum(const std::vector<std::uint8_t>& out) {
    return checksum64(std::as_bytes(std::span<const std::uint8_t>(out)));
}

/// Whether `stored` is the file checksum of the first `covered` bytes.
inline bool file_checksum_ok(std::span<const std::uint8_t> bytes, std::size_t covered, std::uint64_t stored) {
    return stored == checksum64(std::as_bytes(bytes.first(covered)));
}

}  // namespace rwd::detail
