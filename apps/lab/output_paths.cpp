// Output path checks: open each file the way the report will (and remove it again if it is new), so a typo
// or a read-only directory is told at once instead of after the whole run.
#include "output_paths.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace lab {
namespace {

std::string check_file(const char* option, const std::string& path) {
    if (path.empty()) return {};
    std::error_code ec;
    const bool existed = std::filesystem::exists(path, ec);
    std::FILE* f = std::fopen(path.c_str(), "a");  // "a": an existing file keeps its content until the end
    if (!f) return std::string(option) + " " + path + ": " + std::strerror(errno);
    std::fclose(f);
    if (!existed) std::filesystem::remove(path, ec);
    return {};
}

std::string check_directory(const char* option, const std::string& dir) {
    if (dir.empty()) return {};
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return std::string(option) + " " + dir + ": " + ec.message();
    if (!std::filesystem::is_directory(dir, ec)) return std::string(option) + " " + dir + ": not a directory";
    const std::string probe = (std::filesystem::path(dir) / ".rewind-lab-write-check").string();
    std::FILE* f = std::fopen(probe.c_str(), "w");
    if (!f) return std::string(option) + " " + dir + ": " + std::strerror(errno);
    std::fclose(f);
    std::filesystem::remove(probe, ec);
    return {};
}

}  // namespace

std::string check_output_paths(const LabOptions& o) {
    for (std::string e :
         {check_file("--json", o.json_path), check_file("--html", o.html_path),
          check_file("--save-replay", o.replay_path),
          check_file("--train-snapshot-model", o.train_model_path), check_directory("--plot", o.plot_dir)})
        if (!e.empty()) return e;
    return {};
}

}  // namespace lab
