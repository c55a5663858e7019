// Test helper: runs one serializer through measure, write and read, and reports what each stream did.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <rewind/wire/stream.hpp>

namespace rwd::wire::test {

/// What one measure/write/read cycle produced.
template <class T>
struct RoundTrip {
    bool measure_ok = false;
    bool write_ok = false;
    bool read_ok = false;
    std::size_t measured_bits = 0;
    std::size_t written_bits = 0;
    std::size_t read_bits = 0;
    std::vector<std::uint8_t> bytes;  ///< exactly bytes_used() bytes
    T out{};
    /// Everything succeeded and all three streams agree on the size.
    [[nodiscard]] bool consistent() const {
        return measure_ok && write_ok && read_ok && measured_bits == written_bits &&
               read_bits == written_bits;
    }
};

/// Serializes `in` with `fn(stream, value)` on all three streams; the read starts from `read_init`.
template <class T, class Fn>
RoundTrip<T> round_trip(const T& in, Fn fn, T read_init = T{}) {
    RoundTrip<T> r;
    MeasureStream m;
    T a = in;
    r.measure_ok = fn(m, a) && m.ok();
    r.measured_bits = m.bits_used();
    std::vector<std::uint8_t> buf(1 << 16);
    WriteStream w(buf);
    T b = in;
    r.write_ok = fn(w, b) && w.ok();
    w.flush();
    r.written_bits = w.bits_used();
    r.bytes.assign(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(w.bytes_used()));
    ReadStream rs(r.bytes);
    r.out = read_init;
    r.read_ok = fn(rs, r.out) && rs.ok();
    r.read_bits = rs.bits_used();
    return r;
}

/// Bytes from a list of (value, bits) fields, written LSB-first with BitWriter semantics.
inline std::vector<std::uint8_t> pack(std::initializer_list<std::pair<std::uint32_t, int>> fields) {
    std::vector<std::uint8_t> buf(1024);
    WriteStream w(buf);
    for (auto [value, bits] : fields) w.serialize_bits(value, bits);
    w.flush();
    buf.resize(w.bytes_used());
    return buf;
}

}  // namespace rwd::wire::test
