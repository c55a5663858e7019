// What every rewind program needs around the library: the real clock, signal-aware sleeping, key=value
// logging.
#pragma once

#include <rewind/core/log.hpp>
#include <rewind/core/time.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

namespace apps {

/// The program's one real clock: std::chrono::steady_clock as rwd::Micros since construction.
class RealClock {
public:
    RealClock() : start_(std::chrono::steady_clock::now()) {}
    /// Microseconds since the clock was made.
    [[nodiscard]] rwd::Micros now() const {
        return rwd::Micros{
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_)
                .count()};
    }
    /// The same, in the shape ServerConfig::clock wants (user = a RealClock).
    static rwd::Micros read(void* user) { return static_cast<const RealClock*>(user)->now(); }

private:
    std::chrono::steady_clock::time_point start_;
};

/// Blocks SIGINT and SIGTERM for the process and lets the main loop sleep until a deadline or one of them
/// arrives (sigtimedwait), so a signal never interrupts library code and no handler or global flag is needed.
class SignalWaiter {
public:
    /// Blocks the two signals (call before starting threads; the programs have none).
    SignalWaiter();
    /// Sleeps up to `span` (0 = just look); true if SIGINT or SIGTERM arrived (then it stays true).
    bool sleep(rwd::Micros span);
    /// Sleeps `span` even after a signal arrived (sleep() then returns at once): for the loops that run on
    /// after the stop was asked, such as a server's goodbye. The signal stays noted.
    void pause(rwd::Micros span);
    /// Whether a signal has arrived.
    [[nodiscard]] bool stopped() const { return signal_ != 0; }
    /// The signal's name ("SIGINT", "SIGTERM") or "" if none.
    [[nodiscard]] const char* name() const;

private:
    int signal_ = 0;
};

/// Writes structured log lines to a FILE: `t=<seconds> level=<level> src=<source> <message>`, where messages
/// the programs write themselves are key=value pairs and library messages go in msg="...".
class KvLog {
public:
    /// A log writing to `out` (stdout or stderr) with `source` (e.g. "server") and times from `clock`.
    KvLog(std::FILE* out, std::string source, const RealClock& clock)
        : out_(out), source_(std::move(source)), clock_(clock) {}
    /// One line of key=value pairs (the caller formats them).
    void kv(rwd::LogLevel level, std::string_view pairs) const;
    /// printf-style key=value line.
    void kvf(rwd::LogLevel level, const char* fmt, ...) const
#if defined(__GNUC__) || defined(__clang__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;
    /// A Logger for library configs: each message becomes `msg="..."` on its own line.
    [[nodiscard]] rwd::Logger logger(rwd::LogLevel min = rwd::LogLevel::info) const;

private:
    static void hook(void* user, rwd::LogLevel level, std::string_view message);

    std::FILE* out_;
    std::string source_;
    const RealClock& clock_;
};

}  // namespace apps
