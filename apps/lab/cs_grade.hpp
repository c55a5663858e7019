// Grading of the client-server checklist items from measured figures (pure: testable on synthetic figures).
#pragma once

#include "cs_figures.hpp"
#include "grade.hpp"

namespace lab {

/// The thresholds the client-server items are graded against (README "rewind-lab" explains each).
struct CsRules {
    int tick_rate = 60;  ///< the tick rate the run used
    double client_rate_tolerance =
        0.01;                         ///< client tick rate within 1 % of the tick rate over the second half
    double offset_error_ticks = 1.0;  ///< median |arrival offset - target| at most this
    double px_per_m = 32.0;           ///< screen scale for "sub-pixel"
    double subpixel_share = 0.99;     ///< share of reconciliations that must be sub-pixel (p99 < 1 px)
    std::uint64_t min_shared_ticks = 300;  ///< ticks the shared-step comparison must cover
    double max_extrapolated_share = 0.02;  ///< render frames drawn past the newest snapshot at most 2 %
    double max_held_share = 0.005;         ///< frames frozen at the cap at most 0.5 %
    double max_snapshot_gap_ms = 250.0;    ///< longest time without a snapshot under 10 % loss
    double min_registered_share = 0.95;    ///< at 0 ms: on-screen hits on live targets that must register
    double min_registered_share_scenario =
        0.99;  ///< on the scenario's own network: on-screen hits on live targets that must register
    std::uint64_t min_judged_hits = 20;  ///< on-screen hits needed before a share is graded
    double max_late_share = 0.005;       ///< inputs arriving after their tick, per tick simulated (scenario)
    std::uint64_t max_own_visible = 0;   ///< own corrections of at least one pixel allowed under the scenario
    double max_drawn_step_m = 0.17;      ///< largest frame-to-frame jump of the drawn own player (not a snap)
};

/// The verdict on the client-server items (plus the issue-5 rows, shown ungraded).
Verdict grade_client_server(const CsFigures& f, const CsRules& rules);

}  // namespace lab
