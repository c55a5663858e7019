/// The entity-list coder's per-entity primitives (op prefix, entering id), compiled once per stream type.
#include <rewind/sync/entity_delta.hpp>
#include <rewind/wire/stream_list.hpp>

namespace rwd::sync::detail {

/// The op prefix: `0`, `10`, `110`, `111`.
template <class Stream>
bool serialize_entity_op(Stream& s, EntityOp& op) {
    std::uint32_t b0 = op == EntityOp::unchanged ? 0u : 1u;
    if (!s.serialize_bits(b0, 1)) return false;
    if (b0 == 0) return op = EntityOp::unchanged, true;
    std::uint32_t b1 = op == EntityOp::changed ? 0u : 1u;
    if (!s.serialize_bits(b1, 1)) return false;
    if (b1 == 0) return op = EntityOp::changed, true;
    std::uint32_t b2 = op == EntityOp::removed ? 0u : 1u;
    if (!s.serialize_bits(b2, 1)) return false;
    op = b2 == 0 ? EntityOp::removed : EntityOp::stale;
    return true;
}

/// An entering entity's id: the first as a varint, later ones as the gap to the previous entering id:
/// `1` + 4 bits (gap - 1) for gaps 1..16, else `0` + varint(gap) with gap > 16 (one encoding per value).
template <class Stream>
bool serialize_entering_id(Stream& s, bool first, std::uint32_t previous, std::uint32_t& id) {
    if (first) return wire::serialize_varint(s, id);
    std::uint32_t gap = Stream::is_reading ? 0u : id - previous;
    bool small = gap >= 1 && gap <= 16;
    if (!wire::serialize_bool(s, small)) return false;
    if (small) {
        std::uint32_t g = gap - 1;
        if (!wire::serialize_bits(s, g, 4)) return false;
        gap = g + 1;
    } else if (!wire::serialize_varint(s, gap)) {
        return false;
    }
    if constexpr (Stream::is_reading) {
        // Attacker-controlled: a gap that is zero, has a shorter form, or runs past 2^32 - 1 is refused.
        if (!small && gap <= 16) return s.fail(Errc::malformed), false;
        if (gap > 0xFFFFFFFFu - previous) return s.fail(Errc::malformed), false;
        id = previous + gap;
    }
    return true;
}

#define RWD_ENTITY_LIST_PRIMITIVES(S)                    \
    template bool serialize_entity_op<S>(S&, EntityOp&); \
    template bool serialize_entering_id<S>(S&, bool, std::uint32_t, std::uint32_t&);
RWD_WIRE_FOR_EACH_STREAM(RWD_ENTITY_LIST_PRIMITIVES)
#undef RWD_ENTITY_LIST_PRIMITIVES

}  // namespace rwd::sync::detail
