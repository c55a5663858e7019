// Prints the lab's graded checklist.
#include "grade.hpp"

#include "text_wrap.hpp"

#include <algorithm>
#include <cstdarg>

namespace lab {

void Verdict::add(std::string item, std::string figure, std::string measured, std::string target, bool pass) {
    grades.push_back(
        Grade{std::move(item), std::move(figure), std::move(measured), std::move(target), pass, true, {}});
}

void Verdict::add(std::string item, std::string figure, std::string measured, std::string target,
                  const Checks& checks) {
    grades.push_back(Grade{std::move(item), std::move(figure), std::move(measured), std::move(target),
                           checks.ok(), true, checks.why()});
}

bool Checks::need(bool ok, const char* format, ...) {
    if (ok) return true;
    char buf[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    reasons_.emplace_back(buf);  // reasons are short: one figure and its bound
    return false;
}

std::string Checks::why() const {
    std::string out;
    for (const auto& r : reasons_) out += (out.empty() ? "" : "; ") + r;
    return out;
}

void Verdict::skip(std::string item, std::string figure, std::string measured, std::string why) {
    grades.push_back(
        Grade{std::move(item), std::move(figure), std::move(measured), std::move(why), false, false, {}});
}

int Verdict::passed() const {
    return static_cast<int>(
        std::count_if(grades.begin(), grades.end(), [](const Grade& g) { return g.graded && g.pass; }));
}

int Verdict::failed() const {
    return static_cast<int>(
        std::count_if(grades.begin(), grades.end(), [](const Grade& g) { return g.graded && !g.pass; }));
}

bool Verdict::all_pass() const { return passed() > 0 && failed() == 0; }

void print_verdict(const Verdict& verdict, std::FILE* out, bool verbose) {
    int wi = 4;
    for (const auto& g : verdict.grades) wi = std::max(wi, text_columns(g.item));
    const std::string indent(static_cast<std::size_t>(8 + wi + 2), ' ');
    auto put = [out](const std::vector<std::string>& lines) {
        for (const std::string& l : lines) std::fprintf(out, "%s\n", l.c_str());
    };
    for (const auto& g : verdict.grades) {
        const char* mark = !g.graded ? "----" : g.pass ? "PASS" : "FAIL";
        std::string head = std::string("  ") + mark + "  " + g.item;
        head.append(static_cast<std::size_t>(wi - text_columns(g.item) + 2), ' ');
        put(wrap(verbose ? g.measured : g.figure, head, indent));
        if (verbose) put(wrap(g.target, indent + "target: ", indent + "  "));
        if (g.graded && !g.pass && !g.why.empty()) put(wrap(g.why, indent + "why: ", indent + "  "));
    }
    std::fprintf(out, "checklist: %d passed, %d failed\n", verdict.passed(), verdict.failed());
}

std::string fmt(const char* format, ...) {
    va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string out(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
    if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
    va_end(again);
    return out;
}

}  // namespace lab
