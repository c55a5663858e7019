// Training the arena's snapshot range-coder table from the lab's own 64-player matches.
#pragma once

#include "options.hpp"

#include <cstdio>
#include <string>

namespace lab {

/// Runs the 64-player bandwidth pass on the lan, checklist and intercontinental profiles (seeds 101, 102,
/// 103: never the graded 1, 7, 21) with a wire::RangeModelTrainer on the server, then writes the learned
/// table as C++ to `path` (the arena's game/src/snapshot_model_table.cpp) and a summary to `out`. The passes
/// code with `o`'s snapshot codec (train with --snapshot-codec range). Returns the process exit code.
int train_snapshot_model(const LabOptions& o, const std::string& path, std::FILE* out);

}  // namespace lab
