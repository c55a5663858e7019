// The lab's verdicts: one graded checklist item with the measured figure behind it, and the printed report.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace lab {

/// One verification-checklist item as the lab graded it.
struct Grade {
    std::string item;      ///< the checklist item, e.g. "Clock sync"
    std::string figure;    ///< the figures that decide it, with their bounds, short enough for one line
    std::string measured;  ///< everything measured behind it, with units (--verbose and the JSON)
    std::string target;    ///< what the figure must satisfy
    bool pass = false;
    bool graded = true;  ///< false: shown for information, counted neither as passed nor as failed
    std::string
        why;  ///< when it failed: each figure that missed its bound, e.g. "registration 64.7 % < 99 %"
};

/// The conditions of one item, each with the reason it gives when it does not hold: a failed item says which
/// figure missed which bound instead of a bare FAIL.
class Checks {
public:
    /// Records the printf-formatted reason when `ok` is false; returns `ok`.
    bool need(bool ok, const char* format, ...) __attribute__((format(printf, 3, 4)));
    /// True when every condition held.
    [[nodiscard]] bool ok() const { return reasons_.empty(); }
    /// The reasons of the conditions that failed, joined by "; " (empty when ok()).
    [[nodiscard]] std::string why() const;

private:
    std::vector<std::string> reasons_;
};

/// The graded items of one run.
struct Verdict {
    std::vector<Grade> grades;

    /// Adds an item; `pass` is the comparison of the measured figure against the target.
    void add(std::string item, std::string figure, std::string measured, std::string target, bool pass);
    /// Adds an item that passes when every check held; a failure carries the checks' reasons.
    void add(std::string item, std::string figure, std::string measured, std::string target,
             const Checks& checks);
    /// Adds a row that is not graded (yet): printed, never counted.
    void skip(std::string item, std::string figure, std::string measured, std::string why);
    /// True when every graded item passed (and at least one was graded).
    [[nodiscard]] bool all_pass() const;
    /// Graded items that passed.
    [[nodiscard]] int passed() const;
    /// Graded items that failed.
    [[nodiscard]] int failed() const;
};

/// Prints the verdict with PASS/FAIL per item (a failed one followed by its reasons) and a closing summary
/// line. By default one line per item, its deciding figures, within kReportColumns; `verbose`: everything
/// measured and the target of each item, wrapped to the same width.
void print_verdict(const Verdict& verdict, std::FILE* out, bool verbose = false);

/// printf into a std::string, for measured figures.
std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace lab
