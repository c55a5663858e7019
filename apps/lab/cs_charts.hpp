// Charts over time of a client-server pass, for --plot.
#pragma once

#include "cs_figures.hpp"
#include "plot.hpp"

#include <string>
#include <utility>
#include <vector>

namespace lab {

/// (file stem, chart) for each chart of the pass's overlay samples and corrections: each figure's median over
/// the clients with their 10th-90th percentile band, and with `worst` the worst client's own line.
std::vector<std::pair<std::string, Chart>> client_server_charts(const PassFigures& main, bool worst);

}  // namespace lab
