// RealClock, SignalWaiter and KvLog for the programs.
#include "common/app_support.hpp"

#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <ctime>

namespace apps {

namespace {

sigset_t stop_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

}  // namespace

SignalWaiter::SignalWaiter() {
    const sigset_t set = stop_signals();
    sigprocmask(SIG_BLOCK, &set, nullptr);
}

void SignalWaiter::pause(rwd::Micros span) {
    const int asked = signal_;
    signal_ = 0;
    (void)sleep(span);
    if (asked != 0) signal_ = asked;
}

bool SignalWaiter::sleep(rwd::Micros span) {
    if (signal_ != 0) return true;
    const sigset_t set = stop_signals();
    const std::int64_t us = span.count < 0 ? 0 : span.count;
    timespec ts{static_cast<time_t>(us / 1'000'000), static_cast<long>((us % 1'000'000) * 1000)};
    for (;;) {
        const int sig = sigtimedwait(&set, nullptr, &ts);
        if (sig > 0) {
            signal_ = sig;
            return true;
        }
        if (errno == EINTR) continue;  // another signal woke us early; sleeping a little less is harmless
        return false;                  // EAGAIN: the deadline passed
    }
}

const char* SignalWaiter::name() const {
    if (signal_ == SIGINT) return "SIGINT";
    if (signal_ == SIGTERM) return "SIGTERM";
    return "";
}

void KvLog::kv(rwd::LogLevel level, std::string_view pairs) const {
    std::fprintf(out_, "t=%.3f level=%s src=%s %.*s\n", clock_.now().seconds(), rwd::level_name(level).data(),
                 source_.c_str(), static_cast<int>(pairs.size()), pairs.data());
    std::fflush(out_);
}

void KvLog::kvf(rwd::LogLevel level, const char* fmt, ...) const {
    char buf[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    kv(level, buf);
}

rwd::Logger KvLog::logger(rwd::LogLevel min) const {
    rwd::Logger l;
    l.fn = &KvLog::hook;
    l.user = const_cast<KvLog*>(this);  // the hook only reads
    l.min_level = min;
    return l;
}

void KvLog::hook(void* user, rwd::LogLevel level, std::string_view message) {
    const auto* self = static_cast<const KvLog*>(user);
    std::string quoted = "msg=\"";
    for (char c : message) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += (c == '\n' ? ' ' : c);
    }
    quoted += '"';
    self->kv(level, quoted);
}

}  // namespace apps
