// Prints the lab's graded checklist.
#include "grade.hpp"

#include <algorithm>
#include <cstdarg>

namespace lab {

void Verdict::add(std::string item, std::string measured, std::string target, bool pass) {
    grades.push_back(Grade{std::move(item), std::move(measured), std::move(target), pass});
}

bool Verdict::all_pass() const {
    return !grades.empty() && std::all_of(grades.begin(), grades.end(), [](const Grade& g) { return g.pass; });
}

void print_verdict(const Verdict& verdict, std::FILE* out) {
    std::size_t wi = 4, wm = 8;
    for (const auto& g : verdict.grades) {
        wi = std::max(wi, g.item.size());
        wm = std::max(wm, g.measured.size());
    }
    const int iw = static_cast<int>(wi), mw = static_cast<int>(wm);
    std::fprintf(out, "  %-4s  %-*s  %-*s  %s\n", "", iw, "item", mw, "measured", "target");
    int passed = 0;
    for (const auto& g : verdict.grades) {
        std::fprintf(out, "  %-4s  %-*s  %-*s  %s\n", g.pass ? "PASS" : "FAIL", iw, g.item.c_str(), mw,
                     g.measured.c_str(), g.target.c_str());
        passed += g.pass ? 1 : 0;
    }
    const int failed = static_cast<int>(verdict.grades.size()) - passed;
    std::fprintf(out, "checklist: %d passed, %d failed\n", passed, failed);
}

std::string fmt(const char* format, ...) {
    char buf[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    return buf;
}

}  // namespace lab
