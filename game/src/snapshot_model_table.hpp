// The arena's trained snapshot range-coder table (generated into snapshot_model_table.cpp).
#pragma once

#include <span>

#include <rewind/wire/range_model.hpp>

namespace arena::detail {

/// Every trained model of the table, as `rewind-lab --train-snapshot-model` wrote it.
std::span<const rwd::wire::RangeModelEntry> snapshot_model_entries();

}  // namespace arena::detail
