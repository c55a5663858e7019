/// libFuzzer target: arbitrary bytes through RangeReadStream; whatever decodes re-encodes to the same values.
//
// A fixed mixed schema (every serialize helper but the quaternion, uniform bits included, entity records
// under set_context). Oracle: the re-encoding has the reader's model cost (measure == write == read), a
// complete input re-encodes to its exact length, and the re-encoded bytes decode to the same values;
// bits_remaining() bounds the symbols any input decodes.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <rewind/wire/context.hpp>
#include <rewind/wire/range_coder.hpp>
#include <rewind/wire/serialize.hpp>

namespace {

using namespace rwd::wire;

enum class Mode : std::uint8_t { idle, walk, run, jump, dead };

// One entity record: the fields a snapshot delta sends, mostly small or unchanged.
struct Entity {
    bool changed = false;
    std::uint32_t mask = 0;
    std::int32_t x = 0;
    std::int32_t y = 0;
    Mode mode = Mode::idle;
};

struct Message {
    std::uint32_t raw = 0;
    std::uint32_t noise = 0;  // uniform bits
    bool flag = false;
    std::int32_t hp = 0;
    std::int64_t big = 0;
    std::uint64_t full = 0;
    std::uint64_t var = 0;
    std::uint32_t var32 = 0;
    std::int32_t tick = 0;
    float axis = 0.0f;
    float yaw = 0.0f;
    std::uint32_t count = 0;
    Entity entities[12];
    std::vector<std::uint8_t> blob;
    std::string name;
};

template <class Stream>
bool serialize(Stream& s, Message& m) {
    set_context(s, 0);
    if (!(serialize_bits(s, m.raw, 13) && serialize_uniform_bits(s, m.noise, 23) &&
          serialize_bool(s, m.flag) && serialize_int(s, m.hp, -50, 200) &&
          serialize_int(s, m.big, std::int64_t{-1} << 40, std::int64_t{1} << 50) &&
          serialize_uint64(s, m.full) && serialize_varint(s, m.var) && serialize_varint(s, m.var32) &&
          serialize_relative(s, 1000, m.tick) && serialize_quantized(s, m.axis, -1.0f, 1.0f, 0.01f) &&
          serialize_angle(s, m.yaw, 12) && serialize_bits(s, m.count, 4))) {
        return false;
    }
    if (m.count > 12) return s.fail(rwd::Errc::value_out_of_range), false;
    for (std::uint32_t i = 0; i < m.count; ++i) {
        Entity& e = m.entities[i];
        set_context(s, 1);  // every record shares the models of its fields
        if (!serialize_bool(s, e.changed)) return false;
        if (!e.changed) continue;
        if (!(serialize_bits(s, e.mask, 8) && serialize_relative(s, 0, e.x) &&
              serialize_relative(s, 0, e.y) && serialize_enum(s, e.mode, Mode::dead))) {
            return false;
        }
    }
    set_context(s, 2);
    return serialize_bytes(s, m.blob, 64) && serialize_align(s) && serialize_string(s, m.name, 20);
}

bool same(const Message& a, const Message& b) {
    if (!(a.raw == b.raw && a.noise == b.noise && a.flag == b.flag && a.hp == b.hp && a.big == b.big &&
          a.full == b.full && a.var == b.var && a.var32 == b.var32 && a.tick == b.tick && a.axis == b.axis &&
          a.yaw == b.yaw && a.count == b.count && a.blob == b.blob && a.name == b.name)) {
        return false;
    }
    for (std::uint32_t i = 0; i < a.count; ++i) {
        const Entity& p = a.entities[i];
        const Entity& q = b.entities[i];
        if (p.changed != q.changed || p.mask != q.mask || p.x != q.x || p.y != q.y || p.mode != q.mode)
            return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> input(data, size);
    // The streams hold ~88 KiB of models each: on the heap, not the fuzzer's stack.
    auto reader = std::make_unique<RangeReadStream>(input);
    const std::size_t bound = reader->bits_remaining();
    Message msg;
    const bool decoded = serialize(*reader, msg) && reader->ok();
    if (reader->coded_bits() > bound) std::abort();  // bits_remaining() is an upper bound
    if (!decoded) return 0;

    // Oracle: what decoded re-encodes, with the same model cost as the reader and the measure saw.
    std::vector<std::uint8_t> out(size + 64);
    auto writer = std::make_unique<RangeWriteStream>(out);
    Message copy = msg;
    if (!serialize(*writer, copy) || !writer->ok()) std::abort();
    writer->flush();
    if (!writer->ok() || writer->bits_used() != reader->bits_used()) std::abort();
    if (writer->coded_bits() != reader->coded_bits()) std::abort();
    auto measure = std::make_unique<RangeMeasureStream>();
    Message copy2 = msg;
    if (!serialize(*measure, copy2) || measure->bits_used() != writer->bits_used()) std::abort();
    // The same symbols narrow the range the same way, so a complete input re-encodes to exactly its length.
    if (reader->finish() && writer->bytes_used() != size) std::abort();

    auto again = std::make_unique<RangeReadStream>(writer->data());
    Message msg2;
    if (!serialize(*again, msg2) || !again->finish()) std::abort();
    if (!same(msg, msg2)) std::abort();
    return 0;
}
