// Checks, before a run, that the lab can write the files its options name.
#pragma once

#include "options.hpp"

#include <string>

namespace lab {

/// Empty when the --json file, the --train-snapshot-model file and the --plot directory (created if missing)
/// can be written; otherwise one line naming the option, the path and the reason ("--json /x/r.json: No such
/// file or directory"). A file that did not exist is not left behind.
std::string check_output_paths(const LabOptions& options);

}  // namespace lab
