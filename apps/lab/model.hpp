// A sync model the lab can measure: one function from options to a graded, plottable result.
#pragma once

#include "grade.hpp"
#include "options.hpp"
#include "plot.hpp"

#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lab {

/// What measuring one model produced.
struct ModelResult {
    std::vector<std::string> header;   ///< scenario lines printed above the verdict
    std::vector<std::string> notes;    ///< extra lines printed below the table unless --quiet (wrapped)
    std::vector<std::string> details;  ///< wide tables printed below the notes with --verbose only
    Verdict verdict;                   ///< the graded checklist items
    nlohmann::json figures;            ///< every measured figure (written by --json)
    std::vector<std::pair<std::string, Chart>> charts;  ///< (file stem, chart), written by --plot
};

/// Runs the model on the options' scenario (options already validated).
using ModelFn = ModelResult (*)(const LabOptions& options);

/// One registered model.
struct ModelEntry {
    std::string_view name;     ///< the --model value
    std::string_view summary;  ///< one line for --help
    ModelFn run;               ///< the measurement
    int min_players = 1;       ///< the --players it takes
    int max_players = 1;
    int default_players = 1;  ///< without --players
};

/// Every model the lab knows (models.cpp: one line per model; each model lives in its own file).
std::span<const ModelEntry> models();
/// The model called `name`, or nullptr.
const ModelEntry* find_model(std::string_view name);

/// The client-server model (cs_model.cpp).
ModelResult run_client_server(const LabOptions& options);

}  // namespace lab
