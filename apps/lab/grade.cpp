// Prints the lab's graded checklist.
#include "grade.hpp"

#include <algorithm>
#include <cstdarg>

namespace lab {

void Verdict::add(std::string item, std::string measured, std::string target, bool pass) {
    grades.push_back(Grade{std::move(item), std::move(measured), std::move(target), pass, true, {}});
}

void Verdict::add(std::string item, std::string measured, std::string target, const Checks& checks) {
    grades.push_back(
        Grade{std::move(item), std::move(measured), std::move(target), checks.ok(), true, checks.why()});
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

void Verdict::skip(std::string item, std::string measured, std::string why) {
    grades.push_back(Grade{std::move(item), std::move(measured), std::move(why), false, false, {}});
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

void print_verdict(const Verdict& verdict, std::FILE* out) {
    std::size_t wi = 4, wm = 8;
    for (const auto& g : verdict.grades) {
        wi = std::max(wi, g.item.size());
        wm = std::max(wm, g.measured.size());
    }
    const int iw = static_cast<int>(wi), mw = static_cast<int>(wm);
    std::fprintf(out, "  %-4s  %-*s  %-*s  %s\n", "", iw, "item", mw, "measured", "target");
    for (const auto& g : verdict.grades) {
        const char* mark = !g.graded ? "----" : g.pass ? "PASS" : "FAIL";
        std::fprintf(out, "  %-4s  %-*s  %-*s  %s\n", mark, iw, g.item.c_str(), mw, g.measured.c_str(),
                     g.target.c_str());
        if (g.graded && !g.pass && !g.why.empty())
            std::fprintf(out, "  %-4s  %-*s  why: %s\n", "", iw, "", g.why.c_str());
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
