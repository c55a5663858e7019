// The lab's verdicts: one graded checklist item with the measured figure behind it, and the printed report.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace lab {

/// One verification-checklist item as the lab graded it.
struct Grade {
    std::string item;      ///< the checklist item, e.g. "Clock sync"
    std::string measured;  ///< the figure measured in this run, with units
    std::string target;    ///< what the figure must satisfy
    bool pass = false;
    bool graded = true;  ///< false: shown for information, counted neither as passed nor as failed
};

/// The graded items of one run.
struct Verdict {
    std::vector<Grade> grades;

    /// Adds an item; `pass` is the comparison of the measured figure against the target.
    void add(std::string item, std::string measured, std::string target, bool pass);
    /// Adds a row that is not graded (yet): printed, never counted.
    void skip(std::string item, std::string measured, std::string why);
    /// True when every graded item passed (and at least one was graded).
    [[nodiscard]] bool all_pass() const;
    /// Graded items that passed.
    [[nodiscard]] int passed() const;
    /// Graded items that failed.
    [[nodiscard]] int failed() const;
};

/// Prints the verdict as an aligned table with PASS/FAIL per item and a closing summary line.
void print_verdict(const Verdict& verdict, std::FILE* out);

/// printf into a std::string, for measured figures.
std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace lab
