// Private to the lab: the client-server items graded on the scenario's network (cs_grade_net.cpp), for
// cs_grade.cpp.
#pragma once

#include "cs_grade.hpp"

namespace lab {

/// Share of on-screen hits that registered among those whose shooter and target were alive on the server;
/// `live` receives that count.
double live_share(const ShotFigures& s, std::uint64_t& live);
/// Item 3: no own correction at 0 ms; under the scenario sub-pixel reconciliation, late inputs and visible
/// own corrections.
void grade_prediction(const CsFigures& f, const CsRules& r, Verdict& v);
/// Item 7: snapshots keep flowing at 10 % loss; every event and every death once, in order.
void grade_channel(const CsFigures& f, const CsRules& r, Verdict& v);
/// Item 8: registration at 0 ms and on the scenario's network; the probe's lying shots clamped.
void grade_lag_comp(const CsFigures& f, const CsRules& r, Verdict& v);
/// The end-to-end latency row (not graded): what the input buffer and the interpolation delay cost.
void latency_row(const PassFigures& m, Verdict& v);

}  // namespace lab
