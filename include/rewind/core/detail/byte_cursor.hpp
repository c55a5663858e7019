/// ByteWriter and ByteReader: little-endian fixed-width fields for the library's byte formats (connect
/// tokens, replay files, recordings); for the library's own sources, not API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rwd::detail {

/// Appends little-endian fields to a byte vector.
class ByteWriter {
public:
    /// Writes into `out` (appending).
    explicit ByteWriter(std::vector<std::uint8_t>& out) : out_(out) {}
    /// `bytes` low-order bytes of `v`, least significant first.
    void uint(std::uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    /// Raw bytes.
    void raw(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }

private:
    std::vector<std::uint8_t>& out_;
};

/// Reads little-endian fields from untrusted bytes; every read is bounds-checked and a failed read sticks.
class ByteReader {
public:
    /// Reads `data` (not owned).
    explicit ByteReader(std::span<const std::uint8_t> data) : data_(data) {}
    /// `bytes` bytes as an unsigned value, or false (and nothing read) if fewer remain.
    bool uint(std::uint64_t& v, int bytes) {
        if (!ok_ || remaining() < static_cast<std::size_t>(bytes)) return ok_ = false;
        v = 0;
        for (int i = 0; i < bytes; ++i)
            v |= std::uint64_t{data_[pos_ + static_cast<std::size_t>(i)]} << (8 * i);
        pos_ += static_cast<std::size_t>(bytes);
        return true;
    }
    /// The next `n` bytes as a view, or false if fewer remain (n is checked before anything is touched).
    bool raw(std::span<const std::uint8_t>& out, std::size_t n) {
        if (!ok_ || remaining() < n) return ok_ = false;
        out = data_.subspan(pos_, n);
        pos_ += n;
        return true;
    }
    /// Bytes not read yet.
    [[nodiscard]] std::size_t remaining() const { return data_.size() - pos_; }
    /// Bytes read so far.
    [[nodiscard]] std::size_t position() const { return pos_; }
    /// No read has failed.
    [[nodiscard]] bool ok() const { return ok_; }

private:
    std::span<const std::uint8_t> data_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

}  // namespace rwd::detail
