// The lab's one-page HTML summary (--html): the graded table beside the charts, in one file to share.
#pragma once

#include "model.hpp"
#include "options.hpp"

#include <string>

namespace lab {

/// A self-contained HTML page (charts embedded as PNG data) of the run: its header lines, the graded table
/// (item, PASS/FAIL, the deciding figures, and for a failed item why), and every chart with its caption.
std::string html_report(const LabOptions& options, const ModelResult& result);

}  // namespace lab
