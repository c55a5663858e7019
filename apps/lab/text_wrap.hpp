// Word wrapping for the lab's report, so that it reads in a 100-column terminal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lab {

/// The width of the report in columns.
inline constexpr int kReportColumns = 100;

/// Columns `text` takes: one per UTF-8 code point ("±" is one column, two bytes).
int text_columns(std::string_view text);

/// `text` broken at spaces into lines of at most `width` columns: the first starts with `first`, the others
/// with `rest` (an indent). A word longer than a line stands alone on its line.
std::vector<std::string> wrap(std::string_view text, std::string_view first, std::string_view rest,
                              int width = kReportColumns);

}  // namespace lab
