// The client's rollback mode: a 2-player peer-to-peer arena match (P2PSession over ENet), windowed or
// headless.
#pragma once

#include "client/options.hpp"

namespace apps {

/// Listens on --listen, connects the two peers (slot 1 dials slot 0), plays until --duration, a signal or the
/// peer leaving, then prints `final {json}` (frames, rollbacks, checksums compared, desyncs). Exit 0 when the
/// match ran without a desync.
[[nodiscard]] int run_rollback(const ClientOptions& options);

}  // namespace apps
