// The lab's outputs: the printed report, the JSON file and the PNG charts, and the exit code they imply.
#pragma once

#include "model.hpp"
#include "options.hpp"

#include <cstdio>

namespace lab {

/// Prints the header, the verdict and the notes to `out`, writes --json and --plot; returns the process exit
/// code: 0 all graded items passed, 1 an item failed, 3 an output file could not be written.
int report(const LabOptions& options, const ModelResult& result, std::FILE* out);

/// The JSON document --json writes: options, figures and the verdict rows.
nlohmann::json report_json(const LabOptions& options, const ModelResult& result);

}  // namespace lab
