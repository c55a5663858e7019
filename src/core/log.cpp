// The stderr logger and the printf-style logf helper.
#include <rewind/core/log.hpp>

#include <cstdarg>
#include <cstdio>

namespace rwd {

namespace {

void write_stderr(void* /*user*/, LogLevel level, std::string_view message) {
    const std::string_view name = level_name(level);
    std::fprintf(stderr, "[rewind %.*s] %.*s\n", static_cast<int>(name.size()), name.data(),
                 static_cast<int>(message.size()), message.data());
}

}  // namespace

Logger stderr_logger(LogLevel min) { return Logger{&write_stderr, nullptr, min}; }

void logf(const Logger& logger, LogLevel level, const char* fmt, ...) {
    if (!logger.enabled(level) || fmt == nullptr) return;
    char buf[kMaxLogMessage + 1];
    std::va_list args;
    va_start(args, fmt);
    const int n = std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    if (n < 0) return;  // encoding error: nothing sensible to log
    std::size_t len = static_cast<std::size_t>(n);
    if (len > kMaxLogMessage) {  // cut: say so rather than silently losing the tail
        len = kMaxLogMessage;
        buf[len - 3] = '.';
        buf[len - 2] = '.';
        buf[len - 1] = '.';
    }
    logger.log(level, std::string_view(buf, len));
}

}  // namespace rwd
