/// Desync forensics: the report of a confirmed frame whose checksum differs between two peers.
#pragma once

#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rwd::rollback {

/// Everything known about one desync: the frame, both checksums, both peers' state bytes for that frame and a
/// field-by-field diff (the game's describe_diff when it has one and serialize(State) too, else a byte diff).
struct DesyncReport {
    Frame frame = kNullFrame;  ///< the confirmed frame whose checksums differ
    int player = -1;           ///< first slot of the peer we compared with
    transport::PeerId peer = transport::kInvalidPeer;
    std::uint64_t local_checksum = 0;
    std::uint64_t remote_checksum = 0;
    bool local_serialized = false;           ///< local_state came from serialize(State) (else raw memory)
    bool remote_serialized = false;          ///< remote_state likewise
    std::vector<std::uint8_t> local_state;   ///< our state after `frame`
    std::vector<std::uint8_t> remote_state;  ///< the peer's, fetched over the reliable channel
    bool complete = false;                   ///< remote_state arrived and `diff` is filled in
    std::string diff;                        ///< the differences, one per line

    /// A readable report: header, diff, and hex dumps of both states.
    [[nodiscard]] std::string to_text() const;
};

/// Lines "byte <offset>: <a> != <b>" for differing bytes (at most `max_lines`, then a count of the rest),
/// plus a line for a size difference.
[[nodiscard]] std::string byte_diff(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b,
                                    std::size_t max_lines = 64);

/// A hex dump, 32 bytes per line with offsets.
[[nodiscard]] std::string hex_dump(std::span<const std::uint8_t> bytes);

}  // namespace rwd::rollback
