/// Logger: a replaceable log hook carried in configs (no global logger), plus a stderr logger and printf
/// helper.
#pragma once

#include <cstddef>
#include <string_view>

namespace rwd {

/// How important a log message is; a Logger drops messages below its min_level.
enum class LogLevel { debug, info, warn, error };

/// The readable name of a level: "debug", "info", "warn" or "error".
constexpr std::string_view level_name(LogLevel level) {
    switch (level) {
        case LogLevel::debug:
            return "debug";
        case LogLevel::info:
            return "info";
        case LogLevel::warn:
            return "warn";
        case LogLevel::error:
            return "error";
    }
    return "unknown";
}

/// A log sink the app supplies: a plain function pointer plus its user pointer. A default Logger is silent.
struct Logger {
    /// The hook: receives the app's `user` pointer, the level and the message (not null-terminated, no
    /// newline).
    using Fn = void (*)(void* user, LogLevel level, std::string_view message);
    Fn fn = nullptr;                      ///< where messages go; null drops everything
    void* user = nullptr;                 ///< passed back to fn untouched
    LogLevel min_level = LogLevel::info;  ///< messages below this level are dropped

    /// Whether a message at `level` would reach the hook (use it to skip building expensive messages).
    [[nodiscard]] constexpr bool enabled(LogLevel level) const { return fn != nullptr && level >= min_level; }
    /// Passes `message` to the hook if enabled(level).
    void log(LogLevel level, std::string_view message) const {
        if (enabled(level)) fn(user, level, message);
    }
};

/// A logger that writes "[rewind <level>] <message>" lines to stderr, dropping messages below `min`.
Logger stderr_logger(LogLevel min = LogLevel::info);

/// Longest message logf produces; longer ones are cut and end in "...".
inline constexpr std::size_t kMaxLogMessage = 511;

/// printf-style logging through `logger`; formats (on the stack, no heap) only when the level is enabled.
void logf(const Logger& logger, LogLevel level, const char* fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

}  // namespace rwd
