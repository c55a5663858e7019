/// The file-format targets' shared step: parse the input as given, then again with its trailing 8-byte file
/// checksum repaired, so that mutations get past the checksum and reach the records.
#pragma once

#include <rewind/core/checksum.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fuzzing {

/// Calls exercise(parsed) for each of the two readings of `bytes` that `parse` accepts.
template <class Parse, class Exercise>
void parse_given_and_repaired(std::span<const std::uint8_t> bytes, Parse parse, Exercise exercise) {
    if (auto d = parse(bytes); d.ok()) exercise(d.value());
    if (bytes.size() < 8) return;
    std::vector<std::uint8_t> repaired(bytes.begin(), bytes.end());
    const std::size_t n = repaired.size() - 8;
    const std::uint64_t c = rwd::checksum64(std::as_bytes(std::span<const std::uint8_t>(repaired).first(n)));
    for (std::size_t i = 0; i < 8; ++i) repaired[n + i] = static_cast<std::uint8_t>(c >> (8 * i));
    if (auto d = parse(std::span<const std::uint8_t>(repaired)); d.ok()) exercise(d.value());
}

}  // namespace fuzzing
