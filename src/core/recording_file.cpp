/// Reading and writing replay and recording files whole.
#include <rewind/core/recording_file.hpp>

#include <fstream>

namespace rwd {

Status write_recording_file(const std::string& path, std::span<const std::uint8_t> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Error{Errc::io_error, "cannot open the file for writing"};
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return Error{Errc::io_error, "cannot write the file"};
    return {};
}

Result<std::vector<std::uint8_t>> read_recording_file(const std::string& path, std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return Error{Errc::io_error, "cannot open the file"};
    const std::streamoff size = in.tellg();
    if (size < 0) return Error{Errc::io_error, "cannot read the file"};
    if (static_cast<std::uint64_t>(size) > max_bytes)
        return Error{Errc::length_too_long, "the file is larger than the limit"};
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(bytes.data()), size);
    if (!in) return Error{Errc::io_error, "cannot read the file"};
    return bytes;
}

}  // namespace rwd
