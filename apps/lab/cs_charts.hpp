// Charts over time of a client-server pass, for --plot.
#pragma once

#include "cs_figures.hpp"
#include "plot.hpp"

#include <string>
#include <utility>
#include <vector>

namespace lab {

/// (file stem, chart) for each chart of the pass's overlay samples and corrections.
std::vector<std::pair<std::string, Chart>> client_server_charts(const PassFigures& main);

}  // namespace lab
