/// Reading and writing replay and recording files whole.
#pragma once

#include <rewind/core/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rwd {

/// Writes `bytes` to `path` (replacing it); io_error when the file cannot be written.
[[nodiscard]] Status write_recording_file(const std::string& path, std::span<const std::uint8_t> bytes);
/// Reads a whole file of at most `max_bytes`; io_error when unreadable, length_too_long when larger.
[[nodiscard]] Result<std::vector<std::uint8_t>> read_recording_file(const std::string& path,
                                                                    std::size_t max_bytes = 1024u << 20);

}  // namespace rwd
