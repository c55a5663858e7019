// Tests for Logger: the hook receives messages with user pointer and level, levels filter, logf formats
// safely.
#include <rewind/core/log.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rwd {
namespace {

struct Captured {
    std::vector<std::pair<LogLevel, std::string>> lines;
};

void capture(void* user, LogLevel level, std::string_view message) {
    static_cast<Captured*>(user)->lines.emplace_back(level, std::string(message));
}

Logger capturing(Captured& c, LogLevel min) { return Logger{&capture, &c, min}; }

TEST(Logger, DefaultIsSilentAndSafe) {
    Logger none;
    EXPECT_EQ(none.min_level, LogLevel::info);
    EXPECT_FALSE(none.enabled(LogLevel::error));
    none.log(LogLevel::error, "dropped");
    logf(none, LogLevel::error, "dropped %d", 1);
}

TEST(Logger, HookReceivesUserLevelAndMessage) {
    Captured c;
    const Logger log = capturing(c, LogLevel::debug);
    log.log(LogLevel::warn, "link degraded");
    log.log(LogLevel::debug, "detail");
    ASSERT_EQ(c.lines.size(), 2u);
    EXPECT_EQ(c.lines[0].first, LogLevel::warn);
    EXPECT_EQ(c.lines[0].second, "link degraded");
    EXPECT_EQ(c.lines[1].first, LogLevel::debug);
}

TEST(Logger, LevelsBelowMinimumAreFiltered) {
    for (LogLevel min : {LogLevel::debug, LogLevel::info, LogLevel::warn, LogLevel::error}) {
        Captured c;
        const Logger log = capturing(c, min);
        int expected = 0;
        for (LogLevel l : {LogLevel::debug, LogLevel::info, LogLevel::warn, LogLevel::error}) {
            log.log(l, level_name(l));
            logf(log, l, "%s", "f");
            if (l >= min) expected += 2;
            EXPECT_EQ(log.enabled(l), l >= min);
        }
        EXPECT_EQ(static_cast<int>(c.lines.size()), expected) << level_name(min);
        for (const auto& [level, text] : c.lines) EXPECT_GE(level, min);
    }
}

TEST(Logger, LogfFormats) {
    Captured c;
    const Logger log = capturing(c, LogLevel::info);
    logf(log, LogLevel::info, "peer %u rtt %.1f ms %s", 3u, 42.25, "ok");
    ASSERT_EQ(c.lines.size(), 1u);
    EXPECT_EQ(c.lines[0].second, "peer 3 rtt 42.2 ms ok");
}

TEST(Logger, LogfSkipsFormattingWhenFiltered) {
    Captured c;
    const Logger log = capturing(c, LogLevel::error);
    logf(log, LogLevel::info, "%s", "never");
    EXPECT_TRUE(c.lines.empty());
}

TEST(Logger, LogfTruncatesLongMessagesVisibly) {
    Captured c;
    const Logger log = capturing(c, LogLevel::info);
    const std::string big(2000, 'x');
    logf(log, LogLevel::info, "%s", big.c_str());
    ASSERT_EQ(c.lines.size(), 1u);
    const std::string& got = c.lines[0].second;
    EXPECT_EQ(got.size(), kMaxLogMessage);
    EXPECT_EQ(got.substr(got.size() - 3), "...");
    EXPECT_EQ(got.substr(0, 10), std::string(10, 'x'));
    logf(log, LogLevel::info, "%s", std::string(kMaxLogMessage, 'y').c_str());
    EXPECT_EQ(c.lines.back().second, std::string(kMaxLogMessage, 'y')) << "exactly the maximum is not cut";
}

TEST(Logger, LevelNames) {
    EXPECT_EQ(level_name(LogLevel::debug), "debug");
    EXPECT_EQ(level_name(LogLevel::info), "info");
    EXPECT_EQ(level_name(LogLevel::warn), "warn");
    EXPECT_EQ(level_name(LogLevel::error), "error");
}

TEST(Logger, StderrLoggerWritesALine) {
    const Logger log = stderr_logger(LogLevel::warn);
    EXPECT_NE(log.fn, nullptr);
    EXPECT_EQ(log.min_level, LogLevel::warn);
    EXPECT_FALSE(log.enabled(LogLevel::info));
    testing::internal::CaptureStderr();
    log.log(LogLevel::warn, "hello");
    log.log(LogLevel::info, "hidden");
    logf(log, LogLevel::error, "n=%d", 5);
    const std::string out = testing::internal::GetCapturedStderr();
    EXPECT_EQ(out, "[rewind warn] hello\n[rewind error] n=5\n");
}

}  // namespace
}  // namespace rwd
