// The windowed client-server client (SDL2 + Dear ImGui).
#pragma once

#include "client/options.hpp"

namespace apps {

/// Opens the window and plays until it is closed, --duration, a signal, or --screenshot is taken. Exit code 0
/// unless the window could not open, the session could not start, or a screenshot failed.
[[nodiscard]] int run_gui(const ClientOptions& options);

}  // namespace apps
