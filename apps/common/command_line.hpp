// What every rewind program shares on its command line: range checks that speak in the option's own unit, and
// one line on stderr naming the option with exit code 2 for a bad command line.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>

namespace apps {

/// The exit code of every program for a bad command line (unknown option, bad value, out of range, ...).
inline constexpr int kUsageError = 2;

/// A check that a number lies in [lo, hi], in the option's own unit: "--loss: 150 is not in 0..100 %".
inline CLI::Validator number_in(double lo, double hi, const std::string& unit) {
    char range[64];
    std::snprintf(range, sizeof range, "%g..%g%s%s", lo, hi, unit.empty() ? "" : " ", unit.c_str());
    const std::string text = range;
    return CLI::Validator(
        [lo, hi, text](std::string& value) -> std::string {
            double v = 0.0;
            if (!CLI::detail::lexical_cast(value, v)) return value + " is not a number";
            if (!(v >= lo && v <= hi)) return value + " is not in " + text;
            return {};
        },
        "in " + text);
}

/// Parses `argv` into `app`. Nothing when the program goes on; otherwise what main() returns: 0 after --help
/// (printed), kUsageError after a bad command line, reported as "<program>: <what> (--help lists the
/// options)".
inline std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv, const char* program) {
    try {
        app.parse(argc, argv);
        return std::nullopt;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help
        std::string what = e.what();
        for (char& ch : what)
            if (ch == '\n') ch = ' ';  // one line, always
        std::fprintf(stderr, "%s: %s (--help lists the options)\n", program, what.c_str());
        return kUsageError;
    }
}

}  // namespace apps
