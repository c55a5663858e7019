/// range_code_value(): one field through a range slot's bit tree and low-bit models (the range streams' core;
/// private to src/wire: the streams' serialize_bits are compiled there).
#pragma once

#include <rewind/wire/range_model.hpp>

#include <cstdint>

namespace rwd::wire::detail {

/// Codes the low `bits` bits of `value`, MSB first, through `slot` with `code_bit(prob&, bit) -> bit` and
/// returns the value the coded bits form (the decoder passes value 0 and gets the decoded value). With
/// `visit(index)`, each bit's model index (kRangeSlotModels) is passed to it first.
template <class CodeBit, class Visit>
inline std::uint32_t range_code_value(RangeSlot& slot, std::uint32_t value, int bits, CodeBit&& code_bit,
                                      Visit&& visit) {
    const int tree_bits = bits < kRangeTreeBits ? bits : kRangeTreeBits;
    std::uint32_t node = 1;
    int i = bits - 1;
    for (int k = 0; k < tree_bits; ++k, --i) {
        visit(node);
        node = (node << 1) | code_bit(slot.tree[node], (value >> i) & 1u);
    }
    std::uint32_t out = node - (std::uint32_t{1} << tree_bits);
    for (; i >= 0; --i) {
        visit(kRangeLowModel + static_cast<std::uint32_t>(i));
        out = (out << 1) | code_bit(slot.low[i], (value >> i) & 1u);
    }
    return out;
}
template <class CodeBit>
inline std::uint32_t range_code_value(RangeSlot& slot, std::uint32_t value, int bits, CodeBit&& code_bit) {
    return range_code_value(slot, value, bits, code_bit, [](std::uint32_t) {});
}

}  // namespace rwd::wire::detail
