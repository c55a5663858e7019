// Process: posix_spawn with redirected output, waitpid polling with a deadline, log scanning.
#include "process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace e2e {

Process::Process(const std::vector<std::string>& argv, std::string log_path)
    : log_path_(std::move(log_path)) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const int rc = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
}

Process::~Process() {
    if (pid_ > 0 && !exit_code_) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

void Process::signal(int sig) {
    if (pid_ > 0 && !exit_code_) ::kill(pid_, sig);
}

std::optional<int> Process::wait(std::chrono::milliseconds timeout) {
    if (exit_code_) return exit_code_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            return exit_code_;
        }
        if (r < 0 && errno != EINTR) return std::nullopt;
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::string Process::log() const {
    std::ifstream in(log_path_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::optional<std::string> Process::wait_for_line(const std::string& needle,
                                                  std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        std::istringstream lines(log());
        std::string line;
        while (std::getline(lines, line))
            if (line.find(needle) != std::string::npos) return line;
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::optional<long long> kv_int(const std::string& line, const std::string& key) {
    const std::string k = key + "=";
    std::size_t pos = 0;
    while ((pos = line.find(k, pos)) != std::string::npos) {
        if (pos == 0 || line[pos - 1] == ' ') {
            try {
                return std::stoll(line.substr(pos + k.size()));
            } catch (const std::exception&) {
                return std::nullopt;
            }
        }
        pos += k.size();
    }
    return std::nullopt;
}

std::optional<std::string> line_after(const std::string& text, const std::string& prefix) {
    std::istringstream lines(text);
    std::string line;
    std::optional<std::string> found;
    while (std::getline(lines, line))
        if (line.rfind(prefix, 0) == 0) found = line.substr(prefix.size());
    return found;
}

std::string test_dir(const std::string& name) {
    const auto dir = std::filesystem::path(E2E_WORK_DIR) / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
}

}  // namespace e2e
