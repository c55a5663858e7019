// rewind-lab: measures a sync model on bot-driven matches over a simulated network and grades the checklist.
#include "model.hpp"
#include "options.hpp"
#include "report.hpp"
#include "train_model.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    lab::LabOptions options;
    CLI::App app{
        "rewind-lab: one server and N bot clients in one process over SimNetwork, on virtual time; "
        "prints the graded verification checklist and exits non-zero if an item fails"};
    lab::add_options(app, options);
    CLI11_PARSE(app, argc, argv);
    if (auto s = options.validate(); !s) {
        const auto d = s.error().detail;
        std::fprintf(stderr, "rewind-lab: %.*s\n", static_cast<int>(d.size()), d.data());
        return 2;
    }
    if (!options.train_model_path.empty())
        return lab::train_snapshot_model(options, options.train_model_path, stdout);
    const lab::ModelEntry* model = lab::find_model(options.model);
    if (!model) {
        std::fprintf(stderr, "rewind-lab: unknown model '%s' (known:", options.model.c_str());
        for (const auto& m : lab::models())
            std::fprintf(stderr, " %.*s", static_cast<int>(m.name.size()), m.name.data());
        std::fprintf(stderr, ")\n");
        return 2;
    }
    const lab::ModelResult result = model->run(options);
    return lab::report(options, result, stdout);
}
