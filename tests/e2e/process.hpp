// Child processes for the end-to-end tests: spawn with output to a log file, wait with a deadline, signal,
// read logs.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace e2e {

/// One child process whose stdout and stderr go to a log file. The destructor kills it if it still runs.
class Process {
public:
    /// Starts `argv` (argv[0] is a path) with output to `log_path`; throws std::runtime_error if it cannot.
    Process(const std::vector<std::string>& argv, std::string log_path);
    ~Process();
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    /// Sends `sig` (if the child still runs).
    void signal(int sig);
    /// Waits up to `timeout` for the exit; the exit code (128 + signal if killed by one), or nothing on
    /// timeout.
    std::optional<int> wait(std::chrono::milliseconds timeout);
    /// The whole log so far.
    [[nodiscard]] std::string log() const;
    /// Waits up to `timeout` for a line containing `needle`; that line, or nothing.
    std::optional<std::string> wait_for_line(const std::string& needle,
                                             std::chrono::milliseconds timeout) const;
    /// The log file.
    [[nodiscard]] const std::string& log_path() const { return log_path_; }

private:
    pid_t pid_ = -1;
    std::optional<int> exit_code_;
    std::string log_path_;
};

/// The integer after `key=` in `line` (e.g. "port=1234"), or nothing.
std::optional<long long> kv_int(const std::string& line, const std::string& key);
/// The line of `text` starting with `prefix` (the last one), without the prefix, or nothing.
std::optional<std::string> line_after(const std::string& text, const std::string& prefix);
/// A fresh directory under the test binary's folder for one test's logs.
std::string test_dir(const std::string& name);

}  // namespace e2e
