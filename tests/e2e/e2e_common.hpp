// Shared pieces of the end-to-end tests: the program paths, starting a server and reading its port, client
// reports.
#pragma once

#include "process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace e2e {

using namespace std::chrono_literals;

/// The built programs (paths baked in by tests/CMakeLists.txt).
inline const std::string kServerBin = E2E_SERVER_BIN;
inline const std::string kClientBin = E2E_CLIENT_BIN;
inline const std::string kRelayBin = E2E_RELAY_BIN;
inline const std::string kLabBin = E2E_LAB_BIN;
inline const std::string kTokenBin = E2E_TOKEN_BIN;
inline const std::string kNetdemoBin = E2E_NETDEMO_BIN;

/// A started rewind-server on an OS-chosen port (read from its first log line).
struct ServerProc {
    std::unique_ptr<Process> proc;
    int port = 0;
};

/// Starts rewind-server --port 0 with `extra` options; fails the test if no port shows within 10 s.
inline ServerProc start_server(const std::string& dir, const std::vector<std::string>& extra) {
    std::vector<std::string> argv{kServerBin, "--port", "0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ServerProc s;
    s.proc = std::make_unique<Process>(argv, dir + "/server.log");
    const auto line = s.proc->wait_for_line("event=listening", 10s);
    EXPECT_TRUE(line.has_value()) << "server log:\n" << s.proc->log();
    if (line) s.port = static_cast<int>(kv_int(*line, "port").value_or(0));
    return s;
}

/// The JSON of a client's "final {...}" line, or null when there is none (fails the test then).
inline nlohmann::json final_report(const Process& client) {
    const auto text = line_after(client.log(), "final ");
    EXPECT_TRUE(text.has_value()) << "no final line in " << client.log_path() << ":\n" << client.log();
    if (!text) return nullptr;
    return nlohmann::json::parse(*text, nullptr, false);
}

/// Runs `argv` with LeakSanitizer off: under AddressSanitizer the system's GL driver and D-Bus (loaded by
/// SDL) leak a few allocations at exit that no rewind code owns; leak checking stays on for every other
/// process.
inline std::unique_ptr<Process> start_windowed(const std::vector<std::string>& argv, const std::string& log) {
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string saved = asan ? asan : "";
    setenv("ASAN_OPTIONS",
           (saved.empty() ? std::string("detect_leaks=0") : saved + ":detect_leaks=0").c_str(), 1);
    auto p = std::make_unique<Process>(argv, log);
    if (asan)
        setenv("ASAN_OPTIONS", saved.c_str(), 1);
    else
        unsetenv("ASAN_OPTIONS");
    return p;
}

/// Draws `file` in rewind-client --replay's window under Xvfb (when xvfb-run is installed) and expects a
/// screenshot of its 60th frame in `dir`.
inline void expect_replay_window(const std::string& dir, const std::string& file) {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) return;
    const std::string png = dir + "/replay.png";
    const auto window =
        start_windowed({"xvfb-run", "-a", "-s", "-screen 0 1024x640x24", kClientBin, "--replay", file,
                        "--width", "1024", "--height", "640", "--screenshot", png, "--frames", "60"},
                       dir + "/replay_window.log");
    const auto shown = window->wait(60s);
    ASSERT_TRUE(shown) << "the windowed replay did not finish";
    EXPECT_EQ(*shown, 0) << window->log();
    EXPECT_TRUE(std::filesystem::exists(png)) << window->log();
}

}  // namespace e2e
