// The headless client: a bot plays over real UDP without a window; prints a final JSON stats line (load
// tests).
#pragma once

#include "client/options.hpp"

#include <rewind/transport/conditioned_transport.hpp>

namespace apps {

/// Runs until --duration, a signal, or the session ends. Exit code 0 when it played and left cleanly
/// (duration, signal, or the server shutting down), 1 when it never got to play or lost the server otherwise.
[[nodiscard]] int run_headless(const ClientOptions& options);

/// The client-side conditioner's links from the options (each direction the same).
[[nodiscard]] rwd::transport::ConditionedLinks links_from(const ClientOptions& options);

}  // namespace apps
