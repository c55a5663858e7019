// libFuzzer target: random bytes into ReadStream through every serialize helper; a successful read
// must re-write and re-read to the same values (and, for the canonical part, the same bits).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include <rewind/wire/message.hpp>
#include <rewind/wire/serialize.hpp>

namespace {

using namespace rwd::wire;

enum class Mode : std::uint8_t { idle, walk, run, jump, dead };

// Every helper except the quaternion; each has exactly one encoding per value.
struct Canonical {
    std::uint32_t raw = 0;
    bool flag = false;
    std::int32_t hp = 0;
    std::int64_t big = 0;
    std::uint64_t full = 0;
    std::uint64_t var = 0;
    std::uint32_t var32 = 0;
    std::int32_t tick = 0;
    float axis = 0.0f;
    float yaw = 0.0f;
    Mode mode = Mode::idle;
    std::vector<std::uint8_t> blob;
    std::string name;
};

template <class Stream>
bool serialize(Stream& s, Canonical& m) {
    return serialize_bits(s, m.raw, 13) && serialize_bool(s, m.flag) && serialize_int(s, m.hp, -50, 200) &&
           serialize_int(s, m.big, std::int64_t{-1} << 40, std::int64_t{1} << 50) &&
           serialize_uint64(s, m.full) && serialize_varint(s, m.var) && serialize_varint(s, m.var32) &&
           serialize_relative(s, 1000, m.tick) && serialize_quantized(s, m.axis, -1.0f, 1.0f, 0.01f) &&
           serialize_angle(s, m.yaw, 12) && serialize_enum(s, m.mode, Mode::dead) &&
           serialize_bytes(s, m.blob, 64) && serialize_align(s) && serialize_string(s, m.name, 20);
}

bool same(const Canonical& a, const Canonical& b) {
    return a.raw == b.raw && a.flag == b.flag && a.hp == b.hp && a.big == b.big && a.full == b.full &&
           a.var == b.var && a.var32 == b.var32 && a.tick == b.tick && a.axis == b.axis && a.yaw == b.yaw &&
           a.mode == b.mode && a.blob == b.blob && a.name == b.name;
}

bool near(const Quat& a, const Quat& b, double bound) {
    const double dot = double{a.x} * b.x + double{a.y} * b.y + double{a.z} * b.z + double{a.w} * b.w;
    const double s = dot < 0 ? -1.0 : 1.0;
    return std::fabs(s * a.x - b.x) <= bound && std::fabs(s * a.y - b.y) <= bound &&
           std::fabs(s * a.z - b.z) <= bound && std::fabs(s * a.w - b.w) <= bound;
}

constexpr int kQuatBits = 11;

// Reads a Canonical then a quaternion from `data`; returns false on any error or trailing garbage.
bool read_all(std::span<const std::uint8_t> data, Canonical& c, Quat& q, std::size_t& canonical_bits) {
    ReadStream s(data);
    if (!serialize(s, c)) return false;
    canonical_bits = s.bits_used();
    if (!serialize_unit_quat(s, q, kQuatBits)) return false;
    return s.bits_remaining() < 8 && serialize_align(s);
}

bool bit_at(std::span<const std::uint8_t> d, std::size_t i) { return ((d[i / 8] >> (i % 8)) & 1) != 0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    Canonical c;
    Quat q;
    std::size_t canonical_bits = 0;
    if (!read_all(input, c, q, canonical_bits)) return 0;

    // Oracle: what was read must write back (with exactly the measured size) and read back the same.
    std::vector<std::uint8_t> out(size + 16);
    WriteStream w(out);
    Canonical c_copy = c;
    Quat q_copy = q;
    if (!serialize(w, c_copy) || w.bits_used() != canonical_bits) std::abort();
    if (!serialize_unit_quat(w, q_copy, kQuatBits)) std::abort();
    w.flush();
    MeasureStream m;
    Canonical c_measure = c;
    Quat q_measure = q;
    if (!serialize(m, c_measure) || !serialize_unit_quat(m, q_measure, kQuatBits)) std::abort();
    if (m.bits_used() != w.bits_used()) std::abort();
    if (w.bytes_used() != size) std::abort();  // one encoding per message: same length
    for (std::size_t i = 0; i < canonical_bits; ++i) {
        if (bit_at(w.data(), i) != bit_at(input, i)) std::abort();  // canonical fields: same bits
    }

    Canonical c2;
    Quat q2;
    std::size_t bits2 = 0;
    if (!read_all(w.data(), c2, q2, bits2)) std::abort();
    if (!same(c, c2)) std::abort();
    // The quaternion is renormalized on decode, so re-encoding may move a component by a step.
    if (!near(q, q2, 3.0 * smallest_three_half_step(kQuatBits) + 1e-6)) std::abort();
    return 0;
}
