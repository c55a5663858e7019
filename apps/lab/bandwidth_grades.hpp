// Snapshot bandwidth in the lab: per-client delta/full measurement, the interest check, and the two checklist
// grades.
#pragma once

#include "cs_figures.hpp"
#include "cs_match.hpp"
#include "grade.hpp"

#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>

#include "arena/arena_game.hpp"

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace lab {

/// Accumulates one pass's snapshot bandwidth: the real (delta, interest-managed) snapshots from the server's
/// per-client stats, full quantized snapshots measured with MeasureStream on the same worlds, and the
/// interest check.
class BandwidthMeter {
public:
    /// Measures what a full quantized snapshot of `s` would cost (every entity, no baseline) for the mean.
    void sample_full(const arena::State& s, std::size_t transport_header_bytes);
    /// Keeps the server's world after `tick` (the last second of them) for the interest check.
    void record_world(rwd::Tick tick, const arena::State& s);
    /// Checks one client's entity ids, as of its newest snapshot (of server tick `tick`), against the
    /// server's world at that tick: every entity beyond the radius from the client's own entity must be
    /// absent (zero bytes for it); those within it should be present (the byte budget may postpone some).
    void sample_interest(rwd::Tick tick, int slot, const std::vector<std::uint32_t>& received_ids,
                         double radius_m);
    /// Adds one client's server-side snapshot stats.
    void add_client(const rwd::client_server::ServerClientStats& sv, int snapshot_rate_hz);
    /// Writes the figures.
    void finish(BandwidthFigures& out) const;

private:
    std::deque<std::pair<rwd::Tick, std::vector<arena::ArenaGame::EntityRecord>>> worlds_;
    double full_wire_bytes_ = 0, full_samples_ = 0;
    std::vector<double> kbps_;
    double wire_bytes_ = 0, payload_bytes_ = 0, unpredicted_bytes_ = 0, snapshots_ = 0, entity_bits_ = 0,
           entities_ = 0, with_baseline_ = 0, left_out_ = 0, budget_limited_ = 0;
    std::uint64_t interest_checks_ = 0, outside_received_ = 0, inside_missing_ = 0, inside_total_ = 0,
                  outside_total_ = 0;
};

/// The 64-player pass of the delta-compression item: the main pass's links, 64 players, 30 Hz snapshots.
PassConfig bandwidth_pass(const PassConfig& main, double duration_s);
/// The 64-player pass run_client_server() runs for options `o` (cs_model.cpp).
PassConfig bandwidth_pass_for(const LabOptions& o);
/// Grades "Delta compression" (64 players: median per-client kbps <= 32, ratio vs full) and "Interest
/// management" (no entity outside the area of interest reaches a client) from the 64-player pass.
void grade_bandwidth(const PassFigures& pass64, Verdict& v);

}  // namespace lab
