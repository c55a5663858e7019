// Desync report text: byte diffs, hex dumps and the whole forensic report.
#include <rewind/session/rollback/desync.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace rwd::rollback {

std::string byte_diff(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b,
                      std::size_t max_lines) {
    std::string out;
    char line[96];
    if (a.size() != b.size()) {
        std::snprintf(line, sizeof line, "size: %zu != %zu\n", a.size(), b.size());
        out += line;
    }
    const std::size_t n = std::min(a.size(), b.size());
    std::size_t shown = 0;
    std::size_t hidden = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (a[i] == b[i]) continue;
        if (shown < max_lines) {
            std::snprintf(line, sizeof line, "byte %zu: %02x != %02x\n", i, a[i], b[i]);
            out += line;
            ++shown;
        } else {
            ++hidden;
        }
    }
    if (hidden > 0) {
        std::snprintf(line, sizeof line, "... and %zu more differing bytes\n", hidden);
        out += line;
    }
    return out;
}

std::string hex_dump(std::span<const std::uint8_t> bytes) {
    std::string out;
    char buf[24];
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % 32 == 0) {
            std::snprintf(buf, sizeof buf, "%06zx", i);
            out += buf;
            out += ':';
        }
        std::snprintf(buf, sizeof buf, " %02x", bytes[i]);
        out += buf;
        if (i % 32 == 31 || i + 1 == bytes.size()) out += '\n';
    }
    return out;
}

std::string DesyncReport::to_text() const {
    std::string out;
    char line[200];
    std::snprintf(line, sizeof line,
                  "desync at frame %d with player %d (peer %u)\nlocal checksum  %016" PRIx64
                  "\nremote checksum %016" PRIx64 "\n",
                  frame, player, static_cast<unsigned>(peer), local_checksum, remote_checksum);
    out += line;
    if (!complete) {
        out += "remote state: not received (yet)\n";
    } else {
        out += "differences:\n";
        out += diff.empty() ? std::string("(none found in the state bytes)\n") : diff;
    }
    std::snprintf(line, sizeof line, "local state (%zu bytes, %s):\n", local_state.size(),
                  local_serialized ? "serialized" : "raw memory");
    out += line;
    out += hex_dump(local_state);
    if (complete) {
        std::snprintf(line, sizeof line, "remote state (%zu bytes, %s):\n", remote_state.size(),
                      remote_serialized ? "serialized" : "raw memory");
        out += line;
        out += hex_dump(remote_state);
    }
    return out;
}

}  // namespace rwd::rollback
