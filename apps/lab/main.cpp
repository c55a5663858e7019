// rewind-lab: measures a sync model on bot-driven matches over a simulated network and grades the checklist.
#include "model.hpp"
#include "net_replay_mode.hpp"
#include "options.hpp"
#include "output_paths.hpp"
#include "report.hpp"
#include "train_model.hpp"

#include "common/command_line.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    lab::LabOptions options;
    CLI::App app{
        "rewind-lab: one server and N bot clients in one process over SimNetwork, on virtual time; "
        "prints the graded verification checklist and exits non-zero if an item fails"};
    lab::add_options(app, options);
    if (auto code = apps::parse_command_line(app, argc, argv, "rewind-lab")) return *code;
    if (auto s = options.validate(); !s) {
        const auto d = s.error().detail;
        std::fprintf(stderr, "rewind-lab: %.*s\n", static_cast<int>(d.size()), d.data());
        return apps::kUsageError;
    }
    if (const std::string bad = lab::check_output_paths(options); !bad.empty()) {
        std::fprintf(stderr, "rewind-lab: %s\n", bad.c_str());
        return apps::kUsageError;
    }
    if (!options.replay_net_path.empty()) return lab::replay_net(options.replay_net_path, stdout);
    if (!options.train_model_path.empty())
        return lab::train_snapshot_model(options, options.train_model_path, stdout);
    const lab::ModelResult result = lab::find_model(options.model)->run(options);  // validated
    return lab::report(options, result, stdout);
}
